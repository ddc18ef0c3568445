package pipeline

import (
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
)

// Session-level ranking of plain queries (store/engine/query's plain.go
// says what a plain query is).
//
// Where the index is one store/fts5idx reads, plain.go ranks the sessions
// over every matching message. This file is the path for the other files
// (an FTS5 table with options full ranking does not read, a rowid range
// the session map cannot hold), bounded at every step:
//  1. each content word is read newest first from the index alone, at most
//     postings.PerWord rowids (Complete=false and a notice when a word has
//     more); where the index is readable (postings.ReadWords), every row is;
//  2. each row is pre-scored by the idf of the distinct words it holds,
//     then its BM25 from the index where known (score.PreScores), and the
//     best plainRows rows that pass the filters are read with their text
//     and session (fill.ByID);
//  3. rows are scored (score.Rows) and gathered per session
//     (collect.GatherBounded) and ranked by the session score of
//     score.Plain's weights: the distinct query words it holds and those of
//     its fullest row (weighted by rarity, the title counting), then the
//     rows' scores with diminishing weights (1, 1/2, ... 1/5), so a session
//     that is about a word beats one that mentions it once; with a date in
//     the query, sessions of that time come before the rest.
//
// Words with no row at all: a typo is looked for (typo.go); when no word
// has a row, sessions whose title holds one answer (fill.TitleRows).

var (
	// plainRows is how many rows are read with their text and scored.
	plainRows = 400
	// plainSessionsBonus is how many of the best sessions have their first
	// prompt looked up (it weighs as much as a title).
	plainSessionsBonus = 40
)

// readWords reads each word's rows: a word from the words index
// (postings.ReadWords), a CJK word from the index a query of that word
// alone is routed to (plan.Route: trigram for 3+ characters, recall's
// bigram index for 1-2, a scan on a file with neither), which res then
// names.
func (e *Engine) readWords(c engine.Conn, pq *query.Plain, res *engine.Result) (postings.Words, error) {
	words, err := e.ix.ReadWords(c, pq)
	if err != nil {
		return words, err
	}
	for i, w := range pq.Words {
		if !w.CJK {
			continue
		}
		q := query.Parse(query.QuoteFTS(w.Text), e.layout.Columns(), false)
		attempts := plan.Route(q, engine.Filter{Phase: engine.PhaseFirst}, e.layout)
		if len(attempts) == 0 {
			continue
		}
		a := attempts[0]
		if res.Index == engine.IndexUnicode61 {
			res.Index = a.Index
		}
		if err := postings.CJKWordRows(c, &words, i, a.Table, a.Expr, a.ExprArgs); err != nil {
			words.Done()
			return words, err
		}
		if err := e.cjkWordGaps(c, &words, i, a); err != nil {
			words.Done()
			return words, err
		}
	}
	return words, nil
}

// cjkWordGaps adds to word i the rows its index does not cover yet (a
// deferred trigram pass, grams not computed yet: plan.Gaps) that hold it,
// by a scan of those rows only, as the route tops an index's answer up.
func (e *Engine) cjkWordGaps(c engine.Conn, words *postings.Words, i int, a plan.Attempt) error {
	if a.Index == engine.IndexLike {
		return nil // the scan read every row
	}
	like := plan.For(a.Q, engine.IndexLike, e.layout)
	var extra []int64
	for _, g := range plan.Gaps(e.layout) {
		if !g.Covers(a) {
			continue
		}
		if g.Probe != "" {
			if _, any, err := c.ScalarInt(g.Probe); err != nil || !any {
				if err != nil {
					return err
				}
				continue
			}
		}
		where := like.Expr
		if g.Rows.Where != "" {
			where = "(" + g.Rows.Where + ") AND " + where
		}
		err := c.Query("SELECT m.id FROM messages m WHERE "+where+" ORDER BY m.id DESC LIMIT ?",
			append(append(append([]any{}, g.Rows.Args...), like.ExprArgs...), postings.CJKPerWord), func(st *sqlite3.Stmt) error {
				extra = append(extra, st.ColumnInt64(0))
				return nil
			})
		if err != nil {
			return err
		}
	}
	if len(extra) > 0 {
		words.Add(i, extra)
	}
	return nil
}

