package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDisplayKindsInCommands imports Claude Code sessions holding slash
// commands and text Claude Code wrote into user records: recent names the
// untitled session by its first real prompt, show labels the rows by who
// wrote them, and messages --json never reports such text as role "user".
func TestDisplayKindsInCommands(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	fixture := filepath.Join("..", "..", "testdata", "importers", "claude-kinds")
	if code, _, stderr := runCLI(t, false, "--db", db, "import", "claude", fixture); code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	_, out, _ := runCLI(t, false, "--db", db, "recent", "--json")
	recent := decodeJSON[[]map[string]any](t, out)
	titles := map[string]any{}
	for _, r := range recent {
		titles[r["session_id"].(string)] = r["title"]
	}
	if got := titles["5d0c9a8e-3f41-4b7a-a2c6-1e9f7b3d8c20"]; got != "Add pagination to the orders endpoint" {
		t.Errorf("recent title after /clear = %v (all: %v)", got, titles)
	}

	_, out, _ = runCLI(t, false, "--db", db, "show", "5d0c9a8e")
	for _, want := range []string{"[USER COMMAND] 2026-07-01 08:00\n/clear\n", "[SYSTEM] ", "[COMPACTION SUMMARY] ",
		"[USER] 2026-07-01 08:00\nAdd pagination"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "[USER] 2026-07-01 08:00:00\n/clear") || strings.Contains(out, "[USER] 2026-07-01 08:04:40\n[Request interrupted") {
		t.Errorf("show labels a command or agent text as the user's:\n%s", out)
	}

	_, out, _ = runCLI(t, false, "--db", db, "messages", "--json", "Compacted")
	hits := decodeJSON[[]map[string]any](t, out)
	if len(hits) != 1 || hits[0]["role"] != "system" || hits[0]["display_kind"] != "agent" {
		t.Errorf("messages --json = %v", hits)
	}

	// --role filters by the role shown: the interrupt marker and the
	// compaction summary are "system", never "user" (issue 33).
	for _, c := range []struct {
		role, query string
		want        int
	}{
		{"user", "interrupted", 0},
		{"system", "interrupted", 2},
		{"user", "continued previous conversation", 0},
		{"system", "continued previous conversation", 1},
		{"user", "cursor pagination", 1},
		{"user,system", "interrupted", 2},
	} {
		_, out, _ = runCLI(t, false, "--db", db, "messages", "--json", "--role", c.role, c.query)
		hits := decodeJSON[[]map[string]any](t, out)
		if len(hits) != c.want {
			t.Errorf("messages --role %s %q: %d hits, want %d: %v", c.role, c.query, len(hits), c.want, hits)
		}
		for _, h := range hits {
			if !strings.Contains(","+c.role+",", ","+h["role"].(string)+",") {
				t.Errorf("messages --role %s %q: a hit shown as %v", c.role, c.query, h["role"])
			}
		}
	}
}
