package analysis

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Unicode61Tokens splits s as FTS5's default tokenizer does (unicode61,
// remove_diacritics 1): runs of letters, numbers and private-use
// characters, case folded, Latin diacritics removed.
func Unicode61Tokens(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)) {
			if !unicode.Is(unicode.Mn, r) || b.Len() == 0 {
				flush()
			}
			continue
		}
		b.WriteString(foldRune(r, true))
	}
	flush()
	return out
}

// TrigramTokens splits s as tokenize='trigram' does: every run of three
// characters, case folded.
func TrigramTokens(s string) []string {
	rs := []rune(s)
	var out []string
	for i := 0; i+3 <= len(rs); i++ {
		var b strings.Builder
		for _, r := range rs[i : i+3] {
			b.WriteString(foldRune(r, false))
		}
		out = append(out, b.String())
	}
	return out
}

// foldRune lower-cases r and, for unicode61, strips a Latin diacritic.
func foldRune(r rune, diacritics bool) string {
	r = unicode.ToLower(r)
	if !diacritics || r < 0xc0 || !unicode.Is(unicode.Latin, r) {
		return string(r)
	}
	d := norm.NFD.String(string(r))
	base, n := utf8.DecodeRuneInString(d)
	if n == len(d) || !unicode.Is(unicode.Latin, base) {
		return string(r)
	}
	for _, m := range d[n:] {
		if !unicode.Is(unicode.Mn, m) {
			return string(r)
		}
	}
	return string(base)
}

// Tokens are the lower-cased words of text as the matcher reads them.
func Tokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}
