package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportWindsurfSaysUnreadable: Windsurf's Cascade chats are found and
// named, with why recall cannot read them, by `import windsurf` (exit 1,
// one line), `import all` (the other sources imported, the line on stderr,
// "unreadable" in --json) and `watch` (said once, not polled).
func TestImportWindsurfSaysUnreadable(t *testing.T) {
	isolate(t)
	home := os.Getenv("HOME")
	cascade := filepath.Join(home, ".codeium", "windsurf", "cascade")
	if err := os.MkdirAll(cascade, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"8f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f.pb", "0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d.pb"} {
		if err := os.WriteFile(filepath.Join(cascade, f), []byte("\x8a\x17\xf3\x02\x91encrypted"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := "2 Cascade conversations in " + cascade + ", but Windsurf encrypts them"

	code, out, errs := runCLI(t, false, "import", "windsurf")
	if code != 1 || out != "" || !strings.Contains(errs, want) || !strings.HasSuffix(errs, "nothing imported\n") {
		t.Errorf("import windsurf: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	oneLine(t, "import windsurf", errs)

	// A Claude Code history beside it is imported as ever.
	claude := filepath.Join(home, ".claude", "projects", "-work")
	if err := os.MkdirAll(claude, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"hello there"}}` + "\n"
	if err := os.WriteFile(filepath.Join(claude, "s1.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	code, out, errs = runCLI(t, false, "import", "all")
	if code != 0 || !strings.Contains(out, "claude-code: ") || !strings.Contains(errs, "recall import: windsurf: "+want) {
		t.Errorf("import all: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	code, out, _ = runCLI(t, false, "import", "all", "--json")
	rs := decodeJSON[[]importJSON](t, out)
	var ws *importJSON
	for i := range rs {
		if rs[i].Source == "windsurf" {
			ws = &rs[i]
		}
	}
	if code != 0 || ws == nil || !ws.Unreadable || ws.Skipped != 2 || ws.Messages != 0 || !strings.Contains(ws.Error, want) {
		t.Errorf("import all --json: exit %d, windsurf %+v", code, ws)
	}

	code, _, errs = runCLI(t, false, "watch", "--once")
	if code != 0 || strings.Count(errs, "windsurf: "+want) != 1 {
		t.Errorf("watch --once: exit %d, stderr %q", code, errs)
	}
}
