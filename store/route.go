package store

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// A query's route, in one place: parse (query.go) -> plan (here: which
// index is asked which expression, in which order, and why) -> run (here;
// the SQL of one attempt is in search.go and search_like.go).
//
// The runner asks the attempts in order and the first that finds a hit
// answers. An attempt marked stands answers even with no hits (nothing
// later would know better); when no attempt answers, the empty answer is
// the fallback attempt's. An answer from an index is then topped up by a
// LIKE scan over the rows that index does not cover (gaps below), bounded
// by the limit.

// attempt is one step of a route: one index asked one expression.
type attempt struct {
	match           // index, table, MATCH expression or LIKE clause, snippet
	why      string // for whoever reads the plan (and TestRoutePlan)
	q        parsedQuery
	phase    Phase // PhaseFirst: newest first, unranked
	partial  bool  // the hits stand in for a ranking that was not done (Complete=false)
	stands   bool  // answers even with no hits: later attempts are not asked
	fallback bool  // the empty answer when no attempt finds a hit
}

// plan is the route of one query on this database. Read it top to bottom:
// it is every decision the store makes about which index answers.
func (s *Store) plan(q parsedQuery, f SearchFilter) []attempt {
	l := s.layout
	sh := shapeOf(q)
	ask := func(index Index, q parsedQuery, why string) attempt {
		return attempt{match: s.match(q, index), why: why, q: q, phase: f.Phase}
	}
	if !l.hasFTS || l.ftsStale {
		a := ask(IndexLike, q, "no FTS index to trust (missing, or Hermes's fts_stale): scan")
		a.stands = true
		return []attempt{a}
	}
	if sh.anyCJK {
		var a attempt
		switch {
		case l.hasTrigram && sh.allLong:
			a = ask(IndexTrigram, q, "every term has 3+ characters: trigram substrings, as Hermes routes CJK")
		case l.hasCJK && cjkExpressible(q):
			a = ask(IndexCJK, q, "a CJK term of 1-2 characters: recall's bigram index")
		default:
			a = ask(IndexLike, q, "a CJK term too short for trigrams and no bigram index (a Hermes file): scan")
		}
		a.stands = true
		return []attempt{a}
	}

	var p []attempt
	if f.Typing && sh.typingFragment {
		switch {
		case f.Phase == PhaseFinal:
			// Typing paused: the word is most likely complete, and an exact
			// word is ranked by bm25 cheaply. A fragment that is no word of
			// its own keeps the substring hits of the next attempt.
			p = append(p, ask(IndexUnicode61, asComplete(q), "typing paused: the word being typed, as a whole word, ranked"))
			if l.hasTrigram && sh.allLong {
				a := ask(IndexTrigram, q, "no such whole word: the fragment as a substring, newest first")
				a.phase, a.partial = PhaseFirst, true
				p = append(p, a)
			}
		case l.hasTrigram && sh.allLong:
			// A word still being typed ("erro") is a prefix query, and FTS5
			// materialises the merged doclist of every term with that prefix
			// (error, errors, errorf, ...) before it returns a single row:
			// 20-30 ms per keystroke at 200k messages, growing with the
			// history. As a substring on the trigram index it is read
			// lazily, newest first, which is also what fzf and atuin users expect.
			p = append(p, ask(IndexTrigram, q, "a word being typed: a substring read lazily, not a merged prefix doclist"))
		}
	}
	main := ask(IndexUnicode61, q, "words: unicode61")
	main.fallback = true
	if f.Offset > 0 {
		main.stands = true // a later page is a page of this answer, not of a retry
		return append(p, main)
	}
	p = append(p, main)
	// Zero hits: the word may sit inside a longer token.
	if l.hasCJK {
		p = append(p, ask(IndexCJK, q, "no hits: the Latin piece of a mixed-script run (修改youer服务端)"))
	}
	switch {
	case l.hasTrigram && sh.allLong:
		p = append(p, ask(IndexTrigram, q, "no hits: a substring of a longer token"))
	case sh.allLong && !l.hasCJK:
		// Hermes v1-v9 files have no trigram table. Current Hermes retries a
		// Latin query with no hits on trigram (its #54242: youer inside
		// 修改youer服务端), so a scan stands in for that retry: newest
		// first, it stops at the limit.
		p = append(p, ask(IndexLike, q, "no hits and no trigram table (Hermes v1-v9): a substring scan stands in"))
	}
	return withoutRepeats(p)
}

// withoutRepeats drops an attempt that asks an index an expression an
// earlier attempt asked already: it would find nothing the earlier one did not.
func withoutRepeats(p []attempt) []attempt {
	var out []attempt
	for i, a := range p {
		if !slices.ContainsFunc(p[:i], func(b attempt) bool { return b.index == a.index && b.expr == a.expr }) {
			out = append(out, a)
		}
	}
	return out
}

