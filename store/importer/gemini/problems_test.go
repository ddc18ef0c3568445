package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestMisspelledContentNamed: a user or model message record without its
// content (a misspelled key) is a problem line at its file:line naming the
// missing field and the keys it has (before: the message vanished without
// a word); the other messages are imported.
func TestMisspelledContentNamed(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "tmp", "proj", "chats", "session-2026-02-01T08-00-5e6f7a8b.jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	it.Write(t, file, `{"sessionId":"5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b","projectHash":"abc","startTime":"2026-02-01T08:00:00.000Z","lastUpdated":"2026-02-01T08:01:00.000Z"}
{"id":"m1","timestamp":"2026-02-01T08:00:00.000Z","type":"user","contenst":[{"text":"rotate the TLS certificate"}]}
{"id":"m2","timestamp":"2026-02-01T08:01:00.000Z","type":"gemini","content":"Renewed it with certbot.","model":"gemini-2.5-pro"}
`)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, root)
	want := file + `:2: user message record has no "content" (its keys: contenst, id, timestamp, type)`
	if got := it.Problems(rep); !strings.Contains(got, want) || rep.Malformed != 1 {
		t.Errorf("report %+v\nproblems:\n%s\nwant %q", rep, got, want)
	}
	it.SameMsgs(t, "s", it.Dump(t, st)["5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b"].Msgs, []it.Msg{{Role: "assistant", Content: "Renewed it with certbot."}})
}
