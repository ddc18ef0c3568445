package recall

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

func TestPlanResume(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		sess  store.Session
		args  []string
		dir   string
		notes []string // substrings, one per note
		err   error
	}{
		"claude in its directory": {sess: store.Session{ID: "abc", Source: "claude-code", Cwd: dir},
			args: []string{"claude", "--resume", "abc"}, dir: dir},
		"claude sub-agent resumes the parent": {sess: store.Session{ID: "abc-agent-x1", ParentID: "abc", Source: "claude-code", Cwd: dir},
			args: []string{"claude", "--resume", "abc"}, dir: dir, notes: []string{"sub-agent run"}},
		"claude in a deleted directory": {sess: store.Session{ID: "abc", Source: "claude-code", Cwd: gone},
			args: []string{"claude", "--resume", "abc"}, dir: gone, err: ErrCannotResume},
		"codex in a deleted directory": {sess: store.Session{ID: "c1", Source: "codex", Cwd: gone},
			args: []string{"codex", "resume", "c1"}, notes: []string{gone + " no longer exists"}},
		"hermes whose cwd is a file": {sess: store.Session{ID: "h1", Source: "telegram", Cwd: file},
			args: []string{"hermes", "--resume", "h1"}, notes: []string{"is not a directory"}},
		"hermes child sessions resume as themselves": {sess: store.Session{ID: "h2", ParentID: "h1", Source: "cli"},
			args: []string{"hermes", "--resume", "h2"}},
		// Issue 32: `resume --print` of a session imported from a JSONL file
		// that named no agent printed `hermes --resume sec-1`.
		"a jsonl file's session has no agent": {sess: store.Session{ID: "sec-1", Source: "jsonl"}, err: ErrCannotResume},
		"source prefix stripped": {sess: store.Session{ID: "gemini-cli:g1", Source: "gemini-cli"},
			args: []string{"gemini", "--resume", "g1"}},
		// Stored under a qualified id (Qwen Code's session had the id first):
		// the agent knows it by its own.
		"qualified id resumes by the own id": {sess: store.Session{ID: "11111111-aa@copilot-cli", NativeID: "11111111-aa", Source: "copilot-cli"},
			args: []string{"copilot", "--resume=11111111-aa"}},
		"qualified id without its own id read": {sess: store.Session{ID: "11111111-aa@copilot-cli~2", Source: "copilot-cli"},
			args: []string{"copilot", "--resume=11111111-aa"}},
		"qualified parent of a claude sub-agent": {sess: store.Session{ID: "p-agent-x@claude-code", NativeID: "p-agent-x", ParentID: "p@claude-code", Source: "claude-code", Cwd: dir},
			args: []string{"claude", "--resume", "p"}, dir: dir, notes: []string{"sub-agent run"}},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := PlanResume(tc.sess)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if !slices.Equal(r.Args, tc.args) || r.Dir != tc.dir || len(r.Notes) != len(tc.notes) {
				t.Fatalf("plan %+v", r)
			}
			for i, n := range tc.notes {
				if !strings.Contains(r.Notes[i], n) {
					t.Errorf("note %q lacks %q", r.Notes[i], n)
				}
			}
		})
	}
	// ResumeCommand (the TUI's) takes the same plan.
	t.Setenv("PATH", t.TempDir())
	if _, err := ResumeCommand(store.Session{ID: "a-agent-b", ParentID: "a", Source: "claude-code"}); !errors.Is(err, ErrNoAgent) ||
		!strings.Contains(err.Error(), "claude --resume a") || strings.Contains(err.Error(), "a-agent-b") {
		t.Errorf("ResumeCommand: %v", err)
	}
}
