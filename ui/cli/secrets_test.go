package cli

import (
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
