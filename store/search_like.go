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

// searchLike is the last resort: a scan newest first that stops at the
// limit. extra restricts it to a few rows (the supplements below).
func (s *Store) searchLike(c *conn, q parsedQuery, f SearchFilter, extra string, extraArgs ...any) (SearchResult, error) {
	res := SearchResult{Index: IndexLike, Complete: true}
	cond, cargs := likeSQL(q)
	res.Query = cond
	filter, fargs := s.filterSQL(f)
	snip, sargs := likeSnippet(firstCJKPiece(firstText(q)))
	order := f.Sort.orderBy()
	if order == "" {
		order = " ORDER BY m.id DESC"
	}
	sql := "SELECT " + s.hitColumns(snip, "0") + " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE " +
		cond + " AND " + filter + extra + order + " LIMIT ? OFFSET ?"
	args := append(append(append(append(sargs, cargs...), fargs...), extraArgs...), f.Limit, f.Offset)
	err := c.query(sql, args, func(st stmtRow) error {
		h := scanHit(st, IndexLike)
		h.Snippet = markTerms(h.Snippet, q)
		res.Hits = append(res.Hits, h)
		return nil
	})
	return res, err
}

// supplementUnindexed adds rows a Hermes deferred rebuild has not indexed yet
// (ids in (progress, high_water]), found by LIKE over just that range.
func (s *Store) supplementUnindexed(c *conn, q parsedQuery, f SearchFilter, res SearchResult, err error) (SearchResult, error) {
	if err != nil || s.layout.unindexedTo == 0 || len(res.Hits) >= f.Limit {
		return res, err
	}
	more, err := s.searchLike(c, q, f, " AND m.id > ? AND m.id <= ?", s.layout.unindexedFrom, s.layout.unindexedTo)
	if err != nil {
		return res, err
	}
	return mergeHits(res, more.Hits, f.Limit), nil
}

// supplementPendingCJK adds rows written by a plain-SQLite writer whose CJK
// grams recall has not computed yet (recall_cjk_pending).
func (s *Store) supplementPendingCJK(c *conn, q parsedQuery, f SearchFilter, res SearchResult) (SearchResult, error) {
	if len(res.Hits) >= f.Limit {
		return res, nil
	}
	if _, any, err := c.scalarInt("SELECT 1 FROM recall_cjk_pending LIMIT 1"); err != nil || !any {
		return res, err
	}
	more, err := s.searchLike(c, q, f, " AND m.id IN (SELECT id FROM recall_cjk_pending)")
	if err != nil {
		return res, err
	}
	return mergeHits(res, more.Hits, f.Limit), nil
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

// markTerms wraps case-insensitive occurrences of the query's positive terms
// (and of a CJK term's pieces) in the highlight markers.
func markTerms(text string, q parsedQuery) string {
	var needles []string
	for _, t := range q.positiveTerms() {
		for _, p := range scriptPieces(t.text) {
			if p.text != "" {
				needles = append(needles, strings.ToLower(p.text))
			}
		}
	}
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
