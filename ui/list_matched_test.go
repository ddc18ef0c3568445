package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
)

// A search row says how many of a plain query's words its session holds,
// in the words `recall search` prints ("matched 2 of 3 words"); a one-word
// or FTS5-syntax query says nothing.
func TestSearchRowSaysMatchedWords(t *testing.T) {
	for _, tc := range []struct {
		name    string
		words   []string
		matched []string
		want    string
	}{
		{"some words", []string{"docker", "network", "error"}, []string{"docker", "network"}, "matched 2 of 3 words"},
		{"all words", []string{"docker", "network"}, []string{"docker", "network"}, "matched 2 of 2 words"},
		{"one word", []string{"docker"}, []string{"docker"}, ""},
		{"fts5 syntax", nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &recall.Discovery{Words: tc.words, Results: []recall.Result{{SessionID: "a", Title: "Docker", Source: "codex", Hits: 2, Matched: tc.matched}}}
			l := listView{styles: newStyles(true), now: func() time.Time { return time.Unix(0, 0) }, width: 100, height: 10}
			l.SetItems(searchItems(d))
			view := l.View()
			if tc.want != "" && !strings.Contains(view, tc.want) {
				t.Errorf("row does not say %q:\n%s", tc.want, view)
			}
			if tc.want == "" && strings.Contains(view, "matched") {
				t.Errorf("row says matched for %v:\n%s", tc.words, view)
			}
		})
	}
}
