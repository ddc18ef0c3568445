package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
)

// rankCandidates bounds the Go ranking of what full ranking (fullrank.go,
// fullrank_mixed.go) does not read: tables with options it does not know,
// a mix of CJK and Latin words on a file without a trigram index (or with
// a Latin word longer than maxSubstringRunes). For those a query with more
// matches is ranked over its newest rankCandidates (found by walking the
// doclist newest-first, which FTS5 does cheaply) and reports
// Complete=false and a notice; every other query is ranked over every
// match. Variable so benchmarks can compare settings.
var rankCandidates = 1000

// maxFTSRankedTerms is the most terms (counting each word of a phrase) a
// final phase ranks with FTS5's own bm25; a longer query is ranked in Go
// over its newest matches (see searchFTS).
const maxFTSRankedTerms = 4

// maxLimit bounds one page of hits.
const maxLimit = 1000

// SearchMessages finds messages matching a user query, as typed. Malformed
// syntax is never an error: it is repaired into the nearest valid query (see
// parseQuery), and a hostile one is cut down with a Notice. Only
// cancellation and I/O errors are returned. Which index answers is decided
// in one place, Store.plan (route.go): in short, words go to messages_fts
// (unicode61), with the Latin pieces of mixed-script runs (recall_fts_cjk)
// and then substrings (trigram) tried when that finds nothing, so "youer"
// finds 修改youer服务端; CJK terms of 3+ characters go to
// messages_fts_trigram, as Hermes routes them, and 1-2 character ones to
// recall_fts_cjk; a LIKE scan, newest first and bounded by the limit,
// answers what no index of this file can.
func (s *Store) SearchMessages(ctx context.Context, query string, f SearchFilter) (SearchResult, error) {
	start := time.Now()
	if f.Limit <= 0 {
		f.Limit = 50
	}
	if f.Limit > maxLimit {
		f.Limit = maxLimit
	}
	if f.Offset < 0 {
		f.Offset = 0
	}
	q := parseQuery(query, s.layout.ftsColumns(), f.Typing)
	res := SearchResult{Index: IndexNone, Complete: true}
	notice := q.notice
	if !q.empty() {
		outOfTime := false
		err := s.read(ctx, func(c *conn) error {
			return c.snapshot(func() error {
				// The budget starts once a connection is in hand: waiting for
				// the pool, or opening a reader on a busy machine, is not the
				// query's cost.
				if searchBudget > 0 {
					runtime.LockOSThread() // the budget reads this thread's CPU time
					defer runtime.UnlockOSThread()
					bctx := newCPUBudget(ctx, searchBudget)
					defer c.db.SetInterrupt(c.db.SetInterrupt(bctx))
					defer func() { outOfTime = bctx.Err() != nil && ctx.Err() == nil }()
				}
				if s.plainEligible(f) {
					if pq, ok := readPlain(query, s.layout.ftsColumns(), f.Typing, f.Now); ok {
						pres, err := s.searchPlain(c, pq, f)
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
				res, err = s.route(c, q, f)
				if err == nil && len(res.Hits) == 0 && s.plainEligible(f) {
					// Nothing matches the exact syntax (a question quoting a
					// title: When did Mel read "nothing is impossible"?): its
					// words, read as a plain query, are the answer, and it says so.
					if relaxed, ok := relaxSyntax(query, s.layout.ftsColumns()); ok {
						if pq, ok := readPlain(relaxed, s.layout.ftsColumns(), f.Typing, f.Now); ok {
							pres, perr := s.searchPlain(c, pq, f)
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
			notice = joinNotice(notice, fmt.Sprintf("search stopped after %v of work, the query costs the index too much: showing what it found by then", searchBudget))
		case err != nil:
			return SearchResult{}, fmt.Errorf("search messages: %w", err)
		}
	}
	res.Parsed, res.Notice = q.export(), joinNotice(notice, res.Notice)
	if res.plain != nil {
		res.Parsed, res.plain = res.plain.export(), nil
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// searchBudget is the most CPU time one search may take (store/budget.go
// says why CPU time and not wall-clock time). The sanitiser's bounds keep
// every query shape measured far below it (BenchmarkHostileQueries); this is
// the backstop for the shapes nobody measured, so that a search box never
// waits on one query: past it the search is interrupted and answers with
// what it has and a notice. Variable so tests can change it (0: no budget).
var searchBudget = 600 * time.Millisecond

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// ftsColumns are the column names a "col:" filter may name.
func (l layout) ftsColumns() []string {
	if l.ftsMultiCol {
		return []string{"content", "tool_name", "tool_calls"}
	}
	return []string{"content"}
}

func cjkCount(s string) int {
	n := 0
	for _, r := range s {
		if isCJK(r) {
			n++
		}
	}
	return n
}

// cjkExpressible: the bigram index answers queries whose leaves all contain
// CJK (any operators), or plain ANDs mixing CJK and Latin terms (the Latin
// ones are checked against messages_fts).
func cjkExpressible(q parsedQuery) bool {
	allCJK := true
	for _, t := range q.terms() {
		if !hasCJK(t.text) {
			allCJK = false
		}
	}
	return allCJK || q.conjunctive()
}

// match is how one index is asked one query: the table and its MATCH
// expression (or, for IndexLike, the LIKE clause), and how to snippet.
type match struct {
	index     Index
	table     string // "" for IndexLike
	expr      string // MATCH expression, or the LIKE clause
	exprArgs  []any  // the LIKE clause's arguments
	latin     string // the Latin half of a mixed CJK query, checked by LIKE on each candidate row
	latinArgs []any
	snippet   string // SQL expression for the snippet column
	snipArg   []any  // its bound arguments (instr needle)
	goMark    bool   // snippet is plain text: mark the terms in Go
	// latinTerms are the Latin half's terms, which full ranking reads from
	// the Latin indexes instead (fullrank_mixed.go).
	latinTerms []qtok
}

// match builds the expression index answers q with.
func (s *Store) match(q parsedQuery, index Index) match {
	switch index {
	case IndexLike:
		cond, args := likeSQL(q)
		m := match{index: index, expr: cond, exprArgs: args, goMark: true}
		m.snippet, m.snipArg = likeSnippet(firstCJKPiece(firstText(q)))
		return m
	case IndexTrigram:
		expr := q.render(func(t qtok) string {
			t.prefix = false // a trigram match is already a substring match
			return ftsTerm(t)
		})
		return match{index: index, table: "messages_fts_trigram", expr: expr,
			snippet: fmt.Sprintf("snippet(messages_fts_trigram, %d, '%s', '%s', '…', 48)", s.layout.snippetCol(), HighlightStart, HighlightEnd)}
	case IndexCJK:
		p := match{index: index, table: "recall_fts_cjk", goMark: true}
		needle := ""
		if q.conjunctive() {
			var cjkParts, latinParts []string
			for _, t := range q.terms() {
				if hasCJK(t.text) {
					cjkParts = append(cjkParts, "("+cjkTermExpr(t.text)+")")
					if needle == "" {
						needle = firstCJKPiece(t.text)
					}
				} else {
					latinParts = append(latinParts, haystack+" LIKE ? ESCAPE '\\'")
					p.latinArgs = append(p.latinArgs, "%"+escapeLike(t.text)+"%")
					p.latinTerms = append(p.latinTerms, t)
				}
			}
			if len(cjkParts) == 0 {
				// A Latin-only query retried here: Latin pieces of mixed runs are lowercased terms.
				p.expr = q.render(func(t qtok) string { t.text = strings.ToLower(t.text); return ftsTerm(t) })
				needle = firstText(q)
			} else {
				p.expr = strings.Join(cjkParts, " AND ")
				p.latin = strings.Join(latinParts, " AND ")
			}
		} else {
			p.expr = renderCJK(q)
			needle = firstCJKPiece(firstText(q))
		}
		p.snippet, p.snipArg = likeSnippet(needle)
		return p
	}
	return match{index: IndexUnicode61, table: "messages_fts", expr: q.render(ftsTerm),
		snippet: fmt.Sprintf("snippet(messages_fts, %d, '%s', '%s', '…', 16)", s.layout.snippetCol(), HighlightStart, HighlightEnd)}
}

// renderCJK renders an all-CJK query with operators for recall_fts_cjk; NEAR
// becomes AND, because a CJK term there is itself an expression.
func renderCJK(q parsedQuery) string {
	var toks []qtok
	for _, t := range q.toks {
		if t.kind == tNear {
			toks = append(toks, qtok{kind: tLParen})
			for i, k := range t.kids {
				if i > 0 {
					toks = append(toks, qtok{kind: tAnd})
				}
				toks = append(toks, k)
			}
			toks = append(toks, qtok{kind: tRParen})
			continue
		}
		if t.kind == tCol {
			continue
		}
		toks = append(toks, t)
	}
	return parsedQuery{toks: toks}.render(func(t qtok) string { return "(" + cjkTermExpr(t.text) + ")" })
}

func firstText(q parsedQuery) string {
	if ts := q.positiveTerms(); len(ts) > 0 {
		return ts[0].text
	}
	return ""
}

func firstCJKPiece(s string) string {
	for _, p := range scriptPieces(s) {
		if p.cjk {
			return p.text
		}
	}
	return s
}

// snippetCol is the snippet() column: 0 for one-column tables, -1 (best
// column) for Hermes v23+ tables with content, tool_name and tool_calls.
func (l layout) snippetCol() int {
	if l.ftsMultiCol {
		return -1
	}
	return 0
}

// likeSnippet cuts ~160 characters around the first occurrence of needle.
func likeSnippet(needle string) (string, []any) {
	if needle == "" {
		return "substr(COALESCE(m.content, ''), 1, 160)", nil
	}
	return "substr(COALESCE(m.content, ''), max(1, instr(COALESCE(m.content, ''), ?) - 50), 160)", []any{needle}
}

// filterSQL is the WHERE part shared by every path: visibility and the caller's filters.
func (s *Store) filterSQL(f SearchFilter) (string, []any) {
	where := []string{s.layout.visibleMessage()}
	var args []any
	switch {
	case len(f.Roles) > 0 && f.ShownRoles:
		where, args = s.layout.shownRoleClause(where, args, f.Roles)
	case len(f.Roles) > 0:
		where, args = inClause(where, args, "m.role IN", f.Roles)
	}
	where, args = inClause(where, args, "s.source IN", f.Sources)
	where, args = inClause(where, args, "s.source NOT IN", f.ExcludeSources)
	where, args = inClause(where, args, "m.session_id NOT IN", f.ExcludeSessionIDs)
	where, args = s.cwdClause(where, args, f.Cwd)
	if !f.Since.IsZero() {
		where, args = append(where, "m.timestamp >= ?"), append(args, f.Since)
	}
	if !f.Until.IsZero() {
		where, args = append(where, "m.timestamp < ?"), append(args, f.Until)
	}
	return strings.Join(where, " AND "), args
}

func (s *Store) hitColumns(snippet string, rank string) string {
	return "m.id, m.session_id, m.role, " + snippet + ", m.timestamp, COALESCE(m.tool_name, ''), COALESCE(s.source, ''), COALESCE(s.model, ''), COALESCE(" +
		s.layout.sessionCol("title", "NULL") + ", ''), COALESCE(s.started_at, 0), COALESCE(s.parent_session_id, ''), " + rank +
		", COALESCE(" + s.layout.messageCol("display_kind", "NULL") + ", '')"
}

// hitColumnCount is how many columns hitColumns selects (a query may add its own after them).
const hitColumnCount = 13

func scanHit(st stmtRow, index Index) Hit {
	return Hit{
		MessageID: st.ColumnInt64(0), SessionID: st.ColumnText(1), Role: st.ColumnText(2), Snippet: strings.TrimSpace(st.ColumnText(3)),
		Timestamp: fromEpoch(st.ColumnFloat(4)), ToolName: st.ColumnText(5), Source: st.ColumnText(6), Model: st.ColumnText(7),
		SessionTitle: st.ColumnText(8), SessionStarted: fromEpoch(st.ColumnFloat(9)), ParentID: st.ColumnText(10),
		Rank: st.ColumnFloat(11), Index: index, DisplayKind: st.ColumnText(12),
	}
}

// searchFTS asks one index: newest-first for the first phase; bm25 (over
// at most rankCandidates newest matches) for the final phase.
func (s *Store) searchFTS(c *conn, q parsedQuery, p match, f SearchFilter) (SearchResult, error) {
	index := p.index
	res := SearchResult{Index: index, Query: p.expr, Complete: true}
	if p.latin != "" {
		res.Query += fmt.Sprintf(" + LIKE %v", p.latinArgs)
	}
	filter, fargs := s.filterSQL(f)
	// CROSS JOIN pins the join order: the FTS table drives and messages and
	// sessions are looked up by key. Left to itself the planner may walk
	// messages by the transferred id range and probe FTS5 per row (seconds).
	from := " FROM " + p.table + " CROSS JOIN messages m ON m.id = " + p.table + ".rowid CROSS JOIN sessions s ON s.id = m.session_id"
	match := p.table + " MATCH ?"
	margs := []any{p.expr}
	if p.latin != "" {
		// Checked per candidate row, newest first: a second FTS MATCH probed per
		// row would re-expand prefix terms every time (~600 ms measured).
		match += " AND " + p.latin
		margs = append(margs, p.latinArgs...)
	}
	cond := " WHERE " + match + " AND " + filter
	condArgs := append(append([]any{}, margs...), fargs...)

	var q2 string
	var args []any
	order := f.Sort.orderBy() // a time sort reads every match, in either phase
	if order == "" && f.Phase == PhaseFirst {
		order = " ORDER BY " + p.table + ".rowid DESC"
	}
	if order != "" {
		q2 = "SELECT " + s.hitColumns(p.snippet, "0") + from + cond + order + " LIMIT ? OFFSET ?"
		args = append(append(append([]any{}, p.snipArg...), condArgs...), f.Limit, f.Offset)
	} else {
		// Every match is ranked, from the index itself (fullrank.go),
		// wherever the query and the table are ones it reads.
		if fr, err := s.fullRank(c, q, f, p, res); !errors.Is(err, errFullRankNA) {
			if p.latin != "" {
				fr.Query = s.mixedQueryText(p) // read from the indexes, no LIKE
			}
			return fr, err
		}
		// Is the query broad? Asked of the index alone (no joins: ~0.5 ms
		// instead of ~5 ms): a match at offset rankCandidates-1 means yes.
		cutSQL := "SELECT rowid FROM " + p.table + " WHERE " + p.table + " MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?"
		cutArgs := []any{p.expr, rankCandidates - 1}
		if p.latin != "" {
			cutSQL = "SELECT " + p.table + ".rowid" + from + cond + " ORDER BY " + p.table + ".rowid DESC LIMIT 1 OFFSET ?"
			cutArgs = append(append([]any{}, condArgs...), rankCandidates-1)
		}
		if q.weight() > maxFTSRankedTerms || p.latin != "" {
			// Every FTS5 evaluation of a many-term query reads every
			// term's doclist in full, and a mixed CJK + Latin one checks
			// its Latin terms by LIKE on every candidate row: asking "is
			// it broad?" and then ranking does that twice, and bm25 once
			// more. Ranked in Go instead over its newest matches, it is
			// read once (and the Latin terms count in the score).
			return s.rankBroad(c, q, f, p, from, cond, condArgs, res)
		}
		_, found, err := c.scalarInt(cutSQL, cutArgs...)
		if err != nil {
			return res, err
		}
		if found {
			return s.rankBroad(c, q, f, p, from, cond, condArgs, res)
		}
		q2 = "SELECT " + s.hitColumns(p.snippet, p.table+".rank") + from + cond + " ORDER BY " + p.table + ".rank LIMIT ? OFFSET ?"
		args = append(append(append([]any{}, p.snipArg...), condArgs...), f.Limit, f.Offset)
	}
	err := c.query(q2, args, func(st stmtRow) error {
		h := scanHit(st, index)
		if p.goMark {
			h.Snippet = markTerms(h.Snippet, q)
		}
		res.Hits = append(res.Hits, h)
		return nil
	})
	return res, err
}

// rankBroad ranks the newest rankCandidates rows that match and pass the
// filters, in Go (see rank.go), and builds their snippets from the same text.
func (s *Store) rankBroad(c *conn, q parsedQuery, f SearchFilter, p match, from, cond string, condArgs []any, res SearchResult) (SearchResult, error) {
	var cands []candidate
	sql := "SELECT " + s.hitColumns("''", "0") + ", " + haystack + from + cond + " ORDER BY " + p.table + ".rowid DESC LIMIT ?"
	err := c.query(sql, append(append([]any{}, condArgs...), rankCandidates), func(st stmtRow) error {
		cands = append(cands, candidate{hit: scanHit(st, p.index), text: DecodeContent(st.ColumnText(hitColumnCount))})
		return nil
	})
	res.Complete = len(cands) < rankCandidates // else older matches were not ranked
	if !res.Complete {
		res.Notice = joinNotice(res.Notice, fmt.Sprintf("ranked the newest %d matches only (this file's index or this query is one recall cannot rank in full): an older match may rank higher", rankCandidates))
	}
	if err != nil || len(cands) == 0 {
		return res, err
	}
	maxID, _, err := c.scalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
	if err != nil {
		return res, err
	}
	window := float64(cands[0].hit.MessageID - cands[len(cands)-1].hit.MessageID + 1)
	scoreCandidates(cands, rankTerms(q), p.index != IndexUnicode61, float64(maxID), window)
	for i := f.Offset; i < len(cands) && len(res.Hits) < f.Limit; i++ {
		h := cands[i].hit
		h.Snippet = goSnippet(cands[i].text, q)
		res.Hits = append(res.Hits, h)
	}
	return res, nil
}
