package recall

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestPlanResumeQwenCopilotCline: the commands are the ones each agent's
// --help documents (qwen 0.24.4 -r/--resume ID, copilot 1.0.102
// -r/--resume [ID], cline 3.0.65 --id ID).
func TestPlanResumeQwenCopilotCline(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone")
	for name, tc := range map[string]struct {
		sess  store.Session
		args  []string
		dir   string
		notes []string
		err   error
	}{
		"qwen in its directory": {sess: store.Session{ID: "q1", Source: "qwen-code", Cwd: dir},
			args: []string{"qwen", "--resume", "q1"}, dir: dir},
		"qwen sub-agent resumes the parent": {sess: store.Session{ID: "q1-agent-x", ParentID: "q1", Source: "qwen-code", Cwd: dir, ModelConfig: `{"_delegate_from":"q1"}`},
			args: []string{"qwen", "--resume", "q1"}, dir: dir, notes: []string{"Qwen Code sub-agent run"}},
		"qwen fork resumes itself": {sess: store.Session{ID: "q2", ParentID: "q1", Source: "qwen-code", Cwd: dir},
			args: []string{"qwen", "--resume", "q2"}, dir: dir},
		"qwen in a deleted directory": {sess: store.Session{ID: "q1", Source: "qwen-code", Cwd: gone},
			args: []string{"qwen", "--resume", "q1"}, dir: gone, err: ErrCannotResume},
		"copilot": {sess: store.Session{ID: "c1", Source: "copilot-cli", Cwd: gone},
			args: []string{"copilot", "--resume=c1"}, notes: []string{"no longer exists"}},
		"cline": {sess: store.Session{ID: "k1", Source: "cline", Cwd: dir},
			args: []string{"cline", "--id", "k1"}, dir: dir},
		"cline sub-agent resumes the parent": {sess: store.Session{ID: "k1__agent_x", ParentID: "k1", Source: "cline", ModelConfig: `{"_delegate_from":"k1"}`},
			args: []string{"cline", "--id", "k1"}, notes: []string{"Cline sub-agent run"}},
		"copilot sub-agent resumes the parent": {sess: store.Session{ID: "c1-agent-x", ParentID: "c1", Source: "copilot-cli", ModelConfig: `{"_delegate_from":"c1"}`},
			args: []string{"copilot", "--resume=c1"}, notes: []string{"Copilot CLI sub-agent run"}},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := PlanResume(tc.sess)
			if !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if err != nil && !strings.Contains(err.Error(), "Qwen Code finds a session") {
				t.Errorf("err %v", err)
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
}
