package pipeline

import (
	"errors"
	"math"
	"strings"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Session ranking of a plain query over every match.
//
// A session's score is bounded.go's, with every input read for every
// matching row: each word's rows and counts from its doclists (all its
// forms, postings.WordPostings), idf from its exact document frequency,
// each row's BM25 from its length in %_docsize, its session, time and the
// session's first message from the session map (rowcache), the session's
// title words from the same map. A session is ranked by
//
//  1. a date the query names: a session started then, or with a matching
//     message then, comes first;
//  2. its score (score.Plain's weights): score.TitleWeight x the idf of its
//     title's words, plus score.CoverageWeight x the idf of every distinct
//     word it holds (title included), plus score.FullestWeight x the idf of
//     the words its fullest message holds (with the title), plus its best
//     messages' values weighted 1, 1/2 ... 1/5, where a message's value is
//     its BM25, plus score.PhraseWeight x the query's idf when its text
//     holds the query's words in order, times score.FirstPromptMul for the
//     session's first message;
//  3. newest.
//
// Then the best collect.RescoreSessions sessions are scored again
// (collect/rescore.go): their best rows' roles are read by rowid, and a
// tool output's value (or a user-role row the agent program wrote) counts
// score.ToolOutputMul times, and in a session with tool output among
// them the assistant's score.AssistantMul; they keep their place before
// the rest.
//
// Every matching message counts, whatever its role: the caller's role and
// visibility filters choose which sessions are listed (those with a
// matching message that passes them) and which of their messages are shown,
// not the evidence a session is ranked by; since/until bound the evidence.
//
// Every input is in the index or the map, the in-order bonus included (a
// phrase match of the query's words, stopwords too, read from the position
// lists of the messages that hold every word), so every session's key is
// exact before any message is read; messages are then read only to list
// the best sessions that pass the filters, in key order.

var (
	// PlainListed is how many sessions are listed at most (the MCP tool
	// returns at most 10; a TUI screen shows ~20), and plainSessionHits how
	// many of a session's messages are listed with it.
	PlainListed      = 60
	plainSessionHits = 10
)

// plainEligible reports whether the plain path may answer: a session
// ranking (Discover) on an FTS index that covers every row, ranked by
// relevance from the first page.
func (e *Engine) plainEligible(f engine.Filter) bool {
	l := e.layout
	return f.Sessions && f.Phase == engine.PhaseFinal && f.Sort == engine.SortRank && f.Offset == 0 &&
		l.HasFTS && !l.FTSStale && !l.FTSContentOnly && l.UnindexedTo == 0
}

// describePlain fills what a plain query's answer says of how it was read: its
// words, the expression they stand for, a replaced typo, the date.
func describePlain(res *engine.Result, pq query.Plain) {
	exprs := make([]string, len(pq.Words))
	res.Words = make([]string, len(pq.Words))
	for i, w := range pq.Words {
		exprs[i], res.Words[i] = w.Expr(), w.Text
	}
	res.Query = "(" + strings.Join(exprs, ") OR (") + ")"
	res.Suggestion = pq.Suggestion
	if !pq.Date.Zero() {
		res.DateFilter, res.DateFrom, res.DateTo = pq.Date.Text, pq.Date.From, pq.Date.To
	}
}

// searchPlain answers a plain query at session level; no hits is not an
// error (the caller then tries the ordinary route, which finds substrings).
func (e *Engine) searchPlain(c engine.Conn, pq query.Plain, f engine.Filter) (engine.Result, error) {
	if pq.HasCJK() {
		if len(pq.Words) == 1 && pq.Date.Zero() {
			// One word: any word is every word, and the route ranks
			// every match of it (the CJK indexes, in full).
			return engine.Result{}, nil
		}
		// A CJK word is read from the CJK indexes, by SQL: ranked as on a
		// file whose index full ranking does not read.
		return e.searchPlainBounded(c, pq, f)
	}
	// Every match, from the index, where it reads it.
	if res, err := e.searchPlainExact(c, pq, f); !errors.Is(err, postings.ErrNotApplicable) {
		return res, err
	} else if errors.Is(err, errNoWordRows) {
		pq.TyposTried = true // what is left is the titles; the typos were looked for
	}
	return e.searchPlainBounded(c, pq, f)
}

// searchPlainExact answers a plain query at session level over every
// match; postings.ErrNotApplicable when the index or the file is not one it
// reads (searchPlain then ranks as searchPlainBounded does).
func (e *Engine) searchPlainExact(c engine.Conn, pq query.Plain, f engine.Filter) (engine.Result, error) {
	res, err := e.searchPlainExactOnce(c, pq, f)
	if errors.Is(err, fill.ErrStale) {
		// A session was renamed or a message moved since the map was read.
		e.rows.Sessions().Forget()
		res, err = e.searchPlainExactOnce(c, pq, f)
		if errors.Is(err, fill.ErrStale) {
			err = postings.ErrNotApplicable
		}
	}
	return res, err
}

// errNoWordRows: no message holds a word of the query, typos looked for.
var errNoWordRows = errors.Join(postings.ErrNotApplicable, errors.New("no message holds a word"))

func (e *Engine) searchPlainExactOnce(c engine.Conn, pq query.Plain, f engine.Filter) (engine.Result, error) {
	res := engine.Result{Index: engine.IndexUnicode61, Complete: true}
	if !e.layout.HasFTS || len(pq.Words) > 64 {
		return res, postings.ErrNotApplicable
	}
	ix, err := e.ix.Open(c, "messages_fts")
	if err != nil {
		return res, err
	}
	if ix.Trigram() {
		return res, postings.ErrNotApplicable
	}
	sm := e.rows.Sessions()
	if ok, err := sm.Refresh(c, e.layout); err != nil || !ok {
		return res, errors.Join(postings.ErrNotApplicable, err)
	}
	phrase := analysis.Unicode61Tokens(pq.Phrase)
	phraseToks := map[string]bool{}
	for _, tok := range phrase {
		phraseToks[tok] = true
	}
	docs, kept, release, err := postings.WordPostings(ix, &pq, phraseToks)
	if err != nil {
		return res, err
	}
	defer func() { release() }() // the last read's, once the sessions are listed
	ids := make([][]int64, len(docs))
	for i, d := range docs {
		if len(d) > 0 {
			ids[i] = []int64{d[0].Rowid} // correctTypos asks only which words matched
		}
	}
	if fixed, note, err := e.correctTypos(c, &pq, ids); err != nil {
		return res, err
	} else if fixed {
		pq.Suggestion = note
		release()
		if docs, kept, release, err = postings.WordPostings(ix, &pq, phraseToks); err != nil {
			release = func() {}
			return res, err
		}
	}
	describePlain(&res, pq)
	hq := pq.Highlight()
	res.Parsed = hq.Export()

	ps := score.NewPlain(docs, ix.Rows(), pq.Phrase != "")
	of, at, meta, titleMask := sm.View(pq)
	var since, until int64 = math.MinInt64, math.MaxInt64
	if !f.Since.IsZero() {
		since = int64(math.Ceil(sqlutil.ToEpoch(f.Since)))
	}
	if !f.Until.IsZero() {
		until = int64(math.Ceil(sqlutil.ToEpoch(f.Until)))
	}

	// Which messages hold the query's words in order, before scoring: it
	// is part of a message's value.
	var inOrder map[int64]bool
	if len(phrase) >= 2 {
		if inOrder, err = postings.InOrder(ix, phrase, docs, kept); err != nil {
			return res, err
		}
	}
	sc := score.Pass{Plain: ps, Docs: docs, Index: ix, Of: of, At: at, Meta: meta,
		Since: since, Until: until, InOrder: inOrder}
	// Every matching message is scored once, into its session's key; no
	// message is kept (a common word has hundreds of thousands): the listed
	// sessions' messages are gathered again below, for those sessions only.
	accs, touched, total := collect.Sessions(&sc, titleMask, pq.Date)
	res.Matches = total
	if len(touched) == 0 {
		return res, errNoWordRows // no message holds a word: searchPlain looks at titles
	}
	// Sessions in key order: the best few hundred first (most queries list
	// from those), all of them only when the filters pass too few.
	ranking := collect.NewRanking(&sc, accs, touched, ps, 4*PlainListed)
	accs, touched = nil, nil
	// The best of them scored again with their best rows' roles, read for
	// those rows only (collect.Ranking.Rescore).
	if err := ranking.Rescore(func(ids []int64) (map[int64]score.RowRole, error) { return fill.RowRoles(c, e.layout, ids) }); err != nil {
		return res, err
	}

	// List the best sessions that pass the filters, in key order.
	var listed []*collect.Sess
	shown, most := 0, PlainListed
	if f.SessionLimit > 0 {
		most = min(most, f.SessionLimit)
	}
	for next := 0; next < ranking.Len() && len(listed) < most && shown < f.Limit; {
		batch := ranking.Next(next, most-len(listed))
		if err := fill.Sessions(c, e.layout, batch, meta, f, plainSessionHits); err != nil {
			return res, err
		}
		for _, se := range batch {
			if len(se.Hits) > 0 && len(listed) < most {
				listed = append(listed, se)
				shown += len(se.Hits)
			}
		}
		next += len(batch)
	}
	return e.plainHits(c, res, listed, pq, hq, f)
}

// plainHits lays the ranked sessions out as hits: each session's messages,
// best first, its best one with a snippet marking hq (the plain query's forms).
func (e *Engine) plainHits(c engine.Conn, res engine.Result, listed []*collect.Sess, pq query.Plain, hq query.Parsed, f engine.Filter) (engine.Result, error) {
	var bestIDs []any
	shown := 0
	for _, se := range listed {
		if shown >= f.Limit {
			break
		}
		bestIDs = append(bestIDs, se.Hits[0].MessageID)
		shown += len(se.Hits)
	}
	texts := map[int64]string{}
	if err := highlight.Texts(c, bestIDs, func(id int64, text string) { texts[id] = text }); err != nil {
		return res, err
	}
	for _, se := range listed {
		var matched []string
		for j, w := range pq.Words {
			if se.Mask&(1<<j) != 0 {
				matched = append(matched, w.Text)
			}
		}
		for k, h := range se.Hits {
			if len(res.Hits) >= f.Limit {
				return res, nil
			}
			if k == 0 {
				h.Snippet = highlight.Snippet(texts[h.MessageID], hq)
			}
			h.Matched = matched
			res.Hits = append(res.Hits, h)
		}
	}
	return res, nil
}
