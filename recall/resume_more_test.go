package recall

import (
	"errors"
	"slices"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestResumeMore: the agents imported from their on-disk formats resume
// with their own command; the web chats and editors that have none say so
// instead of starting hermes (what an unknown source used to get).
func TestResumeMore(t *testing.T) {
	for _, tc := range []struct {
		source, id string
		args       []string
	}{
		{"crush", "7c1d0e52", []string{"crush", "--session", "7c1d0e52"}},
		{"chatgpt", "6751a3f0", nil},
		{"claude-ai", "1f0e2d3c", nil},
		{"cursor", "5a8e2c1d", nil},
		{"aider", "aider-de2703da-20250601T090000-1", nil},
		{"droid", "b1c2d3e4", []string{"droid", "--resume", "b1c2d3e4"}},
		{"amp", "T-019b9d03", []string{"amp", "threads", "continue", "T-019b9d03"}},
		{"goose", "20251108_1", []string{"goose", "session", "--resume", "--session-id", "20251108_1"}},
		{"cursor-agent", "3f2a9c4e", []string{"cursor-agent", "--resume", "3f2a9c4e"}},
		{"roo-code", "019a4a1e-3b2c", []string{"roo", "--session-id", "019a4a1e-3b2c"}},
		{"zed", "b4c0a9d2-6f1e", nil},
		{"gemini-apps", "3f9c2a7b1e0d4c55", nil},
		{"copilot-chat", "7c9e6679-7425", nil},
		{"warp", "6f1c2d3e-4a5b", nil},
		{"deepseek-harness", "session-5b7e", []string{"dsh", "--resume", "session-5b7e"}},
		{"devin", "puzzle-marigold", []string{"devin", "--resume", "puzzle-marigold"}},
		{"trae-cli", "019a4c10-2b3d", []string{"traecli", "resume", "019a4c10-2b3d"}},
		{"codebuddy", "f69eaebb-06df", []string{"codebuddy", "--resume", "f69eaebb-06df"}},
	} {
		r, err := PlanResume(store.Session{ID: tc.id, Source: tc.source})
		if tc.args == nil {
			if !errors.Is(err, ErrCannotResume) || r.Args != nil {
				t.Errorf("%s: %v, %v: want ErrCannotResume and no command", tc.source, r.Args, err)
			}
			continue
		}
		if err != nil || !slices.Equal(r.Args, tc.args) {
			t.Errorf("%s: %v, %v: want %v", tc.source, r.Args, err, tc.args)
		}
	}
}
