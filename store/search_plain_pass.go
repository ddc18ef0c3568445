package store

import (
	"cmp"
	"math"
	"slices"

	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
)

// sessAcc is one session's key, accumulated over its matching messages as
// they stream past: the best few values, the words held, the newest id.
type sessAcc struct {
	top     [maxSessionRows]float64 // best values, descending
	mask    uint64                  // the words it holds, title included
	tmask   uint64                  // the words its title holds
	oldest  int64                   // the first matching message's id (they come in id order)
	newest  int64
	count   int32 // its matching messages
	allRow  bool  // one message (with the title) holds every word
	inRange bool  // started, or has a matching message, in the query's date
	seen    bool
}

// add counts one matching message: id, its value and the words it holds.
func (a *sessAcc) add(id int64, v float64, m, full uint64) {
	a.mask |= m
	a.allRow = a.allRow || m|a.tmask == full
	a.newest = max(a.newest, id)
	a.count++
	t := &a.top // the best few, descending
	i := len(t) - 1
	if v <= t[i] {
		return // not among them (most rows of a long session)
	}
	for ; i > 0 && v > t[i-1]; i-- { // shifted in place: no copy call per row
		t[i] = t[i-1]
	}
	t[i] = v
}

// plainPass walks every matching message of a plain query, in rowid order,
// with what scoring one needs: its session, time, length and words.
type plainPass struct {
	ps           plainScorer
	docs         [][]fts5idx.Posting
	ix           *ftsIndex
	of           []int32
	at           []int32
	meta         []sessionMeta
	since, until int64
	inOrder      map[int64]bool // messages holding the query's words in order (those holding every word count)
}

// sessions scores every matching message into its session's key.
func (p *plainPass) sessions(titleMask map[int32]uint64, date query.DateRange) (accs []sessAcc, touched []int32, total int) {
	accs = make([]sessAcc, len(p.meta))
	for o, m := range titleMask { // set beforehand: no lookup per session in the pass
		if int(o) < len(accs) {
			accs[o].tmask, accs[o].mask = m, m
		}
	}
	dated := !date.Zero()
	// A session's messages mostly follow one another: its key is kept in
	// a local while they do, and stored when another session's comes.
	cur, a := int32(-1), sessAcc{}
	p.each(p.docs, nil, make([]scoredRow, 0, 1024), func(rows []scoredRow) {
		for _, r := range rows {
			if r.o != cur {
				if cur >= 0 {
					accs[cur] = a
				}
				cur, a = r.o, accs[r.o]
				if !a.seen {
					a.seen, a.oldest = true, r.id
					a.inRange = dated && date.Contains(fromEpoch(p.meta[r.o].started))
					touched = append(touched, r.o)
				}
			}
			a.add(r.id, r.v, r.m, p.ps.full)
			if dated && !a.inRange {
				a.inRange = date.Contains(fromEpoch(float64(p.at[r.id])))
			}
		}
		total += len(rows)
	})
	if cur >= 0 {
		accs[cur] = a
	}
	return accs, touched, total
}

// scoredRow is one matching message as the pass scores it.
type scoredRow struct {
	id int64
	v  float64 // its value: BM25 over the words, the in-order bonus, the first message's weight
	m  uint64  // the words it holds
	o  int32   // its session
}

// each calls fn with every message of docs (the words' rows, or a rowid
// range of them) that the session map knows and since/until keep, a batch
// (in batch's memory) at a time, in rowid order: its session, id, value
// (BM25 over the words, plus the in-order bonus, doubled for its session's
// first message) and words. With only, the messages of the other sessions
// are skipped unscored. A batch is valid during the call.
func (p *plainPass) each(docs [][]fts5idx.Posting, only []bool, batch []scoredRow, fn func(rows []scoredRow)) {
	of, at, idf, meta := p.of, p.at, p.ps.idf, p.meta
	phrases := len(p.inOrder) > 0
	// BM25's length normalisation, k1 (1 - b + b dl/avgdl), as a + bl dl:
	// no division per row.
	a, bl := bm25K1*(1-bm25B), bm25K1*bm25B/p.ix.avgdl()
	// session returns a row's session, false for one to skip.
	session := func(id int64) (int32, bool) {
		if id >= int64(len(of)) || of[id] < 0 || int(of[id]) >= len(meta) {
			return 0, false // written after the map was read: the next query has it
		}
		o := of[id]
		if only != nil && !only[o] {
			return 0, false
		}
		if t := int64(at[id]); t < p.since || t >= p.until {
			return 0, false
		}
		return o, true
	}
	finish := func(r scoredRow) {
		if phrases && r.m == p.ps.full && p.inOrder[r.id] { // the phrase, in a message holding every word
			r.v += p.ps.phraseBonus
		}
		if r.id == meta[r.o].first {
			r.v *= firstPromptMul
		}
		batch = append(batch, r)
		if len(batch) == cap(batch) {
			fn(batch)
			batch = batch[:0]
		}
	}
	if len(docs) == 1 {
		// One word (the broadest queries are): no rows to merge.
		w := idf[0] * (bm25K1 + 1)
		for _, d := range docs[0] {
			o, ok := session(d.Rowid)
			if !ok {
				continue
			}
			tf := float64(d.Tf)
			finish(scoredRow{id: d.Rowid, o: o, m: 1, v: w * tf / (tf + a + bl*p.ix.dl(d.Rowid))})
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
			norm := a + bl*p.ix.dl(id)
			r := scoredRow{id: id, o: o}
			for i, d := range docs {
				if j := cur[i]; j < len(d) && d[j].Rowid == id {
					cur[i]++
					if ok {
						tf := float64(d[j].Tf)
						r.v += idf[i] * tf * (bm25K1 + 1) / (tf + norm)
						r.m |= 1 << i
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

// gather fills the rows (ids and values, ascending) of the sessions given,
// in one more pass over their rowid spans only: only the sessions that may
// be listed need them.
func (p *plainPass) gather(sessions []*plainSess, nSess int) {
	if len(sessions) == 0 {
		return
	}
	want := make([]*plainSess, nSess)
	only := make([]bool, nSess)
	spans := make([][2]int64, 0, len(sessions))
	for _, se := range sessions {
		se.rows = make([]plainRow, 0, se.count)
		want[se.o], only[se.o] = se, true
		spans = append(spans, [2]int64{se.oldest, se.key.newest})
	}
	add := func(rows []scoredRow) {
		for _, r := range rows {
			se := want[r.o]
			se.rows = append(se.rows, plainRow{id: r.id, value: r.v})
		}
	}
	batch := make([]scoredRow, 0, 1024)
	in := make([][]fts5idx.Posting, len(p.docs))
	for _, sp := range mergeSpans(spans) {
		for i, d := range p.docs {
			lo := fts5idx.Seek(d, 0, sp[0])
			in[i] = d[lo:fts5idx.Seek(d, lo, sp[1]+1)]
		}
		p.each(in, only, batch[:0], add)
	}
}

// mergeSpans sorts closed id ranges and joins those that overlap.
func mergeSpans(spans [][2]int64) [][2]int64 {
	slices.SortFunc(spans, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	out := spans[:0]
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
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
