package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestRenamedThenGrown: a transcript renamed (the import carries its
// cursor over, importer.PlanFile) and then grown keeps its session, whether
// the new lines are read from the cursor or the file is read again in full.
// The old code named the session after the file, so the new lines went to a
// session called "renamed".
func TestRenamedThenGrown(t *testing.T) {
	line := func(typ, uuid, body string) string {
		return `{"type":"` + typ + `","sessionId":"` + sessA + `","cwd":"/home/dev/webapp","uuid":"` + uuid +
			`","timestamp":"2026-06-02T10:00:00Z",` + body + "}\n"
	}
	for _, tc := range []struct{ name, grow string }{
		{"from the cursor", line("user", "r1", `"message":{"role":"user","content":"after the rename"}`)},
		// msg_01D continues: the parser asks for the whole file again.
		{"read again", line("user", "r1", `"message":{"role":"user","content":"after the rename"}`) +
			line("assistant", "r2", `"message":{"id":"msg_01D","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"More."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := it.CopyTree(t, it.Fixtures(t, "claude"))
			dir := filepath.Join(root, "projects", "-home-dev-webapp")
			st := it.Open(t)
			src := &Source{}
			it.Run(t, st, src, root)
			before := it.Dump(t, st)
			to := filepath.Join(dir, "renamed.jsonl")
			if err := os.Rename(filepath.Join(dir, sessA+".jsonl"), to); err != nil {
				t.Fatal(err)
			}
			it.Append(t, to, tc.grow)
			it.Run(t, st, src, root)
			after := it.Dump(t, st)
			if strings.Join(it.IDs(after), " ") != strings.Join(it.IDs(before), " ") {
				t.Errorf("sessions after rename+grow:\n%v\nwant\n%v", it.IDs(after), it.IDs(before))
			}
			msgs := after[sessA].Msgs
			if n := len(msgs); n < len(before[sessA].Msgs)+1 || !hasContent(msgs, "after the rename") {
				t.Errorf("session %s has %d messages, the new line missing", sessA, n)
			}
		})
	}
}

// TestSessionIDFallsBackToFileName: a transcript whose records carry no
// sessionId is the session named after its file.
func TestSessionIDFallsBackToFileName(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "0d9a7c21-1111-4222-8333-444455556666.jsonl")
	it.Write(t, file, `{"type":"user","uuid":"n1","timestamp":"2026-06-02T10:00:00Z","message":{"role":"user","content":"no session id"}}`+"\n")
	st := it.Open(t)
	it.Run(t, st, &Source{}, file)
	if got := it.IDs(it.Dump(t, st)); strings.Join(got, " ") != "0d9a7c21-1111-4222-8333-444455556666" {
		t.Errorf("sessions = %v", got)
	}
}

func hasContent(msgs []it.Msg, text string) bool {
	for _, m := range msgs {
		if m.Content == text {
			return true
		}
	}
	return false
}
