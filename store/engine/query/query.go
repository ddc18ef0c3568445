// Package query is the engine's first stage, parse: it takes what a person
// typed (possibly half-way, possibly malformed) and gives either the
// nearest valid FTS5 expression (Parse: quotes balanced, operators and
// groups repaired, the last word a prefix while typing) or a plain query's
// words (ReadPlain: each word with its inflections, a date, the phrase),
// plus the positive terms (Query) that highlighting and transcript windows
// use to find the matches again. It reads no database.
package query

import (
	"slices"
	"strings"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// Query is a search query as the store parsed it: what a caller needs to
// find the query's matches again in text the index did not show it (recall's
// transcript windows and truncation, the TUI's highlighting), so that no
// caller lexes the query a second time and disagrees with the index about
// what it asked. SearchResult.Parsed carries the parse a search ran.
type Query struct {
	// Terms are the positive leaves, in query order: what a match contains.
	// A term under NOT (NOT x, -x, NOT (a OR b)) is not one of them, nor is
	// a column name, an operator, a NEAR distance or punctuation.
	Terms []QueryTerm
}

// QueryTerm is one positive leaf of a query.
type QueryTerm struct {
	// Text is the term as typed, unquoted; a phrase keeps its spaces.
	Text string
	// Phrase: a quoted "..." or a compound (chat-send, my-app.config.ts),
	// which FTS5 matches as consecutive words.
	Phrase bool
	// Prefix: term* or the word still being typed: it matches a word's start.
	Prefix bool
	// Pieces is Text split where it changes between CJK and other scripts
	// (修改youer服务端: 修改, youer, 服务端): a mixed-script run is matched by
	// its pieces, and CJK pieces as substrings. One piece for most terms.
	Pieces []Piece
}

// Piece is a single-script part of a QueryTerm.
type Piece struct {
	Text string
	CJK  bool
}

// ParseQuery parses a query as a search on a database of recall's own
// layout would (content is the only column name), for callers that hold a
// query string but no SearchResult. Prefer SearchResult.Parsed when there is
// one: on a Hermes v23+ file tool_name: and tool_calls: are column filters too.
func ParseQuery(raw string) Query {
	return Parse(raw, []string{"content"}, false).Export()
}

// Export turns the internal parse into the exported Query.
func (q Parsed) Export() Query {
	var out Query
	for _, t := range q.PositiveTerms() {
		qt := QueryTerm{Text: t.Text, Phrase: t.Quoted, Prefix: t.Prefix}
		for _, p := range analysis.Pieces(t.Text) {
			qt.Pieces = append(qt.Pieces, Piece{Text: p.Text, CJK: p.CJK})
		}
		out.Terms = append(out.Terms, qt)
	}
	return out
}

// Empty reports a query with no positive term (nothing to look for).
func (q Query) Empty() bool { return len(q.Terms) == 0 }

// Words are the lower-cased words of the positive terms, each once, in
// query order: a phrase contributes each of its words, so "Docker Network"
// gives docker and network. Compounds (chat-send, c++) stay whole. This is
// what recall's transcript window looks for, as Hermes's
// _truncate_around_matches splits the query.
func (q Query) Words() []string {
	var out []string
	for _, t := range q.Terms {
		for _, w := range strings.Fields(strings.ToLower(t.Text)) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// Needles are the lower-cased strings a highlighter marks, each once: every
// positive term, a mixed-script one by its pieces. The store marks the
// snippets it builds itself (CJK and LIKE paths) with exactly these.
func (q Query) Needles() []string {
	var out []string
	for _, t := range q.Terms {
		for _, p := range t.Pieces {
			if n := strings.ToLower(p.Text); n != "" && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
