// Package highlight makes a listed row's snippet: it takes the row's text
// (or asks FTS5's snippet() for it) and the parsed query, and gives about
// 160 characters around the first match with every matched term wrapped
// in engine.HighlightStart and engine.HighlightEnd.
package highlight

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/query"
)

// Mark wraps case-insensitive occurrences of the query's needles (its
// positive terms, a mixed-script one by its pieces) in the highlight markers.
func Mark(text string, q query.Parsed) string {
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
				b.WriteString(engine.HighlightStart)
			} else {
				b.WriteString(engine.HighlightEnd)
			}
			on = mark[i]
		}
		b.WriteRune(r)
	}
	if on {
		b.WriteString(engine.HighlightEnd)
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
