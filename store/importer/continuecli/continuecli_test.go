package continuecli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

func agentHome(t *testing.T) string {
	t.Helper()
	return importtest.CopyTree(t, importtest.AgentHome(t, "continue-cli"))
}

// TestContinueFixtures imports what cn 1.5.47 wrote (testdata/agents/
// continue-cli): five sessions with their roles in order, the Bash call
// with its output, the refused Read as an error, the Chinese session
// resumed with --resume, the fork as a session of its own, and the start
// times from sessions.json.
func TestContinueFixtures(t *testing.T) {
	src, _ := importer.Lookup("cn")
	home := agentHome(t)
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, home)
	if rep.Files != 5 || rep.Sessions != 5 || rep.Messages != 18 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 5 files, 5 sessions, 18 messages", rep)
	}
	want := map[string]string{
		"How do I reverse a slice in Go? Show code.":          "ua",
		"Please count the lines in notes.txt":                 "uata",
		"Read the missing config at /nonexistent/config.yaml": "uata",
		"请用中文解释 Go 的切片":                                       "uaua",
	}
	forks := 0
	for _, s := range importtest.Dump(t, st) {
		var roles []string
		for _, m := range s.Msgs {
			roles = append(roles, m.Role[:1])
			switch {
			case m.ToolName == "Bash" && m.Content != "3 notes.txt\n":
				t.Errorf("Bash output = %q", m.Content)
			case m.ToolName == "Read" && !strings.HasPrefix(m.Content, "Error: "):
				t.Errorf("refused Read not an error: %q", m.Content)
			}
		}
		first, r := s.Msgs[0].Content, strings.Join(roles, "")
		if strings.Contains(r, "uaua") && s.Msgs[2].Content == "Try another way" {
			forks++
			continue
		}
		if want[first] != r {
			t.Errorf("session %q roles %q, want %q", first, r, want[first])
		}
		if s.Source != "continue-cli" || s.Model != "fake-model" || s.StartedAt.Year() != 2026 || !strings.HasSuffix(s.Cwd, "/work/demo") {
			t.Errorf("session %s: %+v", s.ID, s.Session)
		}
	}
	if forks != 1 {
		t.Errorf("%d forks, want 1", forks)
	}
	if rep := importtest.Run(t, st, src, home); rep.Unchanged != 5 {
		t.Errorf("second import = %+v, want 5 unchanged", rep)
	}
}

// TestContinueRewrite rewrites a session file as cn does after a turn (the
// whole document, one more exchange): the file is read again and its rows
// replaced, so the session holds each message once.
func TestContinueRewrite(t *testing.T) {
	src, _ := importer.Lookup("continue-cli")
	home := agentHome(t)
	st := importtest.Open(t)
	importtest.Run(t, st, src, home)
	files, _ := src.Discover([]string{home})
	var file string
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "count the lines") {
			file = f
		}
	}
	b, _ := os.ReadFile(file)
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	hist := doc["history"].([]any)
	doc["history"] = append(hist,
		map[string]any{"message": map[string]any{"role": "user", "content": "再来一次"}},
		map[string]any{"message": map[string]any{"role": "assistant", "content": "好的"}})
	out, _ := json.Marshal(doc)
	importtest.Write(t, file, string(out))
	rep := importtest.Run(t, st, src, home)
	if rep.Files != 1 || rep.Sessions != 1 {
		t.Fatalf("re-import = %+v, want 1 file read again", rep)
	}
	s := importtest.Dump(t, st)[doc["sessionId"].(string)]
	if len(s.Msgs) != 6 || s.Msgs[5].Content != "好的" {
		t.Errorf("session after rewrite: %v", s.Msgs)
	}
}
