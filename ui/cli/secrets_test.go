package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake GitHub token, shaped like a real one (gitleaks' github-pat rule).
const fakeToken = "ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U"

const secretSample = `{"session_id":"s1","role":"user","content":"push the release branch","timestamp":"2026-07-17T09:00:00Z"}
{"session_id":"s1","role":"assistant","content":"git push failed; ran: export GITHUB_TOKEN=` + fakeToken + ` then pushed the release","timestamp":"2026-07-17T09:00:05Z"}
`

// TestSecretsRedactedByDefault: `search --json` (what scripts hand to
// models) and `export` (what people share) replace the token with
// [REDACTED:github-pat]; --show-secrets keeps it.
func TestSecretsRedactedByDefault(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	if code, _, errOut := runCLIStdin(t, secretSample, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		keep bool
	}{
		{[]string{"search", "--json", "--no-summary", "release"}, false},
		{[]string{"search", "--json", "--no-summary", "--show-secrets", "release"}, true},
		{[]string{"search", "--json", "release"}, false}, // offline summaries quote the text too
		{[]string{"export", "s1"}, false},
		{[]string{"export", "--format", "json", "s1"}, false},
		{[]string{"export", "--show-secrets", "s1"}, true},
	} {
		code, out, errOut := runCLIStdin(t, "", append([]string{"--db", db}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", tc.args, code, errOut)
		}
		if has := strings.Contains(out, fakeToken); has != tc.keep {
			t.Errorf("%v: token present %v, want %v:\n%.1500s", tc.args, has, tc.keep, out)
		}
		if !tc.keep && !strings.Contains(out, "[REDACTED:github-pat]") {
			t.Errorf("%v: no redaction mark:\n%.1500s", tc.args, out)
		}
	}
}

// TestExportPrivateAndHTML: -o makes even an existing, world-readable file
// 0600 before writing; --format html is one self-contained page, redacted,
// with a transcript's HTML shown as text, never run.
func TestExportPrivateAndHTML(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	sample := secretSample + `{"session_id":"s1","role":"user","content":"<script>alert(1)</script> and [x](javascript:alert(2))","timestamp":"2026-07-17T09:00:09Z"}
`
	if code, _, errOut := runCLIStdin(t, sample, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	out := filepath.Join(t.TempDir(), "existing.md")
	if err := os.WriteFile(out, []byte("old, readable by anyone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLIStdin(t, "", "--db", db, "export", "-o", out, "s1"); code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("existing export file is %v, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(out); strings.Contains(string(b), fakeToken) || strings.Contains(string(b), "old, readable") {
		t.Errorf("export file:\n%s", b)
	}

	code, page, errOut := runCLIStdin(t, "", "--db", db, "export", "--format", "html", "s1")
	if code != 0 {
		t.Fatalf("export html: %d %s", code, errOut)
	}
	for _, want := range []string{"<!DOCTYPE html>", "[REDACTED:github-pat]", "push the release branch", "&lt;script&gt;", "</html>"} {
		if !strings.Contains(page, want) {
			t.Errorf("html export lacks %q", want)
		}
	}
	for _, bad := range []string{fakeToken, "<script>", "href=\"javascript", "src=\"http", "href=\"http", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("html export holds %q", bad)
		}
	}
}

// TestRedactAllAndAtImport: `recall redact --all --yes` rewrites what was
// stored (even --show-secrets finds no secret, nor does the file), and
// with "redact_at_import": true in config.json an import stores none; a
// config file that cannot be read stops the import rather than store them.
func TestRedactAllAndAtImport(t *testing.T) {
	home := isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	if code, _, errOut := runCLIStdin(t, secretSample, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	if code, _, errOut := runCLIStdin(t, "", "--db", db, "redact", "--all"); code != 2 || !strings.Contains(errOut, "--yes") {
		t.Errorf("redact without a terminal or --yes: exit %d %q", code, errOut)
	}
	code, out, errOut := runCLIStdin(t, "", "--db", db, "redact", "--all", "--yes")
	if code != 0 || !strings.Contains(out, "redacted 1 message and 0 sessions") || !strings.Contains(out, "none of the replaced text is left") {
		t.Fatalf("redact --all: exit %d %q %q", code, out, errOut)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "show", "--show-secrets", "s1"); strings.Contains(out, fakeToken) || !strings.Contains(out, "[REDACTED:github-pat]") {
		t.Errorf("show --show-secrets after redact --all:\n%s", out)
	}
	if raw, _ := os.ReadFile(db); bytes.Contains(raw, []byte(fakeToken[4:])) {
		t.Error("the database file still holds the token")
	}

	cfg := filepath.Join(home, "config", "recall", "config.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"redact_at_import": true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	second := strings.ReplaceAll(secretSample, `"s1"`, `"s2"`)
	if code, _, errOut := runCLIStdin(t, second, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import with redact_at_import: %d %s", code, errOut)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "show", "--json", "--show-secrets", "s2"); strings.Contains(out, fakeToken) || !strings.Contains(out, "[REDACTED:github-pat]") {
		t.Errorf("stored with redact_at_import:\n%s", out)
	}
	if err := os.WriteFile(cfg, []byte(`{"redact_at_import": tru`), 0o600); err != nil {
		t.Fatal(err)
	}
	third := strings.ReplaceAll(secretSample, `"s1"`, `"s3"`)
	code, _, errOut = runCLIStdin(t, third, "--db", db, "import", "jsonl", "-")
	if code == 0 || !strings.Contains(errOut, "config.json") || !strings.Contains(errOut, "nothing was imported") {
		t.Errorf("import with a broken config: exit %d %q", code, errOut)
	}
}
