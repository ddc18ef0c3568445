package gemini

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestRereadUnderNewID: a session file first filed under its file name (as
// recall did before it read sessionId without projectHash, or while the
// file had no sessionId yet) and read again under its sessionId leaves one
// session: the row under the file name goes, not stays behind empty.
func TestRereadUnderNewID(t *testing.T) {
	const sid = "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b"
	const name = "session-2026-02-01T08-00-5e6f7a8b"
	lines := `{"id":"m1","timestamp":"2026-02-01T08:00:00.000Z","type":"user","content":"rotate the TLS certificate"}` + "\n" +
		`{"id":"m2","timestamp":"2026-02-01T08:01:00.000Z","type":"gemini","content":"Renewed it with certbot."}` + "\n"
	for _, tc := range []struct{ name, before, after string }{
		{"metadata comes later", lines, lines + `{"sessionId":"` + sid + `","startTime":"2026-02-01T08:00:00.000Z","lastUpdated":"2026-02-01T08:01:00.000Z"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, after, ext := tc.before, tc.after, ".jsonl"
			root := t.TempDir()
			file := filepath.Join(root, "tmp", "proj", "chats", name+ext)
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			it.Write(t, file, before)
			st := it.Open(t)
			it.Run(t, st, &Source{}, root)
			if d := it.Dump(t, st); len(d) != 1 || d[name].Session.ID != name {
				t.Fatalf("first import: sessions %v, want %s", it.IDs(d), name)
			}
			it.Write(t, file, after)
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(file, later, later); err != nil {
				t.Fatal(err)
			}
			it.Run(t, st, &Source{}, root)
			d := it.Dump(t, st)
			if len(d) != 1 || len(d[sid].Msgs) != 2 {
				t.Errorf("sessions %v (%d messages under %s), want only %s with 2", it.IDs(d), len(d[sid].Msgs), sid, sid)
			}
		})
	}
}

// TestOlderImportReadAgain: a session file an older recall imported (its
// state saved without this parser's version, when a file without
// projectHash was filed under its name) is read again once, JSON or JSONL.
func TestOlderImportReadAgain(t *testing.T) {
	const sid = "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b"
	meta := `"sessionId":"` + sid + `","startTime":"2026-02-01T08:00:00.000Z","lastUpdated":"2026-02-01T08:01:00.000Z"`
	m1 := `{"id":"m1","timestamp":"2026-02-01T08:00:00.000Z","type":"user","content":"rotate the TLS certificate"}`
	for ext, body := range map[string]string{
		".json":  "{\n  " + meta + ",\n  \"messages\": [" + m1 + "]\n}\n",
		".jsonl": "{" + meta + "}\n" + m1 + "\n",
	} {
		t.Run(ext, func(t *testing.T) {
			root := t.TempDir()
			file := filepath.Join(root, "tmp", "proj", "chats", "session-2026-02-01T08-00-5e6f7a8b"+ext)
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			it.Write(t, file, body)
			st := it.Open(t)
			it.Run(t, st, &Source{}, root)
			forgetVersion(t, st, file)
			if rep := it.Run(t, st, &Source{}, root); rep.Files != 1 || rep.Unchanged != 0 {
				t.Errorf("report = %+v, want the file read again", rep)
			}
			if d := it.Dump(t, st); len(d) != 1 || len(d[sid].Msgs) != 1 {
				t.Errorf("sessions %v, want only %s with its message", it.IDs(d), sid)
			}
			if rep := it.Run(t, st, &Source{}, root); rep.Unchanged != 1 {
				t.Errorf("third import = %+v, want unchanged", rep)
			}
		})
	}
}

// forgetVersion rewrites file's import state as a recall whose parser had
// no version saved it.
func forgetVersion(t *testing.T, st *store.Store, file string) {
	t.Helper()
	err := st.Write(context.Background(), func(tx *store.Tx) error {
		f, ok, err := tx.ImportFile(file)
		if err != nil || !ok {
			t.Fatalf("import state of %s: %v %v", file, ok, err)
		}
		var saved map[string]json.RawMessage
		if err := json.Unmarshal([]byte(f.State), &saved); err != nil {
			t.Fatal(err)
		}
		delete(saved, "v")
		raw, _ := json.Marshal(saved)
		f.State = string(raw)
		return tx.SetImportFile(f)
	})
	if err != nil {
		t.Fatal(err)
	}
}
