package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRetentionAtRisk: Claude Code set to delete transcripts after 10
// days: a transcript 5 days old (past 10 - 7) that recall has not imported
// is reported by `stats` (text and JSON) until an import takes it; a fresh
// one is not.
func TestRetentionAtRisk(t *testing.T) {
	isolateAgents(t)
	root := filepath.Join(t.TempDir(), "claude")
	t.Setenv("CLAUDE_CONFIG_DIR", root)
	proj := filepath.Join(root, "projects", "-home-dev-x")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "settings.json"), []byte(`{"cleanupPeriodDays": 10}`), 0o644)
	line := func(id, text string) string {
		return `{"type":"user","sessionId":"` + id + `","uuid":"u-` + id + `","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	old := filepath.Join(proj, "old-session.jsonl")
	fresh := filepath.Join(proj, "fresh-session.jsonl")
	os.WriteFile(old, []byte(line("old-session", "about to be deleted")), 0o644)
	os.WriteFile(fresh, []byte(line("fresh-session", "recent")), 0o644)
	five := time.Now().Add(-5 * 24 * time.Hour)
	os.Chtimes(old, five, five)
	db := filepath.Join(t.TempDir(), "state.db")
	if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", writeJSONL(t)); code != 0 {
		t.Fatal(errOut)
	}

	code, out, errOut := runCLI(t, false, "--db", db, "stats", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	type risk struct {
		Source string `json:"source"`
		Files  int    `json:"files"`
		Days   int    `json:"retention_days"`
	}
	st := decodeJSON[struct {
		Messages int    `json:"messages"`
		Risk     []risk `json:"retention_at_risk"`
	}](t, out)
	if len(st.Risk) != 1 || st.Risk[0].Source != "claude-code" || st.Risk[0].Files != 1 || st.Risk[0].Days != 10 || st.Messages == 0 {
		t.Fatalf("stats --json = %s", out)
	}
	_, out, _ = runCLI(t, false, "--db", db, "stats")
	if !strings.Contains(out, "warning: 1 claude-code files older than 3 days are not imported yet") {
		t.Errorf("stats does not warn:\n%s", out)
	}

	if code, _, errOut := runCLI(t, false, "--db", db, "import", "claude"); code != 0 || strings.Contains(errOut, "warning:") {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	_, out, _ = runCLI(t, false, "--db", db, "stats", "--json")
	if st := decodeJSON[struct {
		Risk []risk `json:"retention_at_risk"`
	}](t, out); len(st.Risk) != 0 {
		t.Errorf("after the import: %s", out)
	}
}
