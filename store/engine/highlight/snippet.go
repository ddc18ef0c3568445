package highlight

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Snippet cuts about 160 characters around the first matched term and
// marks every term, like snippet() does for the FTS paths.
func Snippet(text string, q query.Parsed) string {
	lower := strings.ToLower(text)
	pos := -1
	for _, t := range q.PositiveTerms() {
		for _, p := range analysis.Pieces(strings.ToLower(t.Text)) {
			if i := strings.Index(lower, p.Text); i >= 0 && (pos < 0 || i < pos) {
				pos = i
			}
		}
	}
	rs := []rune(text)
	start := 0
	if pos > 0 && len(lower) == len(text) {
		start = utf8.RuneCountInString(text[:pos]) - 50
	}
	if start < 0 {
		start = 0
	}
	end := start + 160
	if end > len(rs) {
		end = len(rs)
	}
	s := string(rs[start:end])
	if start > 0 {
		s = "…" + s
	}
	if end < len(rs) {
		s += "…"
	}
	return Mark(strings.Join(strings.Fields(s), " "), q)
}

// FTSSQL is the SQL of FTS5's snippet() of table's column col (-1: the
// best column), tokens long, marked with the highlight markers.
func FTSSQL(table string, col, tokens int) string {
	return fmt.Sprintf("snippet(%s, %d, '%s', '%s', '…', %d)", table, col, engine.HighlightStart, engine.HighlightEnd, tokens)
}

// LikeSQL is the SQL (and its arguments) that cuts ~160 characters of a
// message m around the first occurrence of needle.
func LikeSQL(needle string) (string, []any) {
	if needle == "" {
		return "substr(COALESCE(m.content, ''), 1, 160)", nil
	}
	return "substr(COALESCE(m.content, ''), max(1, instr(COALESCE(m.content, ''), ?) - 50), 160)", []any{needle}
}

// TextMax bounds the text a Go snippet reads of one row (a tool output may
// hold 30 MB).
const TextMax = 65536

// snippetsByIndexMax is the most rows whose snippet the index's own
// snippet() makes: each is a MATCH evaluated again for one rowid (a
// doclist seek per phrase, more for a prefix or an OR), which a page of a
// few dozen rows pays gladly and Discover's 300 hits do not.
const snippetsByIndexMax = 24

// Source is where FTS5's snippet() makes a row's snippet: the table, the
// MATCH expression the rows matched, and the snippet column's SQL and
// arguments (FTSSQL, LikeSQL).
type Source struct {
	Table, Expr, SQL string
	Args             []any
}

// Rows fills the hits' snippets: every hit's, or with sessions each
// session's first (the others are counted, not shown). A few rows get the
// index's snippet() from src, which marks what matched (a typed prefix its
// whole word) and reads no text beyond its window; more rows, and with
// inGo (a prefix no prefix index holds, the CJK and LIKE paths) every row,
// are snippeted in Go from each row's first TextMax characters.
func Rows(c engine.Conn, q query.Parsed, sessions bool, src Source, inGo bool, hits []engine.Hit) error {
	var want []any
	at := map[int64]int{}
	seen := map[string]bool{}
	for i, h := range hits {
		if sessions {
			if seen[h.SessionID] {
				continue
			}
			seen[h.SessionID] = true
		}
		want = append(want, h.MessageID)
		at[h.MessageID] = i
	}
	if len(want) == 0 {
		return nil
	}
	if len(want) <= snippetsByIndexMax && !inGo {
		args := append(append(append([]any{}, src.Args...), src.Expr), want...)
		return c.Query("SELECT "+src.Table+".rowid, "+src.SQL+" FROM "+src.Table+" WHERE "+src.Table+" MATCH ? AND "+src.Table+".rowid IN ("+sqlutil.Placeholders(len(want))+")",
			args, func(st *sqlite3.Stmt) error {
				if i, ok := at[st.ColumnInt64(0)]; ok {
					hits[i].Snippet = strings.TrimSpace(st.ColumnText(1))
				}
				return nil
			})
	}
	return Texts(c, want, func(id int64, text string) {
		if i, ok := at[id]; ok {
			hits[i].Snippet = Snippet(text, q)
		}
	})
}

// Texts reads the searchable text of the messages ids, the first
// TextMax characters of each, for snippets made in Go.
func Texts(c engine.Conn, ids []any, fn func(id int64, text string)) error {
	if len(ids) == 0 {
		return nil
	}
	sql := fmt.Sprintf("SELECT m.id, substr(%s, 1, %d) FROM messages m WHERE m.id IN (%s)", engine.Haystack, TextMax, sqlutil.Placeholders(len(ids)))
	return c.Query(sql, ids, func(st *sqlite3.Stmt) error {
		fn(st.ColumnInt64(0), analysis.DecodeContent(st.ColumnText(1)))
		return nil
	})
}
