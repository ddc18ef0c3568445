package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

const forgetSample = `{"session_id":"s1","role":"user","content":"deploy with the token ghp_Forget0a1b2c3d4e5f6g7h8i9j0","timestamp":"2026-07-17T09:00:00Z"}
{"session_id":"s1","role":"assistant","content":"done","timestamp":"2026-07-17T09:00:05Z"}
{"session_id":"s2","role":"user","content":"what is the weather","timestamp":"2026-07-17T10:00:00Z"}
{"session_id":"s3","role":"user","content":"hello again","timestamp":"2026-07-17T11:00:00Z"}
`

// TestForgetCommand: without a terminal and without --yes nothing is
// deleted; --match deletes the matching messages and SESSION_ID a whole
// session; importing the same JSONL again brings back neither.
func TestForgetCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	if code, _, errOut := runCLIStdin(t, forgetSample, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import: %d %s", code, errOut)
	}
	code, _, errOut := runCLIStdin(t, "y\n", "--db", db, "forget", "--match", "ghp_Forget0a1b2c3d4e5f6g7h8i9j0")
	if code != 2 || !strings.Contains(errOut, "--yes") {
		t.Errorf("forget without a terminal or --yes: exit %d, %q", code, errOut)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "messages", "ghp_Forget0a1b2c3d4e5f6g7h8i9j0"); !strings.Contains(out, "Forget0a1b2") {
		t.Fatalf("the unconfirmed forget deleted something: %q", out)
	}
	code, out, errOut := runCLIStdin(t, "", "--db", db, "forget", "--yes", "--match", "ghp_Forget0a1b2c3d4e5f6g7h8i9j0")
	if code != 0 || !strings.Contains(out, "forgot 0 sessions and 1 messages") {
		t.Fatalf("forget --match: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = runCLIStdin(t, "", "--db", db, "forget", "--yes", "s2")
	if code != 0 || !strings.Contains(out, "forgot 1 sessions and 1 messages") {
		t.Fatalf("forget s2: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLIStdin(t, forgetSample, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import again: %d %s", code, errOut)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "messages", "Forget0a1b2c3d4e5f6g7h8i9j0"); strings.Contains(out, "Forget0a1b2") {
		t.Errorf("the forgotten message came back: %q", out)
	}
	_, out, _ = runCLIStdin(t, "", "--db", db, "recent", "--json")
	if strings.Contains(out, `"s2"`) || !strings.Contains(out, `"s1"`) || !strings.Contains(out, `"s3"`) {
		t.Errorf("sessions after forget and re-import: %s", out)
	}
}
