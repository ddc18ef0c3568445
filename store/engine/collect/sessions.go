package collect

import (
	"cmp"
	"slices"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
	"github.com/recall-dev/recall/store/fts5idx"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// RowValue is one matching message of a session as the index scores it.
type RowValue struct {
	ID    int64
	Value float64 // BM25 over the query's words, with the in-order bonus and the first prompt's weight
}

// Rank is one session's place in the ranking, before its messages are read.
type Rank struct {
	O      int32
	Count  int    // its matching messages
	Oldest int64  // its oldest matching message (newest is in key)
	Mask   uint64 // the words the session holds, title included
	Key    Key
}

// Sess is one session, its key and, once read, its messages that
// pass the filters.
type Sess struct {
	Rank
	Rows []RowValue   // every matching message (since/until applied), once gathered
	Hits []engine.Hit // its messages that pass the filters, best first
}

// Value returns the value of the session's message id.
func (se *Sess) Value(id int64) float64 {
	i, ok := slices.BinarySearchFunc(se.Rows, id, func(r RowValue, id int64) int { return cmp.Compare(r.ID, id) })
	if !ok {
		return 0
	}
	return se.Rows[i].Value
}

// Key orders sessions: in the date's range, score, newest.
type Key struct {
	inRange bool
	score   float64
	newest  int64
}

func (a Key) cmp(b Key) int {
	if a.inRange != b.inRange {
		return BoolDesc(a.inRange, b.inRange)
	}
	if c := CmpFloatDesc(a.score, b.score); c != 0 {
		return c
	}
	return cmp.Compare(b.newest, a.newest) // newer first
}

// BatchSessions is how many sessions one read of their messages takes when
// want more are to be listed: a few more than that, for those the filters
// reject (a session of tool output only, say), in one statement.
func BatchSessions(want int) int {
	return min(64, want+want/4+2)
}

// CmpFloatDesc orders floats high first.
func CmpFloatDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// BoolDesc orders true first.
func BoolDesc(a, b bool) int {
	if a == b {
		return 0
	}
	if a {
		return -1
	}
	return 1
}

// Acc is one session's key, accumulated over its matching messages as
// they stream past: the best few values, the words held, the newest id.
type Acc struct {
	top     [score.MaxSessionRows]float64 // best values, descending
	mask    uint64                        // the words it holds, title included
	tmask   uint64                        // the words its title holds
	fmask   uint64                        // the words its fullest message holds, title included
	fullest float64                       // their idf (weighed when the words grow)
	oldest  int64                         // the first matching message's id (they come in id order)
	newest  int64
	count   int32 // its matching messages
	inRange bool  // started, or has a matching message, in the query's date
	seen    bool
}

// fuller keeps the words mm of a message (with the title) when they weigh
// more than the fullest message's so far.
func (a *Acc) fuller(mm uint64, p *score.Plain) {
	if w := p.Weigh(mm, 1); w > a.fullest {
		a.fullest, a.fmask = w, mm
	}
}

// add counts one matching message: id, its value and the words it holds.
func (a *Acc) add(id int64, v float64, m uint64) {
	a.mask |= m
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

// Sessions scores every matching message of the pass into its session's
// key: per session ordinal its Acc, the sessions touched (in the order
// first met) and how many messages were scored. titleMask holds the
// words each session's title holds; date, the range the query names.
func Sessions(p *score.Pass, titleMask map[int32]uint64, date query.DateRange) (accs []Acc, touched []int32, total int) {
	accs = make([]Acc, len(p.Meta))
	for o, m := range titleMask { // set beforehand: no lookup per session in the pass
		if int(o) < len(accs) {
			accs[o].tmask, accs[o].mask = m, m
		}
	}
	dated := !date.Zero()
	// A session's messages mostly follow one another: its key is kept in
	// a local while they do, and stored when another session's comes.
	cur, a := int32(-1), Acc{}
	p.Each(p.Docs, nil, make([]score.Row, 0, 1024), func(rows []score.Row) {
		for _, r := range rows {
			if r.O != cur {
				if cur >= 0 {
					accs[cur] = a
				}
				cur, a = r.O, accs[r.O]
				if !a.seen {
					a.seen, a.oldest = true, r.ID
					a.inRange = dated && date.Contains(sqlutil.FromEpoch(p.Meta[r.O].Started))
					touched = append(touched, r.O)
				}
			}
			a.add(r.ID, r.V, r.M)
			if mm := r.M | a.tmask; mm&^a.fmask != 0 { // not a subset of the fullest message's words: weigh them
				a.fuller(mm, &p.Plain)
			}
			if dated && !a.inRange {
				a.inRange = date.Contains(sqlutil.FromEpoch(float64(p.At[r.ID])))
			}
		}
		total += len(rows)
	})
	if cur >= 0 {
		accs[cur] = a
	}
	return accs, touched, total
}

// gather fills the rows (ids and values, ascending) of the sessions given,
// in one more pass over their rowid spans only: only the sessions that may
// be listed need them.
func gather(p *score.Pass, sessions []*Sess, nSess int) {
	if len(sessions) == 0 {
		return
	}
	want := make([]*Sess, nSess)
	only := make([]bool, nSess)
	spans := make([][2]int64, 0, len(sessions))
	for _, se := range sessions {
		se.Rows = make([]RowValue, 0, se.Count)
		want[se.O], only[se.O] = se, true
		spans = append(spans, [2]int64{se.Oldest, se.Key.newest})
	}
	add := func(rows []score.Row) {
		for _, r := range rows {
			se := want[r.O]
			se.Rows = append(se.Rows, RowValue{ID: r.ID, Value: r.V})
		}
	}
	batch := make([]score.Row, 0, 1024)
	in := make([][]fts5idx.Posting, len(p.Docs))
	for _, sp := range mergeSpans(spans) {
		for i, d := range p.Docs {
			lo := fts5idx.Seek(d, 0, sp[0])
			in[i] = d[lo:fts5idx.Seek(d, lo, sp[1]+1)]
		}
		p.Each(in, only, batch[:0], add)
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

// key is a session's order: its date, its score (score.Plain.Session),
// newest.
func (a *Acc) key(p score.Plain) Key {
	return Key{inRange: a.inRange, newest: a.newest, score: p.Session(a.tmask, a.mask, a.fmask, a.top[:])}
}

// Ranking is a plain query's sessions in key order: the best head sorted at
// once (most queries list from those), the rest only when the filters pass
// too few of them; a session's rows are gathered when it is about to be
// listed.
type Ranking struct {
	all    []Rank
	sorted int     // all[:sorted] is in key order
	sess   []*Sess // sess[i] is all[i]'s, made when its rows are gathered
	pass   *score.Pass
}

// NewRanking orders the sessions touched by pass (accs, from Sessions) by
// their keys under ps, the best head first. Kept as plain values (tens of
// thousands for a common word): nothing here for the collector to scan.
func NewRanking(pass *score.Pass, accs []Acc, touched []int32, ps score.Plain, head int) *Ranking {
	all := make([]Rank, len(touched))
	for i, o := range touched {
		a := &accs[o]
		all[i] = Rank{O: o, Count: int(a.count), Oldest: a.oldest, Mask: a.mask, Key: a.key(ps)}
	}
	better := func(a, b Rank) bool { return a.Key.cmp(b.Key) < 0 }
	if len(all) > head {
		best := TopN(all, head, better)
		inHead := make(map[int32]bool, head)
		for _, r := range best {
			inHead[r.O] = true
		}
		rest := slices.DeleteFunc(all, func(r Rank) bool { return inHead[r.O] })
		all = append(best, rest...)
	} else {
		slices.SortFunc(all, func(a, b Rank) int { return a.Key.cmp(b.Key) })
	}
	return &Ranking{all: all, sorted: min(len(all), head), pass: pass}
}

// Len is how many sessions matched.
func (r *Ranking) Len() int { return len(r.all) }

// Next returns the sessions from the next-th on, in key order, a batch for
// want more to be listed (BatchSessions, up to 2,000 matching messages),
// with their rows gathered.
func (r *Ranking) Next(next, want int) []*Sess {
	all := r.all
	if next >= r.sorted {
		slices.SortFunc(all[next:], func(a, b Rank) int { return a.Key.cmp(b.Key) })
		r.sorted = len(all)
	}
	end, rows := next, 0
	for end < min(len(all), max(r.sorted, next+1)) && end-next < BatchSessions(want) && rows < 2000 {
		rows += all[end].Count
		end++
	}
	if end > len(r.sess) {
		// One pass gathers the rows of every session sorted so far (the
		// head: most queries list from it), or of the next batch.
		r.gatherTo(max(end, min(r.sorted, len(all))))
	}
	return r.sess[next:end]
}

// gatherTo gathers the rows of the sessions ranked up to place upTo that
// have none yet, in one pass.
func (r *Ranking) gatherTo(upTo int) {
	from := len(r.sess)
	if upTo <= from {
		return
	}
	for _, rk := range r.all[from:upTo] {
		r.sess = append(r.sess, &Sess{Rank: rk})
	}
	gather(r.pass, r.sess[from:upTo], len(r.pass.Meta))
}
