package pipeline

import (
	"fmt"
	"slices"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
)

// The route of a query (store/engine/plan) is run here: the attempts are
// asked in order and the first that finds a hit answers. An attempt marked
// Stands answers even with no hits (nothing later would know better); when
// no attempt answers, the empty answer is the fallback attempt's. An
// answer from an index is then topped up by a LIKE scan over the rows that
// index does not cover (plan.Gaps), bounded by the limit.

// route runs the plan of q and returns the first answer, topped up by its gaps.
func (e *Engine) route(c engine.Conn, q query.Parsed, f engine.Filter) (engine.Result, error) {
	attempts := plan.Route(q, f, e.layout)
	var empty *engine.Result
	var emptyFrom plan.Attempt
	scanned := false // a LIKE attempt read the rows: no gap is left to fill
	complete := true // no attempt that found nothing left rows unread
	var tried []plan.Attempt
	for _, a := range attempts {
		res, err := e.runAttempt(c, a, f)
		if err != nil {
			return res, err
		}
		if len(res.Hits) > 0 || a.Stands {
			return e.fillGaps(c, a, f, res, nil)
		}
		scanned = scanned || a.Index == engine.IndexLike
		complete = complete && res.Complete
		if a.Fallback {
			empty, emptyFrom = &res, a
		}
		tried = append(tried, a)
	}
	if empty == nil { // every plan has a fallback or a standing attempt; be safe
		return engine.Result{Index: engine.IndexNone, Complete: true}, nil
	}
	empty.Complete = complete
	if scanned {
		return *empty, nil
	}
	// A gap scanned once with a LIKE clause found nothing; a later attempt
	// whose query builds the same clause over the same gap is not asked again.
	asked := map[string]bool{}
	res, err := e.fillGaps(c, emptyFrom, f, *empty, asked)
	if err != nil || len(res.Hits) > 0 {
		return res, err
	}
	// Nothing in the fallback's index or its gaps: a later attempt's index
	// has gaps of its own (the trigram retry of a word inside a longer
	// token, and the rows a stopped import has not put in the trigram
	// index yet: a committed row is always found).
	for i := len(tried) - 1; i >= 0; i-- { // the broadest first: trigram substrings
		a := tried[i]
		if a.Index == emptyFrom.Index {
			continue
		}
		more, err := e.fillGaps(c, a, f, engine.Result{Index: a.Index, Complete: complete}, asked)
		if err != nil || len(more.Hits) > 0 {
			return more, err
		}
	}
	return res, nil
}

// runAttempt runs one attempt in its phase.
func (e *Engine) runAttempt(c engine.Conn, a plan.Attempt, f engine.Filter) (engine.Result, error) {
	f.Phase = a.Phase
	var res engine.Result
	var err error
	if a.Index == engine.IndexLike {
		res, err = e.searchLike(c, a.Q, a.Match, f, plan.RowSet{})
	} else {
		res, err = e.searchFTS(c, a.Q, a.Match, f)
	}
	if a.Partial {
		res.Complete = false
	}
	return res, err
}

// fillGaps tops up an index's answer with LIKE hits from the rows it does
// not cover, up to the limit. asked, when not nil, records each gap and
// LIKE clause scanned, and skips one scanned already in this search.
func (e *Engine) fillGaps(c engine.Conn, a plan.Attempt, f engine.Filter, res engine.Result, asked map[string]bool) (engine.Result, error) {
	like := plan.For(a.Q, engine.IndexLike, e.layout)
	for _, g := range plan.Gaps(e.layout) {
		full := len(res.Hits) >= f.Limit && f.Sort == engine.SortRank // a time sort may want a gap's row first
		if full || !g.Covers(a) {
			continue
		}
		if asked != nil {
			key := fmt.Sprint(g.Why, "\x00", like.Expr, "\x00", like.ExprArgs)
			if asked[key] {
				continue
			}
			asked[key] = true
		}
		if g.Probe != "" {
			if _, any, err := c.ScalarInt(g.Probe); err != nil || !any {
				if err != nil {
					return res, err
				}
				continue
			}
		}
		more, err := e.searchLike(c, a.Q, like, f, g.Rows)
		if err != nil {
			return res, err
		}
		res.Complete = res.Complete && more.Complete
		if f.Sort == engine.SortRank {
			res = mergeHits(res, more.Hits, f.Limit)
			continue
		}
		// A time order holds across the index's page and the gap's: merge
		// both whole, order, then cut to the limit.
		res = mergeHits(res, more.Hits, 2*f.Limit)
		slices.SortStableFunc(res.Hits, func(a, b engine.Hit) int {
			if f.Sort == engine.SortOldest {
				return a.Timestamp.Compare(b.Timestamp)
			}
			return b.Timestamp.Compare(a.Timestamp)
		})
		res.Hits = res.Hits[:min(len(res.Hits), f.Limit)]
	}
	return res, nil
}
