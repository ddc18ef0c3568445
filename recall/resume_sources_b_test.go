package recall

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestResumeSourcesB: each agent's own resume command; a sub-agent run,
// whose id recall made, resumes its parent session.
func TestResumeSourcesB(t *testing.T) {
	for _, tc := range []struct {
		sess store.Session
		args []string
		note string
	}{
		{store.Session{ID: "session_1", Source: "kimi-code"}, []string{"kimi", "--session", "session_1"}, ""},
		{store.Session{ID: "session_1-agent-0", ParentID: "session_1", Source: "kimi-code", ModelConfig: `{"_delegate_from":"session_1"}`},
			[]string{"kimi", "--session", "session_1"}, "Kimi Code sub-agent run"},
		{store.Session{ID: "3f9a1c2e", Source: "mistral-vibe"}, []string{"vibe", "--resume", "3f9a1c2e"}, ""},
		{store.Session{ID: "7b2d4e6f", ParentID: "3f9a1c2e", Source: "mistral-vibe", ModelConfig: `{"_delegate_from":"3f9a1c2e"}`},
			[]string{"vibe", "--resume", "3f9a1c2e"}, "Mistral Vibe sub-agent run"},
		{store.Session{ID: "a1b2c3d4", ParentID: "3f9a1c2e", Source: "mistral-vibe"}, []string{"vibe", "--resume", "a1b2c3d4"}, ""},
		{store.Session{ID: "8f1c2d3e", Source: "openhands"}, []string{"openhands", "--resume", "8f1c2d3e"}, ""},
		{store.Session{ID: "5e6f7a8b", ParentID: "8f1c2d3e", Source: "openhands", ModelConfig: `{"_delegate_from":"8f1c2d3e"}`},
			[]string{"openhands", "--resume", "8f1c2d3e"}, "OpenHands sub-agent run"},
		{store.Session{ID: "019f6a00", Source: "grok-build"}, []string{"grok", "--resume", "019f6a00"}, ""},
		{store.Session{ID: "5f0c3a1e", Source: "amazon-q"}, []string{"q", "chat", "--resume"}, ""},
		{store.Session{ID: "c1d2e3f4", Source: "kiro"}, []string{"kiro-cli", "chat", "--resume-id", "c1d2e3f4"}, ""},
		{store.Session{ID: "session-260301-090000-a1b2", Source: "junie"}, nil, ""},
		{store.Session{ID: "0f3e6c1a-5b7d-4e2a-9c8b-1d2e3f4a5b6c", Source: "antigravity"}, []string{"agy", "--conversation", "0f3e6c1a-5b7d-4e2a-9c8b-1d2e3f4a5b6c"}, ""},
		{store.Session{ID: "9a8b7c6d-0000-4e2a-9c8b-1d2e3f4a5b6c", ParentID: "0f3e6c1a-5b7d-4e2a-9c8b-1d2e3f4a5b6c", Source: "antigravity", ModelConfig: `{"_delegate_from":"0f3e6c1a-5b7d-4e2a-9c8b-1d2e3f4a5b6c"}`},
			[]string{"agy", "--conversation", "0f3e6c1a-5b7d-4e2a-9c8b-1d2e3f4a5b6c"}, "Antigravity sub-agent run"},
	} {
		r, err := PlanResume(tc.sess)
		if tc.args == nil {
			if !errors.Is(err, ErrCannotResume) {
				t.Errorf("%s: %v, %v; want ErrCannotResume", tc.sess.ID, r.Args, err)
			}
			continue
		}
		if err != nil || !slices.Equal(r.Args, tc.args) {
			t.Errorf("%s: %v, %v; want %v", tc.sess.ID, r.Args, err, tc.args)
		}
		if tc.note != "" && (len(r.Notes) != 1 || !strings.Contains(r.Notes[0], tc.note)) {
			t.Errorf("%s: notes %q", tc.sess.ID, r.Notes)
		}
	}
}
