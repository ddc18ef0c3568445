package recall

import (
	"slices"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestResumeNpmAgents checks the resume commands of the npm-installed
// agents against their --help: opencode and kilo take --session ID, pi and
// omp --session ID (a branch reopens its file), cn continues a chosen
// session only as --fork ID.
func TestResumeNpmAgents(t *testing.T) {
	for _, tc := range []struct {
		sess store.Session
		args []string
	}{
		{store.Session{ID: "ses_1", Source: "opencode"}, []string{"opencode", "--session", "ses_1"}},
		{store.Session{ID: "ses_2", Source: "kilo"}, []string{"kilo", "--session", "ses_2"}},
		{store.Session{ID: "0a-1", Source: "pi"}, []string{"pi", "--session", "0a-1"}},
		{store.Session{ID: "0a-1@8b05e696", ParentID: "0a-1", Source: "pi"}, []string{"pi", "--session", "0a-1"}},
		{store.Session{ID: "0b-2", Source: "omp"}, []string{"omp", "--session", "0b-2"}},
		{store.Session{ID: "c-3", Source: "continue-cli"}, []string{"cn", "--fork", "c-3"}},
	} {
		r, err := PlanResume(tc.sess)
		if err != nil || !slices.Equal(r.Args, tc.args) {
			t.Errorf("%s %s: %v, %v; want %v", tc.sess.Source, tc.sess.ID, r.Args, err, tc.args)
		}
	}
}

// TestResumeAgentsA: auggie --resume ID (auggie --help 0.36.0), qodercli
// --resume ID (qodercli --help 1.1.52), a Qoder sub-agent run through its
// parent, grok --session ID (grok-dev's src/index.ts), openclaw tui --local
// --session KEY (openclaw tui --help 2026.9.6) with the key recall kept.
func TestResumeAgentsA(t *testing.T) {
	for _, tc := range []struct {
		sess store.Session
		args []string
	}{
		{store.Session{ID: "f4b71e99", Source: "auggie"}, []string{"auggie", "--resume", "f4b71e99"}},
		{store.Session{ID: "6f1c2d3e", Source: "qoder"}, []string{"qodercli", "--resume", "6f1c2d3e"}},
		{store.Session{ID: "6f1c2d3e-agent-a7", ParentID: "6f1c2d3e", Source: "qoder", ModelConfig: `{"_delegate_from":"6f1c2d3e"}`},
			[]string{"qodercli", "--resume", "6f1c2d3e"}},
		{store.Session{ID: "3b9e7f10", Source: "grok-cli"}, []string{"grok", "--session", "3b9e7f10"}},
		{store.Session{ID: "oc-qa", Source: "openclaw", ModelConfig: `{"session_key":"agent:main:explicit:oc-qa"}`},
			[]string{"openclaw", "tui", "--local", "--session", "agent:main:explicit:oc-qa"}},
	} {
		r, err := PlanResume(tc.sess)
		if err != nil || !slices.Equal(r.Args, tc.args) {
			t.Errorf("%s %s: %v, %v; want %v", tc.sess.Source, tc.sess.ID, r.Args, err, tc.args)
		}
	}
}
