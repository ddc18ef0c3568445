package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// A hostile query (the store's sanitiser flattens 100 nested groups) still
// answers, and every way of asking says in one line what was dropped: on
// stderr for people, in the envelope's "notice" for search --json.
func TestHostileQueryNotice(t *testing.T) {
	noModel(t)
	db := searchDB(t)
	q := strings.Repeat("(", 100) + "overlay"
	const note = "query too large: 92 groups nested deeper than 8 were flattened"
	for name, args := range map[string][]string{
		"messages":      {"--db", db, "messages", q},
		"messages json": {"--db", db, "messages", "--json", q},
		"search":        {"--db", db, "search", "--no-summary", q},
	} {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, false, args...)
			if code != 0 || !strings.Contains(stdout, "overlay") {
				t.Fatalf("exit %d, stdout %q, stderr %q: want hits", code, stdout, stderr)
			}
			if strings.Count(stderr, note) != 1 {
				t.Errorf("stderr %q: want the notice %q once", stderr, note)
			}
		})
	}
	code, stdout, stderr := runCLI(t, false, "--db", db, "search", "--json", "--no-summary", q)
	var env struct {
		Count  int    `json:"count"`
		Notice string `json:"notice"`
	}
	if err := json.Unmarshal([]byte(stdout), &env); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s %s", code, err, stdout, stderr)
	}
	if env.Count == 0 || env.Notice != note {
		t.Errorf("envelope count %d notice %q, want hits and %q", env.Count, env.Notice, note)
	}
}
