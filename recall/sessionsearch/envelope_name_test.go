package sessionsearch

import (
	"testing"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TestUntitledNamedByFirstPrompt: an MCP result or browse item for a
// session without a title (a Codex thread never named) carries its first
// prompt as its title, the name `recall recent` and the TUI give it, not
// null; a titled one keeps its title.
func TestUntitledNamedByFirstPrompt(t *testing.T) {
	prompt := store.Message{ID: 1, Role: "user", Content: "Fix the flaky login test"}
	d := &recall.Discovery{Results: []recall.Result{
		{SessionID: "a", Messages: []store.Message{prompt, {ID: 2, Role: "assistant", Content: "Done."}}, MatchMessageID: 2},
		{SessionID: "b", Title: "Login test", Messages: []store.Message{prompt}, MatchMessageID: 1},
	}}
	env := discoverEnvelope(d, nil)
	for i, want := range []string{"Fix the flaky login test", "Login test"} {
		if got := env.Results[i].Title; got == nil || *got != want {
			t.Errorf("result %d: title %v, want %q", i, got, want)
		}
	}
	b := browseEnvelope([]store.SessionSummary{{Session: store.Session{ID: "a"}, Preview: "Fix the flaky login test"}})
	if got := b.Results[0].Title; got == nil || *got != "Fix the flaky login test" {
		t.Errorf("browse title %v, want the preview", got)
	}
}
