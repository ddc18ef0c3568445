package pipeline

import (
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
)

// FirstPhaseScanRows bounds a scan in the first phase: it reads only the
// newest this many messages (~20 ms here; a whole 200k-message Hermes file
// takes ~200 ms), so a keystroke on a file whose indexes cannot answer
// still paints at once; the final phase, when typing pauses, reads every
// row. Variable so tests can make it small.
var FirstPhaseScanRows int64 = 20_000

// searchLike scans messages newest first and stops at the limit: the
// route's last resort, and (restricted to a few rows) how a gap in an
// index is filled. m is the query's IndexLike match. The cheap conditions
// come first: SQLite tests them in order, and the LIKE over a row's whole
// text is most of a scan's cost.
func (e *Engine) searchLike(c engine.Conn, q query.Parsed, m plan.Match, f engine.Filter, only plan.RowSet) (engine.Result, error) {
	res := engine.Result{Index: engine.IndexLike, Query: m.Expr, Complete: true}
	filter, fargs := fill.Where(e.layout, f)
	where, wargs := []string{}, append([]any{}, only.Args...)
	if only.Where != "" {
		where = append(where, only.Where)
	}
	order := f.Sort.OrderBy()
	bounded := false
	if order == "" && f.Phase == engine.PhaseFirst && !only.Indexed {
		// Newest first, so the newest rows are where a first paint looks
		// (a time sort reads every row: the oldest may be what it wants).
		maxID, _, err := c.ScalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
		if err != nil {
			return res, err
		}
		if from := maxID - FirstPhaseScanRows; from > 0 {
			where, wargs = append(where, "m.id > ?"), append(wargs, from)
			bounded = true
		}
	}
	if order == "" {
		order = " ORDER BY m.id DESC"
	}
	where = append(where, filter, m.Expr)
	sql := "SELECT " + fill.Columns(e.layout, m.Snippet, "0") + " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE " +
		strings.Join(where, " AND ") + order + " LIMIT ? OFFSET ?"
	args := append(append(append(append(append([]any{}, m.SnippetArgs...), wargs...), fargs...), m.ExprArgs...), f.Limit, f.Offset)
	err := c.Query(sql, args, func(st *sqlite3.Stmt) error {
		h := fill.ScanHit(st, engine.IndexLike)
		h.Snippet = highlight.Mark(h.Snippet, q)
		res.Hits = append(res.Hits, h)
		return nil
	})
	if bounded && len(res.Hits) < f.Limit {
		res.Complete = false // older rows were not read
	}
	return res, err
}

func mergeHits(res engine.Result, more []engine.Hit, limit int) engine.Result {
	seen := map[int64]bool{}
	for _, h := range res.Hits {
		seen[h.MessageID] = true
	}
	for _, h := range more {
		if len(res.Hits) >= limit {
			break
		}
		if !seen[h.MessageID] {
			res.Hits = append(res.Hits, h)
		}
	}
	return res
}
