package collect

import (
	"slices"

	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
)

// The bounded path's sessions (store/engine/pipeline/bounded.go): the best
// rows of the newest matches, scored (score.Rows), gathered per session.

// Loose is one session of the bounded path: its rows, best first, and
// what orders it.
type Loose struct {
	ID      string
	Rows    []int  // indexes into the candidates, best first
	Mask    uint64 // the words it holds, title included
	tmask   uint64 // the words in the title
	fullest uint64 // the words of its fullest row, title included
	inRange bool
	score   float64
}

// Bounded is the bounded path's sessions, in order.
type Bounded struct {
	List  []*Loose
	cands []score.Candidate
	plain score.Plain
}

// GatherBounded gathers the scored candidates per session and orders the
// sessions by score's session score: the title's words, the distinct
// words and those of the fullest row (weighted by rarity), and the rows'
// scores with diminishing weights (1, 1/2, ... 1/5); with a date (date),
// sessions of that time first. rowMask holds the words of each candidate; wm tells the
// words of a title.
func GatherBounded(cands []score.Candidate, rowMask []uint64, wm score.Matcher, idf []float64, date query.DateRange) *Bounded {
	n := len(idf)
	b := &Bounded{cands: cands, plain: score.Plain{N: n, IDF: idf}}
	byID := map[string]*Loose{}
	for i := range cands {
		h := cands[i].Hit
		se := byID[h.SessionID]
		if se == nil {
			se = &Loose{ID: h.SessionID}
			tm, _ := wm.Count(h.SessionTitle, make([]float64, n))
			se.Mask, se.tmask = tm, tm
			se.inRange = date.Contains(h.SessionStarted)
			byID[h.SessionID] = se
			b.List = append(b.List, se)
		}
		se.Rows = append(se.Rows, i)
		se.Mask |= rowMask[i]
		if mm := rowMask[i] | se.tmask; b.plain.Weigh(mm, 1) > b.plain.Weigh(se.fullest, 1) {
			se.fullest = mm
		}
		se.inRange = se.inRange || date.Contains(h.Timestamp)
	}
	for _, se := range b.List {
		b.score(se, 0)
	}
	slices.SortStableFunc(b.List, better)
	return b
}

// score sets the session's score (score.Plain.Session), its first prompt
// (first) counting more.
func (b *Bounded) score(se *Loose, first int64) {
	cands := b.cands
	slices.SortFunc(se.Rows, func(x, y int) int {
		return CmpFloatDesc(score.RowScore(cands[x], first), score.RowScore(cands[y], first))
	})
	best := make([]float64, 0, score.MaxSessionRows)
	for _, r := range se.Rows[:min(len(se.Rows), score.MaxSessionRows)] {
		best = append(best, score.RowScore(cands[r], first))
	}
	se.score = b.plain.Session(se.tmask, se.Mask, se.fullest, best)
}

func better(a, b *Loose) int {
	if a.inRange != b.inRange {
		return BoolDesc(a.inRange, b.inRange)
	}
	return CmpFloatDesc(a.score, b.score)
}

// Top are the best k sessions.
func (b *Bounded) Top(k int) []*Loose { return b.List[:min(len(b.List), k)] }

// WithFirsts scores the best k sessions again with their first prompts
// (firsts, by session id), which weigh as much as a title, and orders
// every session again.
func (b *Bounded) WithFirsts(k int, firsts map[string]int64) {
	for _, se := range b.Top(k) {
		if id := firsts[se.ID]; id != 0 {
			b.score(se, id)
		}
	}
	slices.SortStableFunc(b.List, better)
}
