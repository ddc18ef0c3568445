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
	allRow  bool   // one row (with the title) holds every word
	inRange bool
	score   float64
	base    float64 // its title's weight, before its rows count
}

// Bounded is the bounded path's sessions, in order.
type Bounded struct {
	List  []*Loose
	cands []score.Candidate
	idf   []float64
}

// GatherBounded gathers the scored candidates per session and orders the
// sessions: the coverage of distinct query words (weighted by rarity, the
// title counting) dominates, then the rows' scores with diminishing
// weights (1, 1/2, ... 1/5); a session with a row (with the title) holding
// every word comes first, and with a date (date) sessions of that time
// before those. rowMask holds the words of each candidate; wm tells the
// words of a title.
func GatherBounded(cands []score.Candidate, rowMask []uint64, wm score.Matcher, idf []float64, date query.DateRange) *Bounded {
	n := len(idf)
	b := &Bounded{cands: cands, idf: idf}
	byID := map[string]*Loose{}
	for i := range cands {
		h := cands[i].Hit
		se := byID[h.SessionID]
		if se == nil {
			se = &Loose{ID: h.SessionID}
			tm, _ := wm.Count(h.SessionTitle, make([]float64, n))
			se.Mask, se.tmask = tm, tm
			for j := 0; j < n; j++ {
				if tm&(1<<j) != 0 {
					se.score += score.TitleWeight * idf[j]
				}
			}
			se.inRange = date.Contains(h.SessionStarted)
			byID[h.SessionID] = se
			b.List = append(b.List, se)
		}
		se.Rows = append(se.Rows, i)
		se.Mask |= rowMask[i]
		se.allRow = se.allRow || rowMask[i]|se.tmask == 1<<n-1
		se.inRange = se.inRange || date.Contains(h.Timestamp)
	}
	for _, se := range b.List {
		se.base = se.score
		b.score(se, 0)
	}
	slices.SortStableFunc(b.List, better)
	return b
}

// score adds the session's rows and coverage to its score, its first
// prompt (first) counting more.
func (b *Bounded) score(se *Loose, first int64) {
	cands := b.cands
	slices.SortFunc(se.Rows, func(x, y int) int {
		return CmpFloatDesc(score.RowScore(cands[x], first), score.RowScore(cands[y], first))
	})
	sc, cov := 0.0, 0.0
	for k, r := range se.Rows[:min(len(se.Rows), score.MaxSessionRows)] {
		sc += score.RowScore(cands[r], first) / float64(k+1)
	}
	for j := 0; j < len(b.idf); j++ {
		if se.Mask&(1<<j) != 0 {
			cov += b.idf[j]
		}
	}
	se.score += sc + score.CoverageWeight*cov
}

func better(a, b *Loose) int {
	if a.inRange != b.inRange {
		return BoolDesc(a.inRange, b.inRange)
	}
	if a.allRow != b.allRow {
		return BoolDesc(a.allRow, b.allRow)
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
			se.score = se.base
			b.score(se, id)
		}
	}
	slices.SortStableFunc(b.List, better)
}
