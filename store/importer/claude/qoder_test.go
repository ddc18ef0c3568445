package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestQoder imports Qoder CLI transcripts (testdata/importers/qoder,
// written from the shapes of @qoder-ai/qodercli 1.1.52's bundle: its
// manifest.json cites them): the same records as Claude Code's under
// ~/.qoder/projects, filed under source "qoder", its custom title ahead of
// its AI title, thinking, tool calls and results, the sub-agent run as a
// child, and Qoder's own bookkeeping (active-leaf with a numeric time,
// last-prompt) skipped, not malformed.
func TestQoder(t *testing.T) {
	src, ok := importer.Lookup("qodercli")
	if !ok || src.Name() != QoderName {
		t.Fatalf("qoder source not registered: %v", src)
	}
	root := it.Fixtures(t, "qoder")
	st := it.Open(t)
	rep := it.Run(t, st, src, root)
	if rep.Files != 2 || rep.Sessions != 2 || rep.Messages != 12 || rep.Malformed != 0 || rep.Skipped != 2 {
		t.Fatalf("report = %+v, want 2 files, 2 sessions, 12 messages, 2 skipped", rep)
	}
	const sid = "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
	d := it.Dump(t, st)
	s := d[sid]
	if s.Source != QoderName || s.Title != "Orders test timezone bug" || s.Cwd != "/home/dev/shop" || s.GitBranch != "main" ||
		s.Model != "qoder-auto" || s.InputTokens != 22010 || s.OutputTokens != 226 || len(s.Msgs) != 8 {
		t.Errorf("session %+v, %d messages", s.Session, len(s.Msgs))
	}
	if a := s.Msgs[1]; a.Reasoning != "CI runs in UTC; the test builds dates in local time." || !strings.Contains(a.ToolCalls, `"name":"Bash"`) {
		t.Errorf("assistant: %s", a)
	}
	if r := s.Msgs[2]; r.Role != "tool" || r.ToolName != "Bash" || r.Content != "12:  const day = new Date(2026, 10, 20)" {
		t.Errorf("tool result: %s", r)
	}
	child := d[sid+"-agent-a7f3c9e1"]
	if child.ParentID != sid || child.Source != QoderName || child.Title != "Find local-time dates" || len(child.Msgs) != 4 {
		t.Errorf("sub-agent %+v, %v", child.Session, child.Msgs)
	}
	// Claude Code's own source does not take Qoder's folder by default.
	t.Setenv("HOME", t.TempDir())
	t.Setenv("QODER_CONFIG_DIR", filepath.Join(root))
	if p := src.DefaultPaths(); len(p) != 1 || p[0] != filepath.Join(root, "projects") {
		t.Errorf("qoder default paths %v", p)
	}
	if p := (&Source{}).DefaultPaths(); len(p) != 1 || strings.Contains(p[0], "qoder") {
		t.Errorf("claude default paths %v", p)
	}
}
