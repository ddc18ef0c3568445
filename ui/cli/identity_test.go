package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameIDTwoSources: the case. Two generic files whose records
// name session s1 under sources toolA and toolB are two sessions; `show`
// takes the stored id, the qualified one and the own id when it is one
// session's, names both when an id fits both, and `stats` counts both.
func TestSameIDTwoSources(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	for _, f := range []struct{ name, src, a, b string }{{"a.jsonl", "toolA", "alpha question", "alpha answer"}, {"b.jsonl", "toolB", "bravo question", "bravo answer"}} {
		body := `{"session_id":"s1","source":"` + f.src + `","role":"user","content":"` + f.a + `","timestamp":1784278800}` + "\n" +
			`{"session_id":"s1","source":"` + f.src + `","role":"assistant","content":"` + f.b + `","timestamp":1784278860}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", filepath.Join(dir, f.name)); code != 0 {
			t.Fatalf("import %s: %s", f.name, errOut)
		}
	}
	for _, tc := range []struct{ arg, source, has, hasNot string }{
		{"s1", "toolA", "alpha answer", "bravo"},
		{"s1@toolB", "toolB", "bravo answer", "alpha"},
		{"s1@toolA", "toolA", "alpha answer", "bravo"},
	} {
		code, out, errOut := runCLI(t, false, "--db", db, "show", tc.arg)
		if code != 0 || !strings.Contains(out, " · "+tc.source+" · ") || !strings.Contains(out, tc.has) || strings.Contains(out, tc.hasNot) {
			t.Errorf("show %s: exit %d\n%s%s", tc.arg, code, out, errOut)
		}
	}
	code, out, _ := runCLI(t, false, "--db", db, "show", "--json", "s1@toolB")
	var shown struct {
		ID       string `json:"session_id"`
		NativeID string `json:"native_id"`
		Source   string `json:"source"`
	}
	if err := json.Unmarshal([]byte(out), &shown); code != 0 || err != nil || shown.ID != "s1@toolB" || shown.NativeID != "s1" || shown.Source != "toolB" {
		t.Errorf("show --json s1@toolB: exit %d, %+v, %v\n%s", code, shown, err, out)
	}
	code, _, errOut := runCLI(t, false, "--db", db, "show", "s")
	if code == 0 || !strings.Contains(errOut, "ambiguous") || !strings.Contains(errOut, "s1@toolA, s1@toolB") {
		t.Errorf("show s: exit %d, %s", code, errOut)
	}
	code, out, _ = runCLI(t, false, "--db", db, "stats", "--json")
	var stats struct {
		Sessions  int            `json:"sessions"`
		Sources   map[string]int `json:"sources"`
		Qualified int            `json:"sessions_qualified"`
	}
	if err := json.Unmarshal([]byte(out), &stats); code != 0 || err != nil || stats.Sessions != 2 || stats.Sources["toolA"] != 1 || stats.Sources["toolB"] != 1 || stats.Qualified != 1 {
		t.Errorf("stats: %+v, %v", stats, err)
	}
}
