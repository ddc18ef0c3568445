// Package plan decides a query's route: it takes the parsed query, the
// caller's filter and what this file has (engine.Layout), and gives the
// attempts in order, each one index asked one expression (Match: its
// table, MATCH expression or LIKE clause, and how its rows are snippeted),
// and the rows each index does not cover (Gaps). It reads nothing; the
// pipeline runs the attempts.
package plan

import (
	"slices"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
)

// A query's route, in one place: parse (store/engine/query) -> plan
// (here: which index is asked which expression, in which order, and why)
// -> run (store/engine/pipeline: route.go, and the SQL of one attempt in
// search.go and like.go).
//
// The runner asks the attempts in order and the first that finds a hit
// answers. An attempt marked stands answers even with no hits (nothing
// later would know better); when no attempt answers, the empty answer is
// the fallback attempt's. An answer from an index is then topped up by a
// LIKE scan over the rows that index does not cover (gaps below), bounded
// by the limit.

// Attempt is one step of a route: one index asked one expression.
type Attempt struct {
	Match           // index, table, MATCH expression or LIKE clause, snippet
	Why      string // for whoever reads the plan (and TestRoutePlan)
	Q        query.Parsed
	Phase    engine.Phase // PhaseFirst: newest first, unranked
	Partial  bool         // the hits stand in for a ranking that was not done (Complete=false)
	Stands   bool         // answers even with no hits: later attempts are not asked
	Fallback bool         // the empty answer when no attempt finds a hit
}

// Route is the plan of one query on the database l describes. Read it top
// to bottom: it is every decision the engine makes about which index answers.
func Route(q query.Parsed, f engine.Filter, l engine.Layout) []Attempt {
	sh := shapeOf(q)
	ask := func(index engine.Index, q query.Parsed, why string) Attempt {
		return Attempt{Match: For(q, index, l), Why: why, Q: q, Phase: f.Phase}
	}
	if !l.HasFTS || l.FTSStale {
		a := ask(engine.IndexLike, q, "no FTS index to trust (missing, or Hermes's fts_stale): scan")
		a.Stands = true
		return []Attempt{a}
	}
	if sh.anyCJK {
		var a Attempt
		switch {
		case l.HasTrigram && sh.allLong:
			a = ask(engine.IndexTrigram, q, "every term has 3+ characters: trigram substrings, as Hermes routes CJK")
		case l.HasCJK && CJKExpressible(q):
			a = ask(engine.IndexCJK, q, "a CJK term of 1-2 characters: recall's bigram index")
		default:
			a = ask(engine.IndexLike, q, "a CJK term too short for trigrams and no bigram index (a Hermes file): scan")
		}
		a.Stands = true
		return []Attempt{a}
	}

	var p []Attempt
	if f.Typing && sh.typingFragment {
		switch {
		case f.Phase == engine.PhaseFinal:
			// Typing paused: the word is most likely complete, and an exact
			// word is ranked by bm25 cheaply. A fragment that is no word of
			// its own keeps the substring hits of the next attempt.
			p = append(p, ask(engine.IndexUnicode61, asComplete(q), "typing paused: the word being typed, as a whole word, ranked"))
			if l.HasTrigram && sh.allLong {
				a := ask(engine.IndexTrigram, q, "no such whole word: the fragment as a substring, newest first")
				a.Phase, a.Partial = engine.PhaseFirst, true
				p = append(p, a)
			}
		case l.HasTrigram && sh.allLong:
			// A word still being typed ("erro") is a prefix query, and FTS5
			// materialises the merged doclist of every term with that prefix
			// (error, errors, errorf, ...) before it returns a single row:
			// 20-30 ms per keystroke at 200k messages, growing with the
			// history. As a substring on the trigram index it is read
			// lazily, newest first, which is also what fzf and atuin users expect.
			p = append(p, ask(engine.IndexTrigram, q, "a word being typed: a substring read lazily, not a merged prefix doclist"))
		}
	}
	main := ask(engine.IndexUnicode61, q, "words: unicode61")
	main.Fallback = true
	if f.Offset > 0 {
		main.Stands = true // a later page is a page of this answer, not of a retry
		return append(p, main)
	}
	p = append(p, main)
	// Zero hits: the word may sit inside a longer token.
	if l.HasCJK {
		p = append(p, ask(engine.IndexCJK, q, "no hits: the Latin piece of a mixed-script run (修改youer服务端)"))
	}
	switch {
	case l.HasTrigram && sh.allLong:
		p = append(p, ask(engine.IndexTrigram, q, "no hits: a substring of a longer token"))
	case sh.allLong && !l.HasCJK:
		// Hermes v1-v9 files have no trigram table. Current Hermes retries a
		// Latin query with no hits on trigram (its #54242: youer inside
		// 修改youer服务端), so a scan stands in for that retry: newest
		// first, it stops at the limit.
		p = append(p, ask(engine.IndexLike, q, "no hits and no trigram table (Hermes v1-v9): a substring scan stands in"))
	}
	return withoutRepeats(p)
}

// withoutRepeats drops an attempt that asks an index an expression an
// earlier attempt asked already: it would find nothing the earlier one did not.
func withoutRepeats(p []Attempt) []Attempt {
	var out []Attempt
	for i, a := range p {
		if !slices.ContainsFunc(p[:i], func(b Attempt) bool { return b.Index == a.Index && b.Expr == a.Expr }) {
			out = append(out, a)
		}
	}
	return out
}

