package store

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// haystack is the text a LIKE scan reads: the same fields the FTS tables index.
const haystack = "(COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') || ' ' || COALESCE(m.tool_calls, ''))"

// likeSQL compiles the parsed query to a boolean of LIKE clauses with the
// same AND / OR / NOT structure (Hermes v21 ORed every token and lost it).
func likeSQL(q parsedQuery) (string, []any) {
	var b strings.Builder
	var args []any
	var prev tokKind = 255
	for _, t := range q.toks {
		if t.kind == tCol {
			continue
		}
		if prev != 255 && operandEnd(prev) && (operandStart(t.kind)) {
			b.WriteString(" AND ")
		}
		switch t.kind {
		case tTerm:
			b.WriteString(haystack + " LIKE ? ESCAPE '\\'")
			args = append(args, "%"+escapeLike(t.text)+"%")
		case tNear:
			b.WriteString("(")
			for i, k := range t.kids {
				if i > 0 {
					b.WriteString(" AND ")
				}
				b.WriteString(haystack + " LIKE ? ESCAPE '\\'")
				args = append(args, "%"+escapeLike(k.text)+"%")
			}
			b.WriteString(")")
		case tAnd:
			b.WriteString(" AND ")
		case tOr:
			b.WriteString(" OR ")
		case tNot:
			b.WriteString(" AND NOT ")
		case tLParen:
			b.WriteString("(")
		case tRParen:
			b.WriteString(")")
		}
		prev = t.kind
	}
	if b.Len() == 0 {
		return "0", nil
	}
	return "(" + b.String() + ")", args
}

// searchLike scans messages newest first and stops at the limit: the
// route's last resort, and (restricted by extra to a few rows) how a gap in
// an index is filled. m is the query's IndexLike match.
func (s *Store) searchLike(c *conn, q parsedQuery, m match, f SearchFilter, extra string, extraArgs ...any) (SearchResult, error) {
	res := SearchResult{Index: IndexLike, Query: m.expr, Complete: true}
	filter, fargs := s.filterSQL(f)
	sql := "SELECT " + s.hitColumns(m.snippet, "0") + " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE " +
		m.expr + " AND " + filter + extra + " ORDER BY m.id DESC LIMIT ? OFFSET ?"
	args := append(append(append(append(append([]any{}, m.snipArg...), m.exprArgs...), fargs...), extraArgs...), f.Limit, f.Offset)
	err := c.query(sql, args, func(st stmtRow) error {
		h := scanHit(st, IndexLike)
		h.Snippet = markTerms(h.Snippet, q)
		res.Hits = append(res.Hits, h)
		return nil
	})
	return res, err
}

func mergeHits(res SearchResult, more []Hit, limit int) SearchResult {
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

// markTerms wraps case-insensitive occurrences of the query's needles (its
// positive terms, a mixed-script one by its pieces) in the highlight markers.
func markTerms(text string, q parsedQuery) string {
	needles := q.export().Needles()
	if len(needles) == 0 || text == "" {
		return text
	}
	lower := []rune(strings.ToLower(text))
	orig := []rune(text)
	if len(lower) != len(orig) {
		lower = orig // case folding changed the length; match exactly
	}
	mark := make([]bool, len(orig))
	for _, n := range needles {
		nr := []rune(n)
		for i := 0; i+len(nr) <= len(lower); i++ {
			if runesEqual(lower[i:i+len(nr)], nr) {
				for k := i; k < i+len(nr); k++ {
					mark[k] = true
				}
			}
		}
	}
	var b strings.Builder
	on := false
	for i, r := range orig {
		if mark[i] != on {
			if mark[i] {
				b.WriteString(HighlightStart)
			} else {
				b.WriteString(HighlightEnd)
			}
			on = mark[i]
		}
		b.WriteRune(r)
	}
	if on {
		b.WriteString(HighlightEnd)
	}
	return trimSnippet(b.String())
}

func runesEqual(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// trimSnippet drops a broken first/last character left by cutting bytes.
func trimSnippet(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == utf8.RuneError })
	return s
}
