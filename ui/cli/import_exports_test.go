package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// TestImportNeedsPath: the data exports and Aider have no default
// location: `recall import SOURCE` asks for the PATH, `watch` refuses them,
// and `import all` passes them over.
func TestImportNeedsPath(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	for _, tc := range []struct{ source, want string }{
		{"chatgpt", "the ChatGPT export's zip or its conversations.json"},
		{"claude-ai", "the Claude.ai export's zip or its conversations.json"},
		{"aider", ".aider.chat.history.md"},
	} {
		code, _, errOut := runCLI(t, false, "--db", db, "import", tc.source)
		if code != 2 || !strings.Contains(errOut, "has no default location") || !strings.Contains(errOut, tc.want) {
			t.Errorf("import %s: exit %d, %q", tc.source, code, errOut)
		}
		code, _, errOut = runCLI(t, false, "--db", db, "watch", "--once", tc.source)
		if code != 2 || !strings.Contains(errOut, "no default location to watch") {
			t.Errorf("watch %s: exit %d, %q", tc.source, code, errOut)
		}
	}
}

// TestImportAllFindsExportsAgents: `import all` reads the default locations
// of Droid and Amp, and a SQLite source imported again with nothing new is
// no "wrong format" (every SQLite file used to look like Hermes's).
func TestImportAllFindsExportsAgents(t *testing.T) {
	home := isolateAgents(t)
	t.Setenv("CRUSH_GLOBAL_DATA", filepath.Join(home, "absent-crush"))
	copyInto := copyFixture(t)
	copyInto("droid/sessions", filepath.Join(home, ".factory", "sessions"))
	copyInto("amp/threads", filepath.Join(home, "data", "amp", "threads"))
	db := filepath.Join(t.TempDir(), "state.db")
	code, out, errOut := runCLI(t, false, "--db", db, "import", "all", "--json")
	if code != 0 {
		t.Fatalf("import all: exit %d, %s", code, errOut)
	}
	got := map[string]int{}
	for _, r := range decodeJSON[[]importJSON](t, out) {
		got[r.Source] = r.Messages
	}
	if got["droid"] != 7 || got["amp"] != 7 {
		t.Errorf("import all: %v, want droid 7 and amp 7 messages", got)
	}

	crush := filepath.Join(t.TempDir(), ".crush", "crush.db")
	os.MkdirAll(filepath.Dir(crush), 0o755)
	w, err := sqlite3.Open(crush)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, f := range []string{"schema.sql", "seed.sql"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "importers", "crush", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Exec(string(b)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ {
		if code, _, errOut := runCLI(t, false, "--db", db, "import", "crush", crush); code != 0 || strings.Contains(errOut, "looks like") {
			t.Errorf("import crush, run %d: exit %d, %s", i+1, code, errOut)
		}
	}
}

// copyFixture returns a function copying testdata/importers/<fixture> to dst.
func copyFixture(t *testing.T) func(fixture, dst string) {
	return func(fixture, dst string) {
		src := filepath.Join("..", "..", "testdata", "importers", fixture)
		err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestWatchDroid: `recall watch` follows Droid's sessions folder: the
// first poll imports the session, a line Droid appends is the next one's.
func TestWatchDroid(t *testing.T) {
	home := isolateAgents(t)
	copyFixture(t)("droid/sessions", filepath.Join(home, ".factory", "sessions"))
	db := filepath.Join(t.TempDir(), "state.db")
	code, out, errOut := runCLI(t, false, "--db", db, "watch", "--once", "droid")
	if code != 0 || !strings.Contains(out, "droid: +7 messages") {
		t.Fatalf("first poll: exit %d, %q %q", code, out, errOut)
	}
	file := filepath.Join(home, ".factory", "sessions", "-home-dev-api", "b1c2d3e4-5f60-4718-9a2b-3c4d5e6f7a8b.jsonl")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"m9","timestamp":"2025-12-01T08:02:00.000Z","message":{"role":"user","content":"ship it"}}` + "\n")
	f.Close()
	code, out, _ = runCLI(t, false, "--db", db, "watch", "--once", "droid")
	if code != 0 || !strings.Contains(out, "droid: +1 messages") {
		t.Fatalf("second poll: exit %d, %q", code, out)
	}
}

// TestImportWrongExport: a ChatGPT export given to the Claude.ai importer
// (and the other way round) names the command that reads it, exit 1.
func TestImportWrongExport(t *testing.T) {
	fix := func(rel string) string { return filepath.Join("..", "..", "testdata", "importers", rel) }
	for _, tc := range []struct{ source, path, want string }{
		{"claude-ai", fix("chatgpt/conversations.json"), "this looks like a ChatGPT data export: use `recall import chatgpt "},
		{"chatgpt", fix("claudeai/conversations.json"), "this looks like a Claude.ai data export: use `recall import claude-ai "},
	} {
		db := filepath.Join(t.TempDir(), "state.db")
		code, out, errOut := runCLI(t, false, "--db", db, "import", tc.source, tc.path)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("import %s %s: exit %d\n%s%s", tc.source, tc.path, code, out, errOut)
		}
	}
}
