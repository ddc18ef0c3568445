package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// haystack is the text a LIKE scan reads: the same fields the FTS tables index.
const haystack = "(COALESCE(m.content, '') || ' ' || COALESCE(m.tool_name, '') || ' ' || COALESCE(m.tool_calls, ''))"

// likeSQL compiles the parsed query to a boolean of LIKE clauses with the
// same AND / OR / NOT structure (Hermes v21 ORed every token and lost it).
func likeSQL(q query.Parsed) (string, []any) {
	var b strings.Builder
	var args []any
	var prev query.TokKind = 255
	for _, t := range q.Toks {
		if t.Kind == query.TokCol {
			continue
		}
		if prev != 255 && query.OperandEnd(prev) && (query.OperandStart(t.Kind)) {
			b.WriteString(" AND ")
		}
		switch t.Kind {
		case query.TokTerm:
			b.WriteString(haystack + " LIKE ? ESCAPE '\\'")
			args = append(args, "%"+sqlutil.EscapeLike(t.Text)+"%")
		case query.TokNear:
			b.WriteString("(")
			for i, k := range t.Kids {
				if i > 0 {
					b.WriteString(" AND ")
				}
				b.WriteString(haystack + " LIKE ? ESCAPE '\\'")
				args = append(args, "%"+sqlutil.EscapeLike(k.Text)+"%")
			}
			b.WriteString(")")
		case query.TokAnd:
			b.WriteString(" AND ")
		case query.TokOr:
			b.WriteString(" OR ")
		case query.TokNot:
			b.WriteString(" AND NOT ")
		case query.TokLParen:
			b.WriteString("(")
		case query.TokRParen:
			b.WriteString(")")
		}
		prev = t.Kind
	}
	if b.Len() == 0 {
		return "0", nil
	}
	return "(" + b.String() + ")", args
}

// rowSet restricts a LIKE scan to some rows of messages m.
type rowSet struct {
	where   string // a condition on m; "" for every row
	args    []any
	indexed bool // an index answers where (an id range): the scan reads only those rows
}

// firstPhaseScanRows bounds a scan in the first phase: it reads only the
// newest this many messages (~20 ms here; a whole 200k-message Hermes file
// takes ~200 ms), so a keystroke on a file whose indexes cannot answer
// still paints at once; the final phase, when typing pauses, reads every
// row. Variable so tests can make it small.
var firstPhaseScanRows int64 = 20_000

// searchLike scans messages newest first and stops at the limit: the
// route's last resort, and (restricted to a few rows) how a gap in an
// index is filled. m is the query's IndexLike match. The cheap conditions
// come first: SQLite tests them in order, and the LIKE over a row's whole
// text is most of a scan's cost.
func (s *Store) searchLike(c *conn, q query.Parsed, m match, f SearchFilter, only rowSet) (SearchResult, error) {
	res := SearchResult{Index: IndexLike, Query: m.expr, Complete: true}
	filter, fargs := s.filterSQL(f)
	where, wargs := []string{}, append([]any{}, only.args...)
	if only.where != "" {
		where = append(where, only.where)
	}
	order := f.Sort.OrderBy()
	bounded := false
	if order == "" && f.Phase == PhaseFirst && !only.indexed {
		// Newest first, so the newest rows are where a first paint looks
		// (a time sort reads every row: the oldest may be what it wants).
		maxID, _, err := c.scalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
		if err != nil {
			return res, err
		}
		if from := maxID - firstPhaseScanRows; from > 0 {
			where, wargs = append(where, "m.id > ?"), append(wargs, from)
			bounded = true
		}
	}
	if order == "" {
		order = " ORDER BY m.id DESC"
	}
	where = append(where, filter, m.expr)
	sql := "SELECT " + s.hitColumns(m.snippet, "0") + " FROM messages m JOIN sessions s ON s.id = m.session_id WHERE " +
		strings.Join(where, " AND ") + order + " LIMIT ? OFFSET ?"
	args := append(append(append(append(append([]any{}, m.snipArg...), wargs...), fargs...), m.exprArgs...), f.Limit, f.Offset)
	err := c.query(sql, args, func(st stmtRow) error {
		h := scanHit(st, IndexLike)
		h.Snippet = markTerms(h.Snippet, q)
		res.Hits = append(res.Hits, h)
		return nil
	})
	if bounded && len(res.Hits) < f.Limit {
		res.Complete = false // older rows were not read
	}
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
func markTerms(text string, q query.Parsed) string {
	needles := q.Export().Needles()
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
