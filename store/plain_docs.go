package store

import (
	"errors"
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
)

// plainDocs reads every row of each word (all its forms; a word still
// being typed that is no word is read as a prefix) from the index. The
// doclists of the tokens in keep are also returned whole, with their
// position lists (the in-order bonus reads them again otherwise).
// release gives their memory back for the next query's: after it, no row
// they hold may be used.
func plainDocs(ix *ftsIndex, pq *query.Plain, keep map[string]bool) (docs [][]fts5idx.Posting, kept map[string]fts5idx.Doclist, release func(), err error) {
	docs = make([][]fts5idx.Posting, len(pq.Words))
	kept = map[string]fts5idx.Doclist{}
	var held []fts5idx.Doclist // what docs and kept hold
	free := func() {
		for i := range held {
			held[i].Recycle()
		}
		held = nil
	}
	defer func() {
		if err != nil {
			free() // release is nil then
		}
	}()
	for i := range pq.Words {
		w := &pq.Words[i]
		read := func(prefix bool) ([]fts5idx.Posting, error) {
			type wordKey struct {
				key  []byte
				scan bool // a prefix no prefix index holds: its terms are scanned
			}
			var keys []wordKey
			for _, f := range w.Forms {
				if toks := analysis.Unicode61Tokens(f); len(toks) == 1 {
					keys = append(keys, wordKey{key: append([]byte{fts5idx.Main}, toks[0]...)})
				}
			}
			if prefix {
				toks := analysis.Unicode61Tokens(w.Text)
				if len(toks) != 1 {
					return nil, errFullRankNA
				}
				k := wordKey{key: append([]byte{fts5idx.Main}, toks[0]...), scan: true}
				for j, n := range ix.t.prefixes {
					if n == utf8.RuneCountInString(toks[0]) {
						k.key[0], k.scan = byte(fts5idx.Main+j+1), false
					}
				}
				keys = append(keys, k)
			}
			lists := make([]fts5idx.Doclist, 0, len(keys))
			posKept := make([]bool, 0, len(keys)) // lists[i] is in kept, for its positions
			// A word's inflections (error: errors, errored, ...; mostly in
			// no message, and an absent term costs a lookup as a present one
			// does) are read in one scan of their common prefix.
			withPos := func(k wordKey) bool { return !k.scan && k.key[0] == fts5idx.Main && keep[string(k.key[1:])] }
			var among [][]byte // whole words of the main index, positions not needed
			var rest []wordKey
			for _, k := range keys {
				if !k.scan && !withPos(k) && k.key[0] == fts5idx.Main {
					among = append(among, k.key)
				} else {
					rest = append(rest, k)
				}
			}
			if lcp := commonPrefix(among); len(among) >= 3 && utf8.RuneCount(lcp[1:]) >= 3 {
				d, err := fts5idx.PostingsAmong(ix.src, ix.st, lcp, among)
				if err != nil {
					return nil, indexErr(err)
				}
				lists, posKept = append(lists, d), append(posKept, false)
				keys = rest
			}
			for _, k := range keys {
				d, err := fts5idx.Postings(ix.src, ix.st, k.key, k.scan, withPos(k))
				if err != nil {
					return nil, indexErr(err)
				}
				if withPos(k) {
					kept[string(k.key[1:])] = d
				}
				lists, posKept = append(lists, d), append(posKept, withPos(k))
			}
			d, merged := fts5idx.Combine(lists...)
			if !merged {
				held = append(held, lists...) // d is one of them
				return d.Rows, nil
			}
			held = append(held, d)
			for i, l := range lists {
				if posKept[i] {
					held = append(held, l)
				} else {
					l.Recycle() // merged into d
				}
			}
			return d.Rows, nil
		}
		if w.Prefix {
			// As searchPlain: the ranked phase runs once typing paused, so
			// the last word is most likely complete; only a fragment that
			// is no word is a prefix.
			if docs[i], err = read(false); err != nil {
				return nil, nil, nil, err
			}
			w.Prefix = len(docs[i]) == 0
		}
		if len(docs[i]) == 0 {
			if docs[i], err = read(w.Prefix); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return docs, kept, free, nil
}

// plainWords is each word of a plain query and the rows that hold it.
type plainWords struct {
	docs   [][]fts5idx.Posting // ascending rowids, with the word's count in each row
	capped []bool              // only the newest plainPerWord rows were read (by SQL)
	ix     *ftsIndex           // the index they were read from; nil when read by SQL
	// release gives docs' memory back (plainDocs); nil when read by SQL.
	release func()
}

// done gives the words' rows back for a later read: none may be used after.
func (w *plainWords) done() {
	if w.release != nil {
		w.release()
	}
	w.docs, w.release = nil, nil
}

// readWords reads every row of each word from the index (plainDocs); where
// the index is not one fts5idx reads, the newest plainPerWord rows of each
// word by SQL, as before.
func (s *Store) readWords(c *conn, pq *query.Plain) (plainWords, error) {
	n := len(pq.Words)
	w := plainWords{capped: make([]bool, n)}
	ix, err := s.openIndex(c, "messages_fts")
	if err == nil && !ix.t.trigram {
		docs, _, release, err := plainDocs(ix, pq, nil)
		if err == nil {
			w.docs, w.ix, w.release = docs, ix, release
			return w, nil
		}
		if !errors.Is(err, errFullRankNA) {
			return w, err
		}
	} else if err != nil && !errors.Is(err, errFullRankNA) {
		return w, err
	}
	w.docs = make([][]fts5idx.Posting, n)
	for i := range pq.Words {
		wd := &pq.Words[i]
		var ids []int64
		if wd.Prefix {
			// The ranked phase runs once typing paused: the last word is
			// most likely complete; only a fragment that is no word is a prefix.
			wd.Prefix = false
			if ids, err = s.wordRows(c, wd.Expr()); err != nil {
				return w, err
			}
			wd.Prefix = len(ids) == 0
		}
		if len(ids) == 0 {
			if ids, err = s.wordRows(c, wd.Expr()); err != nil {
				return w, err
			}
		}
		w.capped[i] = len(ids) >= plainPerWord
		d := make([]fts5idx.Posting, len(ids))
		for k, id := range ids { // newest first: reversed to ascending
			d[len(ids)-1-k] = fts5idx.Posting{Rowid: id, Tf: 1}
		}
		w.docs[i] = d
	}
	return w, nil
}

// plainPre is a matching row's pre-score: the idf of the distinct words it
// holds (with a date, plus the query's whole idf for rows of sessions of
// that time), then its BM25 from the index.
type plainPre struct {
	id        int64
	cov, bm25 float64
}

func (a plainPre) better(b plainPre) bool {
	if a.cov != b.cov {
		return a.cov > b.cov
	}
	if a.bm25 != b.bm25 {
		return a.bm25 > b.bm25
	}
	return a.id > b.id
}

// preScores scores every row that holds a word, in rowid order.
func (w plainWords) preScores(idf []float64, sumIDF float64, spans idSpans) []plainPre {
	total := 0
	for _, d := range w.docs {
		total += len(d)
	}
	out := make([]plainPre, 0, total)
	cur := make([]int, len(w.docs))
	avgdl := 1.0
	if w.ix != nil {
		avgdl = w.ix.avgdl()
	}
	slices.SortFunc(spans, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	for {
		id := int64(math.MaxInt64)
		for i, d := range w.docs {
			if cur[i] < len(d) && d[cur[i]].Rowid < id {
				id = d[cur[i]].Rowid
			}
		}
		if id == math.MaxInt64 {
			return out
		}
		p := plainPre{id: id}
		norm := 0.0
		if w.ix != nil {
			norm = bm25K1 * (1 - bm25B + bm25B*w.ix.dl(id)/avgdl)
		}
		for i, d := range w.docs {
			if cur[i] < len(d) && d[cur[i]].Rowid == id {
				p.cov += idf[i]
				if w.ix != nil {
					tf := float64(d[cur[i]].Tf)
					p.bm25 += idf[i] * tf * (bm25K1 + 1) / (tf + norm)
				}
				cur[i]++
			}
		}
		if spans.containSorted(id) {
			p.cov += sumIDF
		}
		out = append(out, p)
	}
}

// containSorted is contain for spans sorted by their start.
func (sp idSpans) containSorted(id int64) bool {
	i := sort.Search(len(sp), func(i int) bool { return sp[i][0] > id })
	for k := i - 1; k >= 0 && k >= i-8; k-- { // sessions' spans rarely overlap
		if id <= sp[k][1] {
			return true
		}
	}
	return false
}

// bestPre returns the m best rows of all, best first.
func bestPre(all []plainPre, m int) []plainPre {
	return topN(all, m, plainPre.better)
}

// commonPrefix is the longest prefix every key starts with.
func commonPrefix(keys [][]byte) []byte {
	if len(keys) == 0 {
		return nil
	}
	p := keys[0]
	for _, k := range keys[1:] {
		n := 0
		for n < len(p) && n < len(k) && p[n] == k[n] {
			n++
		}
		p = p[:n]
	}
	return p
}
