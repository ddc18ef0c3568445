package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestImportWrongFormatAgain: the wrong importer says so every time, not
// only the first (before: the second run found the file "unchanged" and
// exited 0), the right importer then reads the file the wrong one had
// recorded (before: "1 unchanged", nothing imported, when both parsers had
// the same version), and a Gemini session JSON given to the Codex importer
// is named, not imported as an empty session.
func TestImportWrongFormatAgain(t *testing.T) {
	fix := func(rel string) string { return filepath.Join("..", "..", "testdata", "importers", rel) }
	codex := fix("codex/sessions/2026/06/04/rollout-2026-06-04T10-15-30-0197a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	geminiJSON := fix("gemini/tmp/e8b9173cb8ec94e5047ae9770a227bc31014baec9281bf138d241defb7072cec/chats/session-2025-12-01T14-05-9b8c7d6e.json")
	for _, tc := range []struct{ wrong, right, path, want string }{
		{"gemini", "codex", codex, "this looks like a Codex rollout: use `recall import codex "},
		{"claude", "codex", codex, "this looks like a Codex rollout: use `recall import codex "},
		{"codex", "gemini", geminiJSON, "this looks like a Gemini CLI session: use `recall import gemini "},
	} {
		db := filepath.Join(t.TempDir(), "state.db")
		for run := 1; run <= 2; run++ {
			code, out, errOut := runCLI(t, false, "--db", db, "import", tc.wrong, tc.path)
			if code == 0 || !strings.Contains(errOut, tc.want) {
				t.Errorf("import %s %s, run %d: exit %d\nstdout %s\nstderr %s\nwant %q", tc.wrong, filepath.Base(tc.path), run, code, out, errOut, tc.want)
			}
		}
		code, out, errOut := runCLI(t, false, "--db", db, "import", tc.right, tc.path)
		if code != 0 || strings.Contains(out, ", 0 messages imported") || strings.Contains(errOut, "looks like") {
			t.Errorf("then import %s %s: exit %d\nstdout %s\nstderr %s", tc.right, filepath.Base(tc.path), code, out, errOut)
		}
	}
}
