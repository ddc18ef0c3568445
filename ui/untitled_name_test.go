package ui

import (
	"testing"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TestSearchRowNamedByFirstPrompt: a search result for an untitled session
// is named in the list by its first prompt, as its browse row is, not
// "(untitled)".
func TestSearchRowNamedByFirstPrompt(t *testing.T) {
	d := &recall.Discovery{Results: []recall.Result{{SessionID: "a", MatchMessageID: 2,
		Messages: []store.Message{{ID: 1, Role: "user", Content: "Fix the flaky login test"}, {ID: 2, Role: "assistant", Content: "Done."}}}}}
	if got := rowTitle(searchItems(d)[0]); got != "Fix the flaky login test" {
		t.Errorf("row title %q, want the first prompt", got)
	}
}
