package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/budget"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
)

// RankCandidates bounds the Go ranking of what full ranking (fullrank.go;
// postings/mixed.go) does not read: tables with options it does not know,
// a mix of CJK and Latin words on a file without a trigram index (or with
// a Latin word longer than plan.MaxSubstringRunes). For those a query with more
// matches is ranked over its newest RankCandidates (found by walking the
// doclist newest-first, which FTS5 does cheaply) and reports
// Complete=false and a notice; every other query is ranked over every
// match. Variable so benchmarks can compare settings.
var RankCandidates = 1000

// maxFTSRankedTerms is the most terms (counting each word of a phrase) a
// final phase ranks with FTS5's own bm25; a longer query is ranked in Go
// over its newest matches (see searchFTS).
const maxFTSRankedTerms = 4

// MaxLimit bounds one page of hits.
const MaxLimit = 1000

// Search finds messages matching a user query, as typed. Malformed syntax
// is never an error: it is repaired into the nearest valid query (see
// query.Parse), and a hostile one is cut down with a Notice. Only
// cancellation and I/O errors are returned. Which index answers is decided
// in one place, plan.Route: in short, words go to messages_fts
// (unicode61), with the Latin pieces of mixed-script runs (recall_fts_cjk)
// and then substrings (trigram) tried when that finds nothing, so "youer"
// finds 修改youer服务端; CJK terms of 3+ characters go to
// messages_fts_trigram, as Hermes routes them, and 1-2 character ones to
// recall_fts_cjk; a LIKE scan, newest first and bounded by the limit,
// answers what no index of this file can.
func (e *Engine) Search(ctx context.Context, raw string, f engine.Filter) (engine.Result, error) {
	start := time.Now()
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Limit > MaxLimit {
		f.Limit = MaxLimit
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	q := query.Parse(raw, e.layout.Columns(), f.Typing)
	res := engine.Result{Index: engine.IndexNone, Complete: true}
	notice := q.Notice
	if !q.Empty() {
		outOfTime := false
		err := e.db.Read(ctx, func(c engine.Conn) error {
			return c.Snapshot(func() error {
				// The budget starts once a connection is in hand: waiting for
				// the pool, or opening a reader on a busy machine, is not the
				// query's cost.
				if SearchBudget > 0 {
					runtime.LockOSThread() // the budget reads this thread's CPU time
					defer runtime.UnlockOSThread()
					bctx := budget.New(ctx, SearchBudget)
					defer c.SQLite().SetInterrupt(c.SQLite().SetInterrupt(bctx))
					defer func() { outOfTime = bctx.Err() != nil && ctx.Err() == nil }()
				}
				if e.plainEligible(f) {
					if pq, ok := query.ReadPlain(raw, e.layout.Columns(), f.Typing, f.Now); ok {
						pres, err := e.searchPlain(c, pq, f)
						if err != nil || len(pres.Hits) > 0 {
							// The sanitiser's term cap does not apply: the plain path has its own.
							res, notice = pres, ""
							return err
						}
						// No word of it is in the index: the ordinary route
						// below still finds substrings of longer tokens.
					}
				}
				var err error
				res, err = e.route(c, q, f)
				if err == nil && len(res.Hits) == 0 && e.plainEligible(f) {
					// Nothing matches the exact syntax (a question quoting a
					// title: When did Mel read "nothing is impossible"?): its
					// words, read as a plain query, are the answer, and it says so.
					if relaxed, ok := query.RelaxSyntax(raw, e.layout.Columns()); ok {
						if pq, ok := query.ReadPlain(relaxed, e.layout.Columns(), f.Typing, f.Now); ok {
							pres, perr := e.searchPlain(c, pq, f)
							if perr != nil || len(pres.Hits) > 0 {
								pres.Suggestion = strings.TrimSuffix("nothing matched the query as written: its words were searched; "+pres.Suggestion, "; ")
								res = pres
							}
							return perr
						}
					}
				}
				return err
			})
		})
		switch {
		case err != nil && outOfTime:
			// Out of time: what the interrupted attempt found so far (a
			// scan streams its hits newest first) is the answer, and the
			// notice says why it may be short.
			res.Complete = false
			notice = joinNotice(notice, fmt.Sprintf("search stopped after %v of work, the query costs the index too much: showing what it found by then", SearchBudget))
		case err != nil:
			return engine.Result{}, fmt.Errorf("search messages: %w", err)
		}
	}
	if res.Parsed.Empty() { // a plain query's answer carries its own parse: its words' forms
		res.Parsed = q.Export()
	}
	res.Notice = joinNotice(notice, res.Notice)
	res.Elapsed = time.Since(start)
	return res, nil
}

// SearchBudget is the most CPU time one search may take (store/engine/budget
// says why CPU time and not wall-clock time). The sanitiser's bounds keep
// every query shape measured far below it (BenchmarkHostileQueries); this is
// the backstop for the shapes nobody measured, so that a search box never
// waits on one query: past it the search is interrupted and answers with
// what it has and a notice. Variable so tests can change it (0: no budget).
var SearchBudget = 600 * time.Millisecond

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// searchFTS asks one index: newest-first for the first phase; bm25 (over
// at most RankCandidates newest matches) for the final phase.
func (e *Engine) searchFTS(c engine.Conn, q query.Parsed, p plan.Match, f engine.Filter) (engine.Result, error) {
	index := p.Index
	res := engine.Result{Index: index, Query: p.Expr, Complete: true}
	if p.Latin != "" {
		res.Query += fmt.Sprintf(" + LIKE %v", p.LatinArgs)
	}
	filter, fargs := fill.Where(e.layout, f)
	// CROSS JOIN pins the join order: the FTS table drives and messages and
	// sessions are looked up by key. Left to itself the planner may walk
	// messages by the transferred id range and probe FTS5 per row (seconds).
	from := " FROM " + p.Table + " CROSS JOIN messages m ON m.id = " + p.Table + ".rowid CROSS JOIN sessions s ON s.id = m.session_id"
	match := p.Table + " MATCH ?"
	margs := []any{p.Expr}
	if p.Latin != "" {
		// Checked per candidate row, newest first: a second FTS MATCH probed per
		// row would re-expand prefix terms every time (~600 ms measured).
		match += " AND " + p.Latin
		margs = append(margs, p.LatinArgs...)
	}
	cond := " WHERE " + match + " AND " + filter
	condArgs := append(append([]any{}, margs...), fargs...)

	var q2 string
	var args []any
	order := f.Sort.OrderBy() // a time sort reads every match, in either phase
	if order == "" && f.Phase == engine.PhaseFirst {
		order = " ORDER BY " + p.Table + ".rowid DESC"
	}
	if order != "" {
		q2 = "SELECT " + fill.Columns(e.layout, p.Snippet, "0") + from + cond + order + " LIMIT ? OFFSET ?"
		args = append(append(append([]any{}, p.SnippetArgs...), condArgs...), f.Limit, f.Offset)
	} else {
		// Every match is ranked, from the index itself (fullrank.go),
		// wherever the query and the table are ones it reads.
		if fr, err := e.fullRank(c, q, f, p, res); !errors.Is(err, postings.ErrNotApplicable) {
			if p.Latin != "" {
				fr.Query = postings.MixedQueryText(p, e.layout) // read from the indexes, no LIKE
			}
			return fr, err
		}
		// Is the query broad? Asked of the index alone (no joins: ~0.5 ms
		// instead of ~5 ms): a match at offset RankCandidates-1 means yes.
		cutSQL := "SELECT rowid FROM " + p.Table + " WHERE " + p.Table + " MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?"
		cutArgs := []any{p.Expr, RankCandidates - 1}
		if p.Latin != "" {
			cutSQL = "SELECT " + p.Table + ".rowid" + from + cond + " ORDER BY " + p.Table + ".rowid DESC LIMIT 1 OFFSET ?"
			cutArgs = append(append([]any{}, condArgs...), RankCandidates-1)
		}
		if q.Weight() > maxFTSRankedTerms || p.Latin != "" {
			// Every FTS5 evaluation of a many-term query reads every
			// term's doclist in full, and a mixed CJK + Latin one checks
			// its Latin terms by LIKE on every candidate row: asking "is
			// it broad?" and then ranking does that twice, and bm25 once
			// more. Ranked in Go instead over its newest matches, it is
			// read once (and the Latin terms count in the score).
			return e.rankBroad(c, q, f, p, from, cond, condArgs, res)
		}
		_, found, err := c.ScalarInt(cutSQL, cutArgs...)
		if err != nil {
			return res, err
		}
		if found {
			return e.rankBroad(c, q, f, p, from, cond, condArgs, res)
		}
		q2 = "SELECT " + fill.Columns(e.layout, p.Snippet, p.Table+".rank") + from + cond + " ORDER BY " + p.Table + ".rank LIMIT ? OFFSET ?"
		args = append(append(append([]any{}, p.SnippetArgs...), condArgs...), f.Limit, f.Offset)
	}
	err := c.Query(q2, args, func(st *sqlite3.Stmt) error {
		h := fill.ScanHit(st, index)
		if p.GoMark {
			h.Snippet = highlight.Mark(h.Snippet, q)
		}
		res.Hits = append(res.Hits, h)
		return nil
	})
	return res, err
}

// rankBroad ranks the newest RankCandidates rows that match and pass the
// filters, in Go (score/broad.go), and builds their snippets from the same text.
func (e *Engine) rankBroad(c engine.Conn, q query.Parsed, f engine.Filter, p plan.Match, from, cond string, condArgs []any, res engine.Result) (engine.Result, error) {
	var cands []score.Candidate
	sql := "SELECT " + fill.Columns(e.layout, "''", "0") + ", " + engine.Haystack + from + cond + " ORDER BY " + p.Table + ".rowid DESC LIMIT ?"
	err := c.Query(sql, append(append([]any{}, condArgs...), RankCandidates), func(st *sqlite3.Stmt) error {
		cands = append(cands, score.Candidate{Hit: fill.ScanHit(st, p.Index), Text: analysis.DecodeContent(st.ColumnText(fill.ColumnCount))})
		return nil
	})
	res.Complete = len(cands) < RankCandidates // else older matches were not ranked
	if !res.Complete {
		res.Notice = joinNotice(res.Notice, fmt.Sprintf("ranked the newest %d matches only (this file's index or this query is one recall cannot rank in full): an older match may rank higher", RankCandidates))
	}
	if err != nil || len(cands) == 0 {
		return res, err
	}
	maxID, _, err := c.ScalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
	if err != nil {
		return res, err
	}
	window := float64(cands[0].Hit.MessageID - cands[len(cands)-1].Hit.MessageID + 1)
	score.Candidates(cands, score.RankTerms(q), p.Index != engine.IndexUnicode61, float64(maxID), window)
	for i := f.Offset; i < len(cands) && len(res.Hits) < f.Limit; i++ {
		h := cands[i].Hit
		h.Snippet = highlight.Snippet(cands[i].Text, q)
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}