// maxSubstringRunes is the longest Latin term read as a substring on the
// trigram index (a word being typed, the retry of a word with no hits):
// nobody types 33 characters of a fragment, and every character is one
// more trigram doclist to intersect ("erer…" of 64 characters cost seconds).
// Longer words are whole words, or prefixes while typed, on unicode61.
const maxSubstringRunes = 32

// queryShape is what routing needs to know about a query's terms.
type queryShape struct {
	anyCJK         bool // some term contains CJK
	allLong        bool // trigram can answer: every term has 3+ characters (CJK ones 3+ CJK characters), Latin ones at most maxSubstringRunes
	typingFragment bool // the last term is a bare prefix of 4+ characters, longer than the prefix indexes (1-3)
}

func shapeOf(q parsedQuery) queryShape {
	sh := queryShape{allLong: true}
	for _, t := range q.terms() {
		if hasCJK(t.text) {
			sh.anyCJK = true
			if cjkCount(t.text) < 3 {
				sh.allLong = false
			}
		} else if n := utf8.RuneCountInString(t.text); n < 3 || n > maxSubstringRunes {
			sh.allLong = false
		}
	}
	if n := len(q.toks); n > 0 {
		t := q.toks[n-1]
		sh.typingFragment = t.kind == tTerm && t.typed && utf8.RuneCountInString(t.text) > 3
	}
	return sh
}

// asComplete returns q with the word being typed taken as a whole word.
func asComplete(q parsedQuery) parsedQuery {
	toks := append([]qtok(nil), q.toks...)
	last := &toks[len(toks)-1]
	last.prefix, last.typed = false, false
	return parsedQuery{toks: toks, notice: q.notice}
}

// gap is a set of rows an index does not (yet) cover, which a LIKE scan
// restricted to them fills in after that index answers.
//
// To add one, append it in gaps below: name the indexes it affects, and
// give the SQL that restricts a scan to the rows those indexes lack (best
// an id range, which an index answers: mark it indexed, and even the first
// phase reads just those rows) plus, if whether it applies changes while
// the store is open, a probe query that returns a row only when it does
// (the deferred trigram range does: another process's import sets it).
type gap struct {
	why     string
	indexes []Index
	rows    rowSet // the uncovered rows
	probe   string // optional: run first; no row means the gap is empty now
}

// gaps are this database's uncovered rows, per index.
func (s *Store) gaps() []gap {
	l := s.layout
	var g []gap
	if l.unindexedTo > 0 {
		g = append(g, gap{why: "Hermes's deferred FTS rebuild has not reached these ids yet",
			indexes: []Index{IndexUnicode61, IndexTrigram},
			rows:    rowSet{where: "m.id > ? AND m.id <= ?", args: []any{l.unindexedFrom, l.unindexedTo}, indexed: true}})
	}
	if l.ftsContentOnly {
		// Current Hermes indexes tool_name and tool_calls too (v11+), so a
		// tool name (terminal) or a command in a tool call answers there.
		g = append(g, gap{why: "Hermes v1-v10 index content only: tool names and tool calls are not in it",
			indexes: []Index{IndexUnicode61, IndexTrigram},
			rows:    rowSet{where: "(COALESCE(m.tool_name, '') <> '' OR COALESCE(m.tool_calls, '') <> '')"}})
	}
	if l.hasTrigram && l.hasImportMeta {
		g = append(g, gap{why: "rows a deferred import has not put in the trigram index yet (deferred_trigram.go)",
			indexes: []Index{IndexTrigram},
			rows: rowSet{where: "m.id > (SELECT CAST(value AS INTEGER) FROM state_meta WHERE key = '" + metaTrigramFrom + "')" +
				" AND m.id <= (SELECT CAST(value AS INTEGER) FROM state_meta WHERE key = '" + metaTrigramTo + "')", indexed: true},
			probe: "SELECT 1 FROM state_meta WHERE key = '" + metaTrigramTo + "'"})
	}
	if l.hasCJK {
		g = append(g, gap{why: "rows a plain-SQLite writer added whose CJK grams recall has not computed yet",
			indexes: []Index{IndexCJK},
			rows:    rowSet{where: "m.id IN (SELECT id FROM recall_cjk_pending)", indexed: true},
			probe:   "SELECT 1 FROM recall_cjk_pending LIMIT 1"})
	}
	return g
}

