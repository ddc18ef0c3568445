package plan

import (
	"strings"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/highlight"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// CJKExpressible: the bigram index answers queries whose leaves all contain
// CJK (any operators), or plain ANDs mixing CJK and Latin terms (the Latin
// ones are checked against messages_fts).
func CJKExpressible(q query.Parsed) bool {
	allCJK := true
	for _, t := range q.Terms() {
		if !analysis.HasCJK(t.Text) {
			allCJK = false
		}
	}
	return allCJK || q.Conjunctive()
}

// Match is how one index is asked one query: the table and its MATCH
// expression (or, for IndexLike, the LIKE clause), and how to snippet.
type Match struct {
	Index       engine.Index
	Table       string // "" for IndexLike
	Expr        string // MATCH expression, or the LIKE clause
	ExprArgs    []any  // the LIKE clause's arguments
	Latin       string // the Latin half of a mixed CJK query, checked by LIKE on each candidate row
	LatinArgs   []any
	Snippet     string // SQL expression for the snippet column
	SnippetArgs []any  // its bound arguments (instr needle)
	GoMark      bool   // snippet is plain text: mark the terms in Go
	// latinTerms are the Latin half's terms, which full ranking reads from
	// the Latin indexes instead (postings/mixed.go).
	LatinTerms []query.Tok
}

// For builds the expression index answers q with, on the database l describes.
func For(q query.Parsed, index engine.Index, l engine.Layout) Match {
	switch index {
	case engine.IndexLike:
		cond, args := likeSQL(q)
		m := Match{Index: index, Expr: cond, ExprArgs: args, GoMark: true}
		m.Snippet, m.SnippetArgs = highlight.LikeSQL(firstCJKPiece(firstText(q)))
		return m
	case engine.IndexTrigram:
		expr := q.Render(func(t query.Tok) string {
			t.Prefix = false // a trigram match is already a substring match
			return query.FTSTerm(t)
		})
		return Match{Index: index, Table: "messages_fts_trigram", Expr: expr,
			Snippet: highlight.FTSSQL("messages_fts_trigram", l.SnippetCol(), 48)}
	case engine.IndexCJK:
		p := Match{Index: index, Table: "recall_fts_cjk", GoMark: true}
		needle := ""
		if q.Conjunctive() {
			var cjkParts, latinParts []string
			for _, t := range q.Terms() {
				if analysis.HasCJK(t.Text) {
					cjkParts = append(cjkParts, "("+cjkTermExpr(t.Text)+")")
					if needle == "" {
						needle = firstCJKPiece(t.Text)
					}
				} else {
					latinParts = append(latinParts, engine.Haystack+" LIKE ? ESCAPE '\\'")
					p.LatinArgs = append(p.LatinArgs, "%"+sqlutil.EscapeLike(t.Text)+"%")
					p.LatinTerms = append(p.LatinTerms, t)
				}
			}
			if len(cjkParts) == 0 {
				// A Latin-only query retried here: Latin pieces of mixed runs are lowercased terms.
				p.Expr = q.Render(func(t query.Tok) string { t.Text = strings.ToLower(t.Text); return query.FTSTerm(t) })
				needle = firstText(q)
			} else {
				p.Expr = strings.Join(cjkParts, " AND ")
				p.Latin = strings.Join(latinParts, " AND ")
			}
		} else {
			p.Expr = renderCJK(q)
			needle = firstCJKPiece(firstText(q))
		}
		p.Snippet, p.SnippetArgs = highlight.LikeSQL(needle)
		return p
	}
	return Match{Index: engine.IndexUnicode61, Table: "messages_fts", Expr: q.Render(query.FTSTerm),
		Snippet: highlight.FTSSQL("messages_fts", l.SnippetCol(), 16)}
}

// renderCJK renders an all-CJK query with operators for recall_fts_cjk; NEAR
// becomes AND, because a CJK term there is itself an expression.
func renderCJK(q query.Parsed) string {
	var toks []query.Tok
	for _, t := range q.Toks {
		if t.Kind == query.TokNear {
			toks = append(toks, query.Tok{Kind: query.TokLParen})
			for i, k := range t.Kids {
				if i > 0 {
					toks = append(toks, query.Tok{Kind: query.TokAnd})
				}
				toks = append(toks, k)
			}
			toks = append(toks, query.Tok{Kind: query.TokRParen})
			continue
		}
		if t.Kind == query.TokCol {
			continue
		}
		toks = append(toks, t)
	}
	return query.Parsed{Toks: toks}.Render(func(t query.Tok) string { return "(" + cjkTermExpr(t.Text) + ")" })
}

func firstText(q query.Parsed) string {
	if ts := q.PositiveTerms(); len(ts) > 0 {
		return ts[0].Text
	}
	return ""
}

func firstCJKPiece(s string) string {
	for _, p := range analysis.Pieces(s) {
		if p.CJK {
			return p.Text
		}
	}
	return s
}

// cjkTermExpr turns one query term (a word run that contains CJK) into an
// FTS5 expression over recall_fts_cjk: each CJK piece becomes the phrase of
// its bigrams, or a prefix query for a single character; Latin pieces are
// plain terms; pieces are ANDed.
func cjkTermExpr(term string) string {
	var parts []string
	for _, p := range analysis.Pieces(term) {
		if !p.CJK {
			parts = append(parts, query.QuoteFTS(strings.ToLower(p.Text)))
			continue
		}
		rs := []rune(p.Text)
		if len(rs) == 1 {
			parts = append(parts, query.QuoteFTS(p.Text)+"*")
			continue
		}
		grams := make([]string, 0, len(rs)-1)
		for i := 0; i+1 < len(rs); i++ {
			grams = append(grams, string(rs[i:i+2]))
		}
		parts = append(parts, query.QuoteFTS(strings.Join(grams, " ")))
	}
	return strings.Join(parts, " AND ")
}

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
			b.WriteString(engine.Haystack + " LIKE ? ESCAPE '\\'")
			args = append(args, "%"+sqlutil.EscapeLike(t.Text)+"%")
		case query.TokNear:
			b.WriteString("(")
			for i, k := range t.Kids {
				if i > 0 {
					b.WriteString(" AND ")
				}
				b.WriteString(engine.Haystack + " LIKE ? ESCAPE '\\'")
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

// RowSet restricts a LIKE scan to some rows of messages m.
type RowSet struct {
	Where   string // a condition on m; "" for every row
	Args    []any
	Indexed bool // an index answers where (an id range): the scan reads only those rows
}
