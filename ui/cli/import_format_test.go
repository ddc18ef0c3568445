package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImportWrongFormat: a file (or folder) given to the wrong importer
// says what it looks like and the command that reads it, and exits
// non-zero, for every pair of formats (before: "0 sessions … 25 records
// skipped", exit 0, or a page of "invalid JSON" lines); the right
// importer takes the same path.
func TestImportWrongFormat(t *testing.T) {
	fix := func(rel string) string { return filepath.Join("..", "..", "testdata", "importers", rel) }
	claude := fix("claude/projects/-home-dev-api/2b8e6d14-5a3c-4f7b-9e02-c6d1a8f5b930.jsonl")
	codex := fix("codex/sessions/2026/06/04/rollout-2026-06-04T10-15-30-0197a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl")
	geminiJSON := fix("gemini/tmp/e8b9173cb8ec94e5047ae9770a227bc31014baec9281bf138d241defb7072cec/chats/session-2025-12-01T14-05-9b8c7d6e.json")
	geminiJSONL := fix("gemini/tmp/shop/chats/session-2026-06-10T09-30-3f2a9c1e.jsonl")
	export := fix("jsonl/export.jsonl")
	files := map[string]string{"claude": claude, "codex": codex, "gemini": geminiJSONL, "jsonl": export}
	for _, tc := range []struct{ source, path, want string }{
		{"claude", codex, "this looks like a Codex rollout: use `recall import codex "},
		{"claude", geminiJSON, "this looks like a Gemini CLI session: use `recall import gemini "},
		{"claude", geminiJSONL, "this looks like a Gemini CLI session: use `recall import gemini "},
		{"claude", export, "this looks like recall's JSONL (one message per line): use `recall import jsonl "},
		{"codex", claude, "this looks like a Claude Code transcript: use `recall import claude "},
		{"gemini", claude, "this looks like a Claude Code transcript: use `recall import claude "},
		{"gemini", codex, "this looks like a Codex rollout: use `recall import codex "},
		{"jsonl", claude, "this looks like a Claude Code transcript: use `recall import claude "},
		{"jsonl", codex, "this looks like a Codex rollout: use `recall import codex "},
		{"jsonl", geminiJSONL, "this looks like a Gemini CLI session: use `recall import gemini "},
		{"gemini", fix("codex/sessions"), "(the files in it): this looks like a Codex rollout: use `recall import codex "},
	} {
		db := filepath.Join(t.TempDir(), "state.db")
		code, out, errOut := runCLI(t, false, "--db", db, "import", tc.source, tc.path)
		if code == 0 || !strings.Contains(errOut, tc.path) || !strings.Contains(errOut, tc.want) {
			t.Errorf("import %s %s: exit %d\nstdout %s\nstderr %s\nwant %q", tc.source, filepath.Base(tc.path), code, out, errOut, tc.want)
		}
		if strings.Contains(out+errOut, "invalid JSON") {
			t.Errorf("import %s %s: problem lines about JSON instead of the format:\n%s%s", tc.source, filepath.Base(tc.path), out, errOut)
		}
	}
	for source, path := range files {
		db := filepath.Join(t.TempDir(), "state.db")
		if code, _, errOut := runCLI(t, false, "--db", db, "import", source, path); code != 0 || strings.Contains(errOut, "looks like") {
			t.Errorf("import %s %s: exit %d, %s", source, filepath.Base(path), code, errOut)
		}
	}
}

// TestImportNothingImportable: a file none of whose records could be read
// exits non-zero after its problem lines; a pretty-printed JSON document is
// one problem ("one JSON document, not JSON Lines"), not one "invalid
// JSON" per line; a transcript whose only line is still being written is
// not an error.
func TestImportNothingImportable(t *testing.T) {
	dir := t.TempDir()
	pretty := filepath.Join(dir, "package.json")
	torn := filepath.Join(dir, "torn.jsonl")
	for path, body := range map[string]string{
		pretty: "{\n  \"name\": \"app\",\n  \"version\": \"1.0.0\"\n}\n",
		torn:   `{"type":"user","uuid":"u1","sessionId":"s1","message":{"role":"user","content":"still bei`,
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Torn long ago (a writer that stopped): reported.
	hour := time.Now().Add(-time.Hour)
	os.Chtimes(torn, hour, hour)
	code, out, errOut := runCLI(t, false, "--db", filepath.Join(dir, "a.db"), "import", "claude", pretty)
	if code != 1 || !strings.Contains(out, "package.json:1: the file is one JSON document, not JSON Lines (one record per line): not a Claude Code transcript") ||
		strings.Contains(out, "invalid JSON") || !strings.Contains(errOut, "nothing could be imported") {
		t.Errorf("pretty JSON: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, false, "--db", filepath.Join(dir, "b.db"), "import", "claude", torn); code != 0 || !strings.Contains(out, "incomplete last line") {
		t.Errorf("torn only line: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}
