package recall

import (
	"fmt"
	"strings"
)

// MatchedText says how much of a plain query a result covers, "matched 3
// of 5 words", for the CLI and the TUI; "" when the query ran as FTS5
// syntax (every match then holds every term) or had a single word.
func MatchedText(matched, words []string) string {
	if len(words) < 2 {
		return ""
	}
	return fmt.Sprintf("matched %d of %d words", len(matched), len(words))
}

// QueryReading says in one line how a plain query was read: the words
// searched, the date it named and a replaced typo; "" for an FTS5-syntax
// query.
func QueryReading(d *Discovery) string {
	if len(d.Words) == 0 {
		return ""
	}
	parts := []string{"words: " + strings.Join(d.Words, " ")}
	if d.DateFilter != "" {
		parts = append(parts, "date: "+d.DateFilter)
	}
	if d.Suggestion != "" {
		parts = append(parts, d.Suggestion)
	}
	return strings.Join(parts, " · ")
}
