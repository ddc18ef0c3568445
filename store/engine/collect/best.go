package collect

import (
	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/score"
)

// Scored is one matching row and its bm25 score (higher is better).
type Scored struct {
	Rowid int64
	Score float64
}

// Better orders rows best first: higher score, then newer.
func (a Scored) Better(b Scored) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Rowid > b.Rowid
}

// Best returns the m best rows of r, best first, scored by FTS5's bm25
// (fts5_aux.c fts5Bm25Function) with w, phrase by phrase, in one pass over
// every match. Scores are not kept: a common word has hundreds of
// thousands of rows, of which a page needs a few.
func Best(r *postings.Matches, w score.Weights, m int) []Scored {
	m = min(m, len(r.Rows))
	h := make([]Scored, 0, max(m, 0)) // KeepBest's heap: h[0] is the worst kept
	tables := w.Norms
	if len(r.Phrases) == 1 && len(tables) == 1 && len(r.Phrases[0]) == len(r.Rows) {
		// One phrase (a word, a prefix): its rows are the matches, scored
		// as below without looking each up.
		t, idf := tables[0], w.IDF[0]
		for _, p := range r.Phrases[0] {
			tf := float64(p.Tf)
			if x := (Scored{Rowid: p.Rowid, Score: score.Term(idf, tf, t.At(p.Rowid))}); len(h) < m || x.Better(h[0]) {
				h = KeepBest(h, m, x, Scored.Better)
			}
		}
		return SortBest(h, Scored.Better)
	}
	cur := make([]int, len(r.Phrases))
	norm := make([]float64, len(tables))
	for _, id := range r.Rows {
		for g, t := range tables {
			norm[g] = t.At(id)
		}
		var sc float64
		for i, ps := range r.Phrases {
			if postings.SeekRow(ps, &cur[i], id) {
				g := 0
				if w.Group != nil {
					g = w.Group[i] // a mixed query's phrase, normalised by its own table
				}
				tf := float64(ps[cur[i]].Tf)
				sc += score.Term(w.IDF[i], tf, norm[g])
			}
		}
		if x := (Scored{Rowid: id, Score: sc}); len(h) < m || x.Better(h[0]) {
			h = KeepBest(h, m, x, Scored.Better)
		}
	}
	return SortBest(h, Scored.Better)
}

// EnoughSessions reports, for a ranking by session with a SessionLimit,
// whether the rows read so far name that many sessions: the caller lists
// no more, and the rows are in rank order, so the first hit of each is
// final.
func EnoughSessions(f engine.Filter, passed []score.Candidate) bool {
	if !f.Sessions || f.SessionLimit <= 0 || f.Offset > 0 || len(passed) < f.SessionLimit {
		return false
	}
	seen := make(map[string]bool, f.SessionLimit)
	for _, c := range passed {
		seen[c.Hit.SessionID] = true
		if len(seen) >= f.SessionLimit {
			return true
		}
	}
	return false
}
