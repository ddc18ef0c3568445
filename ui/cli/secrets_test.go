package cli

import (
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
