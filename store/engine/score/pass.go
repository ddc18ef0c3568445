package score

import (
	"math"

	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/rowcache"
	"github.com/recall-dev/recall/store/fts5idx"
)

// Pass walks every matching message of a plain query, in rowid order, with
// what scoring one needs: its session, time, length and words (the words'
// postings; the session map's rows, from store/engine/rowcache).
type Pass struct {
	Plain        Plain
	Docs         [][]fts5idx.Posting
	Index        *postings.Index
	Of           []int32
	At           []int32
	Meta         []rowcache.SessionMeta
	Since, Until int64
	InOrder      map[int64]bool // messages holding the query's words in order (those holding every word count)
}

// Row is one matching message as the pass scores it.
type Row struct {
	ID int64
	V  float64 // its value: BM25 over the words, the in-order bonus, the first message's weight
	M  uint64  // the words it holds
	O  int32   // its session
}

// Each calls fn with every message of docs (the words' rows, or a rowid
// range of them) that the session map knows and since/until keep, a batch
// (in batch's memory) at a time, in rowid order: its session, id, value
// (BM25 over the words, plus the in-order bonus, doubled for its session's
// first message) and words. With only, the messages of the other sessions
// are skipped unscored. A batch is valid during the call.
func (p *Pass) Each(docs [][]fts5idx.Posting, only []bool, batch []Row, fn func(rows []Row)) {
	of, at, idf, meta := p.Of, p.At, p.Plain.IDF, p.Meta
	phrases := len(p.InOrder) > 0
	// BM25's length normalisation, k1 (1 - b + b dl/avgdl), as a + bl dl:
	// no division per row.
	a, bl := K1*(1-B), K1*B/p.Index.AvgDL()
	// session returns a row's session, false for one to skip.
	session := func(id int64) (int32, bool) {
		if id >= int64(len(of)) || of[id] < 0 || int(of[id]) >= len(meta) {
			return 0, false // written after the map was read: the next query has it
		}
		o := of[id]
		if only != nil && !only[o] {
			return 0, false
		}
		if t := int64(at[id]); t < p.Since || t >= p.Until {
			return 0, false
		}
		return o, true
	}
	finish := func(r Row) {
		if phrases && r.M == p.Plain.Full && p.InOrder[r.ID] { // the phrase, in a message holding every word
			r.V += p.Plain.PhraseBonus
		}
		if r.ID == meta[r.O].First {
			r.V *= FirstPromptMul
		}
		batch = append(batch, r)
		if len(batch) == cap(batch) {
			fn(batch)
			batch = batch[:0]
		}
	}
	if len(docs) == 1 {
		// One word (the broadest queries are): no rows to merge.
		w := idf[0] * (K1 + 1)
		for _, d := range docs[0] {
			o, ok := session(d.Rowid)
			if !ok {
				continue
			}
			tf := float64(d.Tf)
			finish(Row{ID: d.Rowid, O: o, M: 1, V: w * tf / (tf + a + bl*p.Index.DL(d.Rowid))})
		}
	} else {
		// The union of the words' rows, merged here rather than through
		// a callback per row.
		cur := make([]int, len(docs))
		for {
			id := int64(math.MaxInt64)
			for i, d := range docs {
				if cur[i] < len(d) && d[cur[i]].Rowid < id {
					id = d[cur[i]].Rowid
				}
			}
			if id == math.MaxInt64 {
				break
			}
			o, ok := session(id)
			norm := a + bl*p.Index.DL(id)
			r := Row{ID: id, O: o}
			for i, d := range docs {
				if j := cur[i]; j < len(d) && d[j].Rowid == id {
					cur[i]++
					if ok {
						tf := float64(d[j].Tf)
						r.V += idf[i] * tf * (K1 + 1) / (tf + norm)
						r.M |= 1 << i
					}
				}
			}
			if ok {
				finish(r)
			}
		}
	}
	if len(batch) > 0 {
		fn(batch)
	}
}