// MaxSubstringRunes is the longest Latin term read as a substring on the
// trigram index (a word being typed, the retry of a word with no hits):
// nobody types 33 characters of a fragment, and every character is one
// more trigram doclist to intersect ("erer…" of 64 characters cost seconds).
// Longer words are whole words, or prefixes while typed, on unicode61.
const MaxSubstringRunes = 32

// queryShape is what routing needs to know about a query's terms.
type queryShape struct {
	anyCJK         bool // some term contains CJK
	allLong        bool // trigram can answer: every term has 3+ characters (CJK ones 3+ CJK characters), Latin ones at most MaxSubstringRunes
	typingFragment bool // the last term is a bare prefix of 4+ characters, longer than the prefix indexes (1-3)
}

func shapeOf(q query.Parsed) queryShape {
	sh := queryShape{allLong: true}
	for _, t := range q.Terms() {
		if analysis.HasCJK(t.Text) {
			sh.anyCJK = true
			if analysis.CJKCount(t.Text) < 3 {
				sh.allLong = false
			}
		} else if n := utf8.RuneCountInString(t.Text); n < 3 || n > MaxSubstringRunes {
			sh.allLong = false
		}
	}
	if n := len(q.Toks); n > 0 {
		t := q.Toks[n-1]
		sh.typingFragment = t.Kind == query.TokTerm && t.Typed && utf8.RuneCountInString(t.Text) > 3
	}
	return sh
}

// asComplete returns q with the word being typed taken as a whole word.
func asComplete(q query.Parsed) query.Parsed {
	toks := append([]query.Tok(nil), q.Toks...)
	last := &toks[len(toks)-1]
	last.Prefix, last.Typed = false, false
	return query.Parsed{Toks: toks, Notice: q.Notice}
}

// Gap is a set of rows an index does not (yet) cover, which a LIKE scan
// restricted to them fills in after that index answers.
//
// To add one, append it in Gaps below: name the indexes it affects, and
// give the SQL that restricts a scan to the rows those indexes lack (best
// an id range, which an index answers: mark it indexed, and even the first
// phase reads just those rows) plus, if whether it applies changes while
// the store is open, a probe query that returns a row only when it does
// (the deferred trigram range does: another process's import sets it).
type Gap struct {
	Why     string
	Indexes []engine.Index
	Rows    RowSet // the uncovered rows
	Probe   string // optional: run first; no row means the gap is empty now
}

// Gaps are the uncovered rows, per index, of the database l describes.
func Gaps(l engine.Layout) []Gap {
	var g []Gap
	if l.UnindexedTo > 0 {
		g = append(g, Gap{Why: "Hermes's deferred FTS rebuild has not reached these ids yet",
			Indexes: []engine.Index{engine.IndexUnicode61, engine.IndexTrigram},
			Rows:    RowSet{Where: "m.id > ? AND m.id <= ?", Args: []any{l.UnindexedFrom, l.UnindexedTo}, Indexed: true}})
	}
	if l.FTSContentOnly {
		// Current Hermes indexes tool_name and tool_calls too (v11+), so a
		// tool name (terminal) or a command in a tool call answers there.
		g = append(g, Gap{Why: "Hermes v1-v10 index content only: tool names and tool calls are not in it",
			Indexes: []engine.Index{engine.IndexUnicode61, engine.IndexTrigram},
			Rows:    RowSet{Where: "(COALESCE(m.tool_name, '') <> '' OR COALESCE(m.tool_calls, '') <> '')"}})
	}
	if l.TrigramToKey != "" {
		g = append(g, Gap{Why: "rows a deferred import has not put in the trigram index yet (store/deferred_trigram.go)",
			Indexes: []engine.Index{engine.IndexTrigram},
			Rows: RowSet{Where: "m.id > (SELECT CAST(value AS INTEGER) FROM state_meta WHERE key = '" + l.TrigramFromKey + "')" +
				" AND m.id <= (SELECT CAST(value AS INTEGER) FROM state_meta WHERE key = '" + l.TrigramToKey + "')", Indexed: true},
			Probe: "SELECT 1 FROM state_meta WHERE key = '" + l.TrigramToKey + "'"})
	}
	if l.HasCJK {
		g = append(g, Gap{Why: "rows a plain-SQLite writer added whose CJK grams recall has not computed yet",
			Indexes: []engine.Index{engine.IndexCJK},
			Rows:    RowSet{Where: "m.id IN (SELECT id FROM recall_cjk_pending)", Indexed: true},
			Probe:   "SELECT 1 FROM recall_cjk_pending LIMIT 1"})
	}
	return g
}

// Covers reports whether the gap's rows are missing from what attempt a
// reads: its index, or for a mixed CJK + Latin query also the indexes its
// Latin words are read from when it is ranked in full (postings/mixed.go:
// unicode61 and trigram), so a row a deferred import has not put in the
// trigram index yet is still found. An all-CJK query reads neither.
func (g Gap) Covers(a Attempt) bool {
	if containsIndex(g.Indexes, a.Index) {
		return true
	}
	return a.Index == engine.IndexCJK && len(a.LatinTerms) > 0 &&
		(containsIndex(g.Indexes, engine.IndexTrigram) || containsIndex(g.Indexes, engine.IndexUnicode61))
}

func containsIndex(list []engine.Index, i engine.Index) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}
