package store

import (
	"cmp"
	"slices"

	"github.com/recall-dev/recall/store/fts5idx"
)

// sessAcc is one session's key, accumulated over its matching messages as
// they stream past: the best few values, the words held, the newest id.
type sessAcc struct {
	top     [maxSessionRows]float64 // best values, descending
	mask    uint64                  // the words it holds, title included
	tmask   uint64                  // the words its title holds
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
	for i := range a.top { // the best few, descending
		if v > a.top[i] {
			copy(a.top[i+1:], a.top[i:len(a.top)-1])
			a.top[i] = v
			break
		}
	}
}

// plainPass walks every matching message of a plain query, in rowid order,
// with what scoring one needs: its session, time, length and words.
type plainPass struct {
	ps           plainScorer
	docs         [][]fts5idx.Posting
	ix           *ftsIndex
	avgdl        float64
	of           []int32
	at           []int32
	meta         []sessionMeta
	since, until int64
	inOrder      map[int64]bool
}

// sessions scores every matching message into its session's key.
func (p *plainPass) sessions(titleMask map[int32]uint64, date dateRange) (accs []sessAcc, touched []int32, total int) {
	accs = make([]sessAcc, len(p.meta))
	p.each(nil, func(o int32, id int64, v float64, m uint64) {
		a := &accs[o]
		if !a.seen {
			a.seen, a.tmask = true, titleMask[o]
			a.mask = a.tmask
			a.inRange = !date.zero() && date.contains(fromEpoch(p.meta[o].started))
			touched = append(touched, o)
		}
		a.add(id, v, m, p.ps.full)
		if !date.zero() && !a.inRange {
			a.inRange = date.contains(fromEpoch(float64(p.at[id])))
		}
		total++
	})
	return accs, touched, total
}

// each calls fn with every matching message the session map knows and
// since/until keep: its session, id, value (BM25 over the words, plus the
// in-order bonus, doubled for its session's first message) and words.
// With only, the messages of the other sessions are skipped unscored.
func (p *plainPass) each(only []bool, fn func(o int32, id int64, v float64, m uint64)) {
	of, at, docs, idf := p.of, p.at, p.docs, p.ps.idf
	phrases := len(p.inOrder) > 0
	fts5idx.EachRow(docs, func(id int64, js []int) {
		if id >= int64(len(of)) || of[id] < 0 || int(of[id]) >= len(p.meta) {
			return // written after the map was read: the next query has it
		}
		o := of[id]
		if only != nil && !only[o] {
			return
		}
		if t := int64(at[id]); t < p.since || t >= p.until {
			return
		}
		norm := bm25K1 * (1 - bm25B + bm25B*p.ix.dl(id)/p.avgdl)
		var v float64
		var m uint64
		for i, j := range js {
			if j >= 0 {
				tf := float64(docs[i][j].Tf)
				v += idf[i] * tf * (bm25K1 + 1) / (tf + norm)
				m |= 1 << i
			}
		}
		if phrases && p.inOrder[id] {
			v += p.ps.phraseBonus
		}
		if id == p.meta[o].first {
			v *= firstPromptMul
		}
		fn(o, id, v, m)
	})
}

// gather fills the rows (ids and values, ascending) of the sessions given,
// in one more pass: only the sessions that may be listed need them.
func (p *plainPass) gather(sessions []*plainSess, nSess int) {
	if len(sessions) == 0 {
		return
	}
	want := make([]*plainSess, nSess)
	only := make([]bool, nSess)
	for _, se := range sessions {
		se.rows = make([]plainRow, 0, se.count)
		want[se.o], only[se.o] = se, true
	}
	p.each(only, func(o int32, id int64, v float64, _ uint64) {
		se := want[o]
		se.rows = append(se.rows, plainRow{id: id, value: v})
	})
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
			j := seekPosting(l, cur[i], p.Rowid)
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

// seekPosting returns the first index at or after from whose rowid is at
// least id: a galloping search, as cheap for the next row as for a far one.
func seekPosting(l []fts5idx.Posting, from int, id int64) int {
	if from >= len(l) || l[from].Rowid >= id {
		return from
	}
	step := 1
	for from+step < len(l) && l[from+step].Rowid < id {
		step *= 2
	}
	lo, hi := from+step/2+1, min(from+step, len(l)-1)+1 // l[from+step/2] < id
	k, _ := slices.BinarySearchFunc(l[lo:hi], id, func(q fts5idx.Posting, id int64) int { return cmp.Compare(q.Rowid, id) })
	return lo + k
}
