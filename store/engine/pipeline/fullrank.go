package pipeline

import (
	"fmt"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/rowcache"
	"github.com/recall-dev/recall/store/engine/score"
)

// FullRankMaxChecked bounds how many of the best-scored rows are read to
// fill a page when the caller's filters reject most of them; past it the
// answer is what passed so far, marked incomplete.
var FullRankMaxChecked = 50000

// fullRank answers the final phase of a relevance-ordered search over
// every match. It returns postings.ErrNotApplicable when the query or the table is one
// it does not read; the caller then ranks as before.
func (e *Engine) fullRank(c engine.Conn, q query.Parsed, f engine.Filter, p plan.Match, res engine.Result) (engine.Result, error) {
	return e.fullRankTry(c, q, f, p, res, false)
}

func (e *Engine) fullRankTry(c engine.Conn, q query.Parsed, f engine.Filter, p plan.Match, res engine.Result, again bool) (engine.Result, error) {
	orig := res
	all, err := e.ix.Read(c, p, e.layout)
	if err != nil {
		return res, err
	}
	defer all.Recycle()
	res.Matches = len(all.Rows)
	w := score.WeightsOf(all)
	need := f.Offset + f.Limit
	filter, fargs := fill.Where(e.layout, f)
	var (
		passed  []score.Candidate // in rank order
		checked int
		// The best rows are chosen once for four pages' worth: scoring
		// every match again costs more than reading a few more rows.
		m    = 4*need + 16
		best = collect.Best(all, w, m)
	)
	for {
		if checked >= len(best) && len(best) == m {
			m = min(checked*4, FullRankMaxChecked)
			best = collect.Best(all, w, m)
		}
		// Read the next rows in batches of about a page and a half (a few
		// rows per session the caller lists, for a ranking by session).
		size := need + need/2 + 16
		if f.Sessions && f.SessionLimit > 0 {
			size = min(size, max(64, 4*f.SessionLimit))
		}
		batch := best[checked:min(len(best), checked+size)]
		if len(batch) > 0 {
			ids := make([]any, len(batch))
			for i, b := range batch {
				ids[i] = b.Rowid
			}
			byID := make(map[int64]score.Candidate, len(batch))
			err := fill.ByID(c, e.layout, ids, filter, fargs, p.Index, false, func(h engine.Hit, _ string) {
				byID[h.MessageID] = score.Candidate{Hit: h}
			})
			if err != nil {
				return res, err
			}
			for _, b := range batch {
				if cd, ok := byID[b.Rowid]; ok {
					cd.Score = b.Score
					cd.Hit.Rank = -b.Score
					passed = append(passed, cd)
				}
			}
			checked += len(batch)
		}
		if len(passed) >= need || checked >= len(all.Rows) || collect.EnoughSessions(f, passed) {
			break
		}
		if checked >= FullRankMaxChecked {
			res.Complete = false
			res.Notice = joinNotice(res.Notice, fmt.Sprintf("the filters passed %d of the best %d matches: showing those", len(passed), checked))
			break
		}
	}
	ids := make([]int64, 0, len(passed))
	for i := f.Offset; i < len(passed) && len(res.Hits) < f.Limit; i++ {
		res.Hits = append(res.Hits, passed[i].Hit)
		ids = append(ids, passed[i].Hit.MessageID)
	}
	src := highlight.Source{Table: p.Table, Expr: p.Expr, SQL: p.Snippet, Args: p.SnippetArgs}
	if err := highlight.Rows(c, q, f.Sessions, src, all.Scanned || p.GoMark, res.Hits); err != nil {
		return res, err
	}
	stale := false
	for _, ix := range all.Tables {
		same, err := rowcache.VerifyLens(c, ix.Name(), ix.Lens(), ids)
		if err != nil {
			return res, err
		}
		if !same {
			// A row was rewritten in place since its length was cached:
			// read every length again, once, and rank again.
			e.rows.Lens(ix.Name()).Forget()
			stale = true
		}
	}
	if stale && !again {
		return e.fullRankTry(c, q, f, p, orig, true)
	}
	return res, nil
}
