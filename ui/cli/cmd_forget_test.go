package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const forgetSample = `{"session_id":"s1","role":"user","content":"deploy with the token ghp_Forget0a1b2c3d4e5f6g7h8i9j0","timestamp":"2026-07-17T09:00:00Z","title":"key ghp_Forget0a1b2c3d4e5f6g7h8i9j0"}
{"session_id":"s1","role":"assistant","content":"done","timestamp":"2026-07-17T09:00:05Z"}
{"session_id":"s2","role":"user","content":"what is the weather","timestamp":"2026-07-17T10:00:00Z"}
{"session_id":"s3","role":"user","content":"hello again","timestamp":"2026-07-17T11:00:00Z"}
`

// TestForgetCommand: without a terminal and without --yes nothing is
// deleted; --match deletes the matching messages (and clears the title
// that held the text, and finds the text nowhere in the file) and
// SESSION_ID a whole session; importing the same JSONL again, or a copy of
// it under other session ids, brings back neither.
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
	if code != 0 || !strings.Contains(out, "forgot 0 sessions and 1 message;") || !strings.Contains(out, "cleared 1 title") ||
		!strings.Contains(out, "the forgotten text is nowhere in it") {
		t.Fatalf("forget --match: exit %d, %q %q", code, out, errOut)
	}
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("Forget0a1b2c3d4e5f6g7h8i9j0")) {
		t.Error("the database file still holds the forgotten token")
	}
	code, out, errOut = runCLIStdin(t, "", "--db", db, "forget", "--yes", "s2")
	if code != 0 || !strings.Contains(out, "forgot 1 session and 1 message;") {
		t.Fatalf("forget s2: exit %d, %q %q", code, out, errOut)
	}
	copied := strings.NewReplacer(`"s1"`, `"s1-copy"`, `"s2"`, `"s2-copy"`).Replace(forgetSample)
	for _, sample := range []string{forgetSample, copied} {
		if code, _, errOut := runCLIStdin(t, sample, "--db", db, "import", "jsonl", "-"); code != 0 {
			t.Fatalf("import again: %d %s", code, errOut)
		}
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "messages", "Forget0a1b2c3d4e5f6g7h8i9j0"); strings.Contains(out, "Forget0a1b2") {
		t.Errorf("the forgotten message came back: %q", out)
	}
	_, out, _ = runCLIStdin(t, "", "--db", db, "recent", "--json")
	if strings.Contains(out, `"s2"`) || !strings.Contains(out, `"s1"`) || !strings.Contains(out, `"s3"`) || strings.Contains(out, "Forget0a1b2") {
		t.Errorf("sessions after forget and re-import: %s", out)
	}
	// The copy of s2 stays forgotten too, though "what is the weather" is
	// short (it follows the same message as in s2); the prompt elsewhere is kept.
	if strings.Contains(out, `"s2-copy"`) {
		t.Errorf("the copy of the forgotten session came back: %s", out)
	}
	if code, _, errOut := runCLIStdin(t, `{"session_id":"s4","role":"user","content":"hi","timestamp":"2026-07-17T11:59:00Z"}`+"\n"+`{"session_id":"s4","role":"user","content":"what is the weather","timestamp":"2026-07-17T12:00:00Z"}`+"\n", "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import s4: %d %s", code, errOut)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "messages", "weather"); !strings.Contains(out, "s4") {
		t.Errorf("a short prompt of a forgotten session is forgotten everywhere: %q", out)
	}
	if _, out, _ := runCLIStdin(t, "", "--db", db, "show", "--json", "s1"); !strings.Contains(out, `"title": ""`) {
		t.Errorf("s1's title came back on re-import: %s", out)
	}
}
