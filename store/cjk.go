package store

import (
	"strings"
	"unicode"
)

// isCJK reports the code points Hermes routes to its CJK paths (spec §6.3):
// CJK unified ideographs and extensions A/B, Hiragana, Katakana, Hangul
// syllables. CJK punctuation (U+3000-303F) is a separator, not a term.
func isCJK(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF, r >= 0x20000 && r <= 0x2A6DF,
		r >= 0x3040 && r <= 0x309F, r >= 0x30A0 && r <= 0x30FF, r >= 0xAC00 && r <= 0xD7AF:
		return true
	}
	return false
}

// hasCJK reports whether s contains a CJK character.
func hasCJK(s string) bool {
	for _, r := range s {
		if isCJK(r) {
			return true
		}
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// cjkGrams produces the text indexed in recall_fts_cjk for one message: for
// every CJK run its bigrams and its last character (so a 1-character query
// is the prefix query "X"*, and a longer one the phrase of its bigrams), and
// the Latin/digit pieces of runs that mix scripts (修改youer服务端 is one
// unicode61 token; its piece "youer" is findable here). Text without CJK
// yields "".
func cjkGrams(s string) string {
	if !hasCJK(s) {
		return ""
	}
	var b strings.Builder
	emit := func(tok string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	runs := wordRuns(s)
	for _, run := range runs {
		mixed := hasCJK(run)
		if !mixed {
			continue // pure Latin words are unicode61's job
		}
		for _, p := range scriptPieces(run) {
			if !p.cjk {
				emit(strings.ToLower(p.text))
				continue
			}
			rs := []rune(p.text)
			for i := 0; i+1 < len(rs); i++ {
				emit(string(rs[i : i+2]))
			}
			emit(string(rs[len(rs)-1]))
		}
	}
	return b.String()
}

// wordRuns splits s into maximal runs of letters, digits and underscores.
func wordRuns(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !isWordRune(r) })
}

type piece struct {
	text string
	cjk  bool
}

// scriptPieces splits a word run into alternating CJK and non-CJK pieces.
func scriptPieces(run string) []piece {
	var out []piece
	start := 0
	var cur bool
	first := true
	for i, r := range run {
		c := isCJK(r)
		if first {
			cur, first = c, false
			continue
		}
		if c != cur {
			out = append(out, piece{run[start:i], cur})
			start, cur = i, c
		}
	}
	if start < len(run) {
		out = append(out, piece{run[start:], cur})
	}
	return out
}

// cjkTermExpr turns one query term (a word run that contains CJK) into an
// FTS5 expression over recall_fts_cjk: each CJK piece becomes the phrase of
// its bigrams, or a prefix query for a single character; Latin pieces are
// plain terms; pieces are ANDed.
func cjkTermExpr(term string) string {
	var parts []string
	for _, p := range scriptPieces(term) {
		if !p.cjk {
			parts = append(parts, quoteFTS(strings.ToLower(p.text)))
			continue
		}
		rs := []rune(p.text)
		if len(rs) == 1 {
			parts = append(parts, quoteFTS(p.text)+"*")
			continue
		}
		grams := make([]string, 0, len(rs)-1)
		for i := 0; i+1 < len(rs); i++ {
			grams = append(grams, string(rs[i:i+2]))
		}
		parts = append(parts, quoteFTS(strings.Join(grams, " ")))
	}
	return strings.Join(parts, " AND ")
}

// quoteFTS makes s one FTS5 string (a term or phrase), escaping quotes.
func quoteFTS(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// drainCJK indexes the rows the triggers queued in recall_cjk_pending.
func drainCJK(c *conn) error {
	type row struct {
		id   int64
		text string
	}
	var rows []row
	err := c.query(`SELECT p.id, `+indexTextSQL("m")+`
		FROM recall_cjk_pending p JOIN messages m ON m.id = p.id`, nil, func(st stmtRow) error {
		rows = append(rows, row{st.ColumnInt64(0), st.ColumnText(1)})
		return nil
	})
	if err != nil || len(rows) == 0 {
		return err
	}
	for _, r := range rows {
		if g := cjkGrams(r.text); g != "" {
			if err := c.run("INSERT OR REPLACE INTO recall_fts_cjk(rowid, grams) VALUES (?, ?)", r.id, g); err != nil {
				return err
			}
		}
	}
	return c.run("DELETE FROM recall_cjk_pending")
}
