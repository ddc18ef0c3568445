package codex

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestOlderImportReadAgain: a rollout an older recall imported (its state
// saved without this parser's version) is read again in full, plain or
// compressed, so its web searches appear, without doubling the rows it had.
func TestOlderImportReadAgain(t *testing.T) {
	const id = "019a8c11-2b3c-7d4e-9f5a-6b7c8d9e0f1a"
	for _, compressed := range []bool{false, true} {
		name := map[bool]string{false: "jsonl", true: "zst"}[compressed]
		t.Run(name, func(t *testing.T) {
			home := it.CopyTree(t, it.Fixtures(t, "codex-items"))
			file := filepath.Join(home, "sessions/2026/11/20/rollout-2026-11-20T10-00-00-"+id+".jsonl")
			if compressed {
				file = compress(t, file)
			}
			st := it.Open(t)
			it.Run(t, st, &Source{}, home)
			before := it.Dump(t, st)[id]
			if len(before.Msgs) == 0 {
				t.Fatalf("%s imported nothing", file)
			}
			forgetVersion(t, st, file)
			rep := it.Run(t, st, &Source{}, home)
			if rep.Files != 1 || rep.Unchanged != 0 {
				t.Errorf("report = %+v, want the rollout read again", rep)
			}
			after := it.Dump(t, st)[id]
			it.SameMsgs(t, id, after.Msgs, before.Msgs)
			if after.MessageCount != before.MessageCount {
				t.Errorf("message_count %d, was %d", after.MessageCount, before.MessageCount)
			}
			if rep := it.Run(t, st, &Source{}, home); rep.Unchanged != 1 || rep.Files != 0 {
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
		if _, ok := saved["v"]; !ok {
			t.Fatalf("no parser version saved for %s: %s", file, f.State)
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

// compress replaces a plain rollout by its .jsonl.zst, as Codex does with
// old ones, keeping the mtime.
func compress(t *testing.T, plain string) string {
	t.Helper()
	raw, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(plain)
	enc, _ := zstd.NewWriter(nil)
	zst := plain + ".zst"
	if err := os.WriteFile(zst, enc.EncodeAll(raw, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(plain); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(zst, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	return zst
}
