package postings

import (
	"cmp"
	"errors"
	"slices"
	"unicode/utf8"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
)

// WordPostings reads every row of each word (all its forms; a word still
// being typed that is no word is read as a prefix) from the index. The
// doclists of the tokens in keep are also returned whole, with their
// position lists (the in-order bonus reads them again otherwise).
// release gives their memory back for the next query's: after it, no row
// they hold may be used.
func WordPostings(ix *Index, pq *query.Plain, keep map[string]bool) (docs [][]fts5idx.Posting, kept map[string]fts5idx.Doclist, release func(), err error) {
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
		if w.CJK {
			continue // not a unicode61 word: the caller reads it from the CJK indexes
		}
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
					return nil, ErrNotApplicable
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

// Words is each word of a plain query and the rows that hold it.
type Words struct {
	Docs   [][]fts5idx.Posting // ascending rowids, with the word's count in each row
	Capped []bool              // only the newest PerWord rows were read (by SQL)
	Index  *Index              // the index they were read from; nil when read by SQL
	// release gives docs' memory back (WordPostings); nil when read by SQL.
	release func()
}

// Done gives the words' rows back for a later read: none may be used after.
func (w *Words) Done() {
	if w.release != nil {
		w.release()
	}
	w.Docs, w.release = nil, nil
}

// ReadWords reads every row of each word from the index (WordPostings);
// where the index is not one fts5idx reads, the newest PerWord rows of
// each word by SQL, as before. A CJK word (query.Word.CJK) is left empty:
// the caller reads it from the CJK indexes (CJKWordRows).
func (x *Indexes) ReadWords(c engine.Conn, pq *query.Plain) (Words, error) {
	n := len(pq.Words)
	w := Words{Capped: make([]bool, n)}
	ix, err := x.Open(c, "messages_fts")
	if err == nil && !ix.t.trigram {
		docs, _, release, err := WordPostings(ix, pq, nil)
		if err == nil {
			w.Docs, w.Index, w.release = docs, ix, release
			return w, nil
		}
		if !errors.Is(err, ErrNotApplicable) {
			return w, err
		}
	} else if err != nil && !errors.Is(err, ErrNotApplicable) {
		return w, err
	}
	w.Docs = make([][]fts5idx.Posting, n)
	for i := range pq.Words {
		wd := &pq.Words[i]
		if wd.CJK {
			continue // as WordPostings
		}
		var ids []int64
		if wd.Prefix {
			// The ranked phase runs once typing paused: the last word is
			// most likely complete; only a fragment that is no word is a prefix.
			wd.Prefix = false
			if ids, err = WordRows(c, wd.Expr()); err != nil {
				return w, err
			}
			wd.Prefix = len(ids) == 0
		}
		if len(ids) == 0 {
			if ids, err = WordRows(c, wd.Expr()); err != nil {
				return w, err
			}
		}
		w.Capped[i] = len(ids) >= PerWord
		d := make([]fts5idx.Posting, len(ids))
		for k, id := range ids { // newest first: reversed to ascending
			d[len(ids)-1-k] = fts5idx.Posting{Rowid: id, Tf: 1}
		}
		w.Docs[i] = d
	}
	return w, nil
}

// CJKPerWord is how many matches of one CJK word CJKWordRows reads, newest
// first: only rowids, from one index, so more than PerWord.
var CJKPerWord = 10000

// CJKWordRows reads the newest CJKPerWord rows of a CJK word, as table
// matches expr (the word's route: the trigram index, recall's bigram one,
// or, with table "", expr a LIKE condition over messages m), into w's
// word i, ascending.
func CJKWordRows(c engine.Conn, w *Words, i int, table, expr string, args []any) error {
	sql := "SELECT rowid FROM " + table + " WHERE " + table + " MATCH ? ORDER BY rowid DESC LIMIT ?"
	qargs := []any{expr, CJKPerWord}
	if table == "" {
		sql = "SELECT m.id FROM messages m WHERE " + expr + " ORDER BY m.id DESC LIMIT ?"
		qargs = append(append([]any{}, args...), CJKPerWord)
	}
	var ids []int64
	err := c.Query(sql, qargs, func(st *sqlite3.Stmt) error {
		ids = append(ids, st.ColumnInt64(0))
		return nil
	})
	d := make([]fts5idx.Posting, len(ids))
	for k, id := range ids { // newest first: reversed to ascending
		d[len(ids)-1-k] = fts5idx.Posting{Rowid: id, Tf: 1}
	}
	w.Docs[i], w.Capped[i] = d, len(ids) >= CJKPerWord
	return err
}

// Add puts rows ids (any order) among word i's rows, once each, keeping
// them ascending: rows an index does not cover yet, found by a scan.
func (w *Words) Add(i int, ids []int64) {
	d := slices.Clone(w.Docs[i]) // never written in place: a doclist may hold it
	for _, id := range ids {
		k, found := slices.BinarySearchFunc(d, id, func(p fts5idx.Posting, id int64) int { return cmp.Compare(p.Rowid, id) })
		if !found {
			d = slices.Insert(d, k, fts5idx.Posting{Rowid: id, Tf: 1})
		}
	}
	w.Docs[i] = d
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

// PerWord is how many matches of one word WordRows reads (newest first),
// where the index is not one fts5idx reads.
var PerWord = 1000

// WordRows reads the newest PerWord rowids matching expr from
// messages_fts alone, by SQL.
func WordRows(c engine.Conn, expr string) ([]int64, error) {
	var out []int64
	err := c.Query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?", []any{expr, PerWord},
		func(st *sqlite3.Stmt) error {
			out = append(out, st.ColumnInt64(0))
			return nil
		})
	return out, err
}

// InOrder returns messages that hold the phrase itself, its tokens
// toks one after another, as an FTS5 phrase query matches them, read from
// the position lists: every such message among those holding every word
// of docs (it may return others). Doclists already read with their
// positions are known; the other tokens' are read for the messages holding
// every word only.
func InOrder(ix *Index, toks []string, docs [][]fts5idx.Posting, known map[string]fts5idx.Doclist) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(toks) < 2 {
		return out, nil
	}
	lists := make([]fts5idx.Doclist, len(toks))
	var only func(id int64) bool
	for i, tok := range toks {
		if d, ok := known[tok]; ok {
			lists[i] = d
			continue
		}
		if only == nil {
			rows := intersectRows(docs)
			if len(rows) == 0 {
				return out, nil
			}
			lo := rows[0]
			in := make([]bool, rows[len(rows)-1]-lo+1)
			for _, id := range rows {
				in[id-lo] = true
			}
			only = func(id int64) bool { return id >= lo && id-lo < int64(len(in)) && in[id-lo] }
		}
		var err error
		if lists[i], err = fts5idx.PostingsOf(ix.src, ix.st, append([]byte{fts5idx.Main}, tok...), false, true, only); err != nil {
			return nil, indexErr(err)
		}
		defer lists[i].Recycle() // read for these messages only
	}
	for _, p := range phraseRows(lists, 0, false, nil) {
		if only == nil || only(p.Rowid) {
			out[p.Rowid] = true
		}
	}
	return out, nil
}

// intersectRows returns the rowids present in every list (each ascending),
// walking the shortest and seeking forward in the others.
func intersectRows(lists [][]fts5idx.Posting) []int64 {
	if len(lists) == 0 {
		return nil
	}
	order := slices.Clone(lists)
	slices.SortFunc(order, func(a, b []fts5idx.Posting) int { return len(a) - len(b) })
	cur := make([]int, len(order))
	var out []int64
rows:
	for _, p := range order[0] {
		for i := 1; i < len(order); i++ {
			l := order[i]
			j := fts5idx.Seek(l, cur[i], p.Rowid)
			cur[i] = j
			if j >= len(l) {
				break rows
			}
			if l[j].Rowid != p.Rowid {
				continue rows
			}
		}
		out = append(out, p.Rowid)
	}
	return out
}