// route runs the plan of q and returns the first answer, topped up by its gaps.
func (s *Store) route(c *conn, q parsedQuery, f SearchFilter) (SearchResult, error) {
	plan := s.plan(q, f)
	var empty *SearchResult
	var emptyFrom attempt
	scanned := false // a LIKE attempt read the rows: no gap is left to fill
	complete := true // no attempt that found nothing left rows unread
	var tried []attempt
	for _, a := range plan {
		res, err := s.runAttempt(c, a, f)
		if err != nil {
			return res, err
		}
		if len(res.Hits) > 0 || a.stands {
			return s.fillGaps(c, a, f, res)
		}
		scanned = scanned || a.index == IndexLike
		complete = complete && res.Complete
		if a.fallback {
			empty, emptyFrom = &res, a
		}
		tried = append(tried, a)
	}
	if empty == nil { // every plan has a fallback or a standing attempt; be safe
		return SearchResult{Index: IndexNone, Complete: true}, nil
	}
	empty.Complete = complete
	if scanned {
		return *empty, nil
	}
	res, err := s.fillGaps(c, emptyFrom, f, *empty)
	if err != nil || len(res.Hits) > 0 {
		return res, err
	}
	// Nothing in the fallback's index or its gaps: a later attempt's index
	// has gaps of its own (the trigram retry of a word inside a longer
	// token, and the rows a stopped import has not put in the trigram
	// index yet: a committed row is always found).
	for i := len(tried) - 1; i >= 0; i-- { // the broadest first: trigram substrings
		a := tried[i]
		if a.index == emptyFrom.index {
			continue
		}
		more, err := s.fillGaps(c, a, f, SearchResult{Index: a.index, Complete: complete})
		if err != nil || len(more.Hits) > 0 {
			return more, err
		}
	}
	return res, nil
}

// runAttempt runs one attempt in its phase.
func (s *Store) runAttempt(c *conn, a attempt, f SearchFilter) (SearchResult, error) {
	f.Phase = a.phase
	var res SearchResult
	var err error
	if a.index == IndexLike {
		res, err = s.searchLike(c, a.q, a.match, f, rowSet{})
	} else {
		res, err = s.searchFTS(c, a.q, a.match, f)
	}
	if a.partial {
		res.Complete = false
	}
	return res, err
}

// fillGaps tops up an index's answer with LIKE hits from the rows it does
// not cover, up to the limit.
func (s *Store) fillGaps(c *conn, a attempt, f SearchFilter, res SearchResult) (SearchResult, error) {
	for _, g := range s.gaps() {
		full := len(res.Hits) >= f.Limit && f.Sort == SortRank // a time sort may want a gap's row first
		if full || !g.covers(a) {
			continue
		}
		if g.probe != "" {
			if _, any, err := c.scalarInt(g.probe); err != nil || !any {
				if err != nil {
					return res, err
				}
				continue
			}
		}
		more, err := s.searchLike(c, a.q, s.match(a.q, IndexLike), f, g.rows)
		if err != nil {
			return res, err
		}
		res.Complete = res.Complete && more.Complete
		if f.Sort == SortRank {
			res = mergeHits(res, more.Hits, f.Limit)
			continue
		}
		// A time order holds across the index's page and the gap's: merge
		// both whole, order, then cut to the limit.
		res = mergeHits(res, more.Hits, 2*f.Limit)
		slices.SortStableFunc(res.Hits, func(a, b Hit) int {
			if f.Sort == SortOldest {
				return a.Timestamp.Compare(b.Timestamp)
			}
			return b.Timestamp.Compare(a.Timestamp)
		})
		res.Hits = res.Hits[:min(len(res.Hits), f.Limit)]
	}
	return res, nil
}

// covers reports whether the gap's rows are missing from what attempt a
// reads: its index, or for a mixed CJK + Latin query also the indexes its
// Latin words are read from when it is ranked in full (fullrank_mixed.go:
// unicode61 and trigram), so a row a deferred import has not put in the
// trigram index yet is still found. An all-CJK query reads neither.
func (g gap) covers(a attempt) bool {
	if containsIndex(g.indexes, a.index) {
		return true
	}
	return a.index == IndexCJK && len(a.latinTerms) > 0 &&
		(containsIndex(g.indexes, IndexTrigram) || containsIndex(g.indexes, IndexUnicode61))
}

func containsIndex(list []Index, i Index) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}

// contentOnlyFTS matches the DDL of Hermes v1-v10's external-content FTS
// tables over messages (fts5(content, content=messages, ...)), which index
// the content column alone; v11+ index content, tool_name and tool_calls
// (inline, or v23's external content over the messages_fts_src view).
var contentOnlyFTS = regexp.MustCompile(`(?i)content\s*=\s*['"]?messages['"]?\s*[,)]`)

// ftsIndexesContentOnly reports whether messages_fts's DDL is Hermes v1-v10's.
func ftsIndexesContentOnly(ddl string) bool {
	return contentOnlyFTS.MatchString(ddl) && !strings.Contains(strings.ToLower(ddl), "tool_name")
}