// searchPlainBounded answers a plain query at session level from the
// newest matches of each word, on a file whose index plain.go does not read.
func (e *Engine) searchPlainBounded(c engine.Conn, pq query.Plain, f engine.Filter) (engine.Result, error) {
	res := engine.Result{Index: engine.IndexUnicode61, Complete: true}
	n := len(pq.Words)
	words, err := e.readWords(c, &pq, &res)
	if err != nil {
		return res, err
	}
	defer func() { words.Done() }()
	ids := make([][]int64, n)
	for i, d := range words.Docs {
		if len(d) > 0 {
			ids[i] = []int64{d[0].Rowid} // correctTypos asks which words matched
		}
	}
	if fixed, note, err := e.correctTypos(c, &pq, ids); err != nil {
		return res, err
	} else if fixed {
		pq.Suggestion = note
		words.Done()
		if words, err = e.readWords(c, &pq, &res); err != nil {
			return res, err
		}
	}
	describePlain(&res, pq)

	total, _, err := c.ScalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
	if err != nil {
		return res, err
	}
	N := float64(max(total, 1))
	idf := make([]float64, n)
	for i, d := range words.Docs {
		df := float64(len(d))
		if words.Capped[i] {
			if res.Complete {
				res.Notice = joinNotice(res.Notice, fmt.Sprintf("%q is in more than %d messages: sessions were ranked from its newest %d", pq.Words[i].Text, len(d), len(d)))
			}
			res.Complete = false
			// Only the newest matches were read: extrapolate their density.
			window := float64(total - d[0].Rowid + 1)
			df = min(N, df*N/max(window, df))
		}
		idf[i] = score.PlainIDF(N, df)
	}
	var sumIDF float64
	for _, v := range idf {
		sumIDF += v
	}
	spans, err := fill.DateSpans(c, pq.Date)
	if err != nil {
		return res, err
	}
	// Every matching row, pre-scored: the rarity of the distinct words it
	// holds first (with a date, rows of sessions of that time before the
	// rest), then its BM25 from the index (each word's count in it, its
	// length in tokens), then newest.
	pres := score.PreScores(words, idf, sumIDF, spans)
	words.Done() // what follows reads the best rows' text, not the doclists
	res.Matches = len(pres)
	if len(pres) == 0 {
		// No message holds a word: a session whose title does ("bad
		// gateway") is still an answer, anchored at its first prompt.
		firsts, err := fill.TitleRows(c, e.layout, pq)
		if err != nil || len(firsts) == 0 {
			return res, err
		}
		for _, id := range firsts {
			pres = append(pres, score.Pre{ID: id})
		}
	}
	if len(pres) > plainRows {
		// Sessions are ranked from the best rows, not from all of them.
		res.Complete = false
	}

	// The best rows that pass the filters, with their text and session.
	filter, fargs := fill.Where(e.layout, f)
	var cands []score.Candidate
	for checked, m := 0, plainRows; len(cands) < plainRows && checked < len(pres) && checked < FullRankMaxChecked; m *= 4 {
		best := collect.TopN(pres, min(m, FullRankMaxChecked), score.Pre.Better)
		batch := best[checked:]
		checked = len(best)
		args := make([]any, 0, len(batch))
		for _, p := range batch {
			args = append(args, p.ID)
		}
		byID := make(map[int64]score.Candidate, len(batch))
		err = fill.ByID(c, e.layout, args, filter, fargs, engine.IndexUnicode61, true, func(h engine.Hit, text string) {
			byID[h.MessageID] = score.Candidate{Hit: h, Text: text}
		})
		if err != nil {
			return res, err
		}
		for _, p := range batch { // in rank order
			if cd, ok := byID[p.ID]; ok && len(cands) < plainRows {
				cands = append(cands, cd)
			}
		}
		if m >= len(pres) {
			break
		}
	}
	if len(cands) == 0 {
		return res, nil
	}

	// Okapi BM25 per row, and a bonus for the query's words in a row, in
	// order, stopwords included ("too many clients").
	wm := score.NewMatcher(pq)
	rowMask := score.Rows(cands, wm, n, idf, sumIDF, pq.Phrase)

	// Gather per session, and order them.
	sessions := collect.GatherBounded(cands, rowMask, wm, idf, pq.Date)
	// The first prompt says what a session is about: it weighs as much as
	// a title, for the best sessions (one indexed lookup each).
	top := sessions.Top(plainSessionsBonus)
	topIDs := make([]string, len(top))
	for i, se := range top {
		topIDs[i] = se.ID
	}
	firsts, err := fill.FirstMessages(c, topIDs)
	if err != nil {
		return res, err
	}
	sessions.WithFirsts(plainSessionsBonus, firsts)

	hq := pq.Highlight()
	for _, se := range sessions.List {
		var matched []string
		for j := 0; j < n; j++ {
			if se.Mask&(1<<j) != 0 {
				matched = append(matched, res.Words[j])
			}
		}
		for k, r := range se.Rows {
			if len(res.Hits) >= f.Limit {
				break
			}
			h := cands[r].Hit
			if k == 0 {
				// A session's result shows its best row: the others are
				// counted, not shown, and a snippet costs ~0.2 ms.
				h.Snippet = highlight.Snippet(cands[r].Text, hq)
			}
			h.Matched = matched
			res.Hits = append(res.Hits, h)
		}
	}
	res.Parsed = hq.Export()
	return res, nil
}
