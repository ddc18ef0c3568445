package codex

import (
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestMisspelledKeysNamed: a user or assistant text whose key is misspelled
// is a problem line naming the missing field and the keys the record has,
// at its file:line (before: skipped without a word, the text lost); the
// rest of the rollout is imported.
func TestMisspelledKeysNamed(t *testing.T) {
	const id = "0197a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5c"
	file := filepath.Join(t.TempDir(), "rollout-2026-06-04T10-15-30-"+id+".jsonl")
	it.Write(t, file, `{"timestamp":"2026-06-04T10:15:30.100Z","type":"session_meta","payload":{"id":"`+id+`","timestamp":"2026-06-04T10:15:30.100Z","cwd":"/home/dev/app","originator":"codex_cli_rs","cli_version":"0.130.0","source":"cli"}}
{"timestamp":"2026-06-04T10:15:31.000Z","type":"response_item","payload":{"type":"message","role":"user","contenst":[{"type":"input_text","text":"Why does the build fail?"}]}}
{"timestamp":"2026-06-04T10:15:31.010Z","type":"event_msg","payload":{"type":"user_message","mesage":"Why does the build fail?","images":[]}}
{"timestamp":"2026-06-04T10:15:32.000Z","type":"event_msg","payload":{"type":"agent_message","message":"A missing import in main.go."}}
{"timestamp":"2026-06-04T10:15:32.010Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"A missing import in main.go."}]}}
{"timestamp":"2026-06-04T10:15:33.000Z","type":"response_item"}
`)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, file)
	got := it.Problems(rep)
	for _, want := range []string{
		file + `:2: response_item message has no "content" (its keys: contenst, role, type)`,
		file + `:3: event_msg user_message has no "message" (its keys: images, mesage, type)`,
		file + `:6: response_item line has no "payload" (its keys: timestamp, type)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if rep.Malformed != 3 {
		t.Errorf("report = %+v", rep)
	}
	it.SameMsgs(t, id, it.Dump(t, st)[id].Msgs, []it.Msg{{Role: "assistant", Content: "A missing import in main.go."}})
}
