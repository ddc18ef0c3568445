// Package analysis is how text becomes terms, shared by what writes the
// indexes and what reads them: which characters are CJK, the word runs and
// single-script pieces a query and a message are split into, the CJK grams
// recall_fts_cjk indexes, FTS5's own unicode61 and trigram tokenizers as
// full ranking reads the index with them, and the text of a stored content
// value. It takes strings and gives strings; it knows no database.
package analysis

import (
	"strings"
	"unicode"
)

// IsCJK reports the code points Hermes routes to its CJK paths (spec §6.3):
// CJK unified ideographs and extensions A/B, Hiragana, Katakana, Hangul
// syllables. CJK punctuation (U+3000-303F) is a separator, not a term.
func IsCJK(r rune) bool {
	switch {
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF, r >= 0x20000 && r <= 0x2A6DF,
		r >= 0x3040 && r <= 0x309F, r >= 0x30A0 && r <= 0x30FF, r >= 0xAC00 && r <= 0xD7AF:
		return true
	}
	return false
}

// HasCJK reports whether s contains a CJK character.
func HasCJK(s string) bool {
	for _, r := range s {
		if IsCJK(r) {
			return true
		}
	}
	return false
}

// CJKCount is how many CJK characters s holds.
func CJKCount(s string) int {
	n := 0
	for _, r := range s {
		if IsCJK(r) {
			n++
		}
	}
	return n
}

// IsWordRune is a character of a word run: a letter, a number or '_'.
func IsWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// CJKGrams produces the text indexed in recall_fts_cjk for one message: for
// every CJK run its bigrams and its last character (so a 1-character query
// is the prefix query "X"*, and a longer one the phrase of its bigrams), and
// the Latin/digit pieces of runs that mix scripts (修改youer服务端 is one
// unicode61 token; its piece "youer" is findable here). Text without CJK
// yields "".
func CJKGrams(s string) string {
	if !HasCJK(s) {
		return ""
	}
	var b strings.Builder
	emit := func(tok string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
	}
	runs := WordRuns(s)
	for _, run := range runs {
		mixed := HasCJK(run)
		if !mixed {
			continue // pure Latin words are unicode61's job
		}
		for _, p := range Pieces(run) {
			if !p.CJK {
				emit(strings.ToLower(p.Text))
				continue
			}
			rs := []rune(p.Text)
			for i := 0; i+1 < len(rs); i++ {
				emit(string(rs[i : i+2]))
			}
			emit(string(rs[len(rs)-1]))
		}
	}
	return b.String()
}

// WordRuns splits s into maximal runs of letters, digits and underscores.
func WordRuns(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !IsWordRune(r) })
}

// Piece is a single-script part of a word run.
type Piece struct {
	Text string
	CJK  bool
}

// Pieces splits a word run into alternating CJK and non-CJK pieces.
func Pieces(run string) []Piece {
	var out []Piece
	start := 0
	var cur bool
	first := true
	for i, r := range run {
		c := IsCJK(r)
		if first {
			cur, first = c, false
			continue
		}
		if c != cur {
			out = append(out, Piece{run[start:i], cur})
			start, cur = i, c
		}
	}
	if start < len(run) {
		out = append(out, Piece{run[start:], cur})
	}
	return out
}
