package importer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const relJSONL = `{"session_id":"r1","source":"toolA","role":"user","content":"relative paths are kept absolute","timestamp":"2026-07-17T09:00:00Z"}
{"session_id":"r1","role":"assistant","content":"from any folder","timestamp":"2026-07-17T09:00:05Z"}
`

// TestRelativePathsKeptAbsolute: `import jsonl demo/a.jsonl` records the
// file by its absolute path, so run from another folder nothing is "gone";
// a record an older recall kept as typed moves to the absolute path where
// it resolves from the folder of the next import (or when the file is
// imported again by any path), nothing imported twice, and from elsewhere
// it is never counted as gone. Before: `stats` in another folder counted
// every session of `import jsonl assets/demo/*.jsonl` as deleted.
func TestRelativePathsKeptAbsolute(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	demo := filepath.Join(root, "demo")
	os.MkdirAll(demo, 0o755)
	file := filepath.Join(demo, "a.jsonl")
	if err := os.WriteFile(file, []byte(relJSONL), 0o644); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	src := mustSource(t, "jsonl")

	t.Run("new import", func(t *testing.T) {
		st := it.Open(t)
		t.Chdir(root)
		if rep := runSource(t, st, src, filepath.Join("demo", "a.jsonl")); rep.Messages != 2 {
			t.Fatalf("%+v", rep)
		}
		files, err := st.ImportFiles(ctx)
		if err != nil || len(files) != 1 || files[0].Path != file {
			t.Fatalf("recorded %+v, %v; want %s", files, err, file)
		}
		t.Chdir(elsewhere)
		if n, err := st.SessionsSourceGone(ctx); err != nil || n != 0 {
			t.Errorf("from another folder: %d gone, %v", n, err)
		}
	})

	// An older recall's record: the relative path as typed.
	older := func(t *testing.T) *store.Store {
		st := it.Open(t)
		t.Chdir(root)
		runSource(t, st, src, file)
		err := st.Write(ctx, func(tx *store.Tx) error { return tx.MoveImportFile(file, filepath.Join("demo", "a.jsonl")) })
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(elsewhere)
		if n, err := st.SessionsSourceGone(ctx); err != nil || n != 0 {
			t.Errorf("a relative record from another folder: %d gone, %v", n, err)
		}
		return st
	}
	recorded := func(t *testing.T, st *store.Store) string {
		files, err := st.ImportFiles(ctx)
		if err != nil || len(files) != 1 {
			t.Fatalf("%+v, %v", files, err)
		}
		return files[0].Path
	}
	t.Run("moved where it resolves", func(t *testing.T) {
		st := older(t)
		if err := importer.AbsolutePaths(ctx, st); err != nil || recorded(t, st) != filepath.Join("demo", "a.jsonl") {
			t.Fatalf("from a folder it does not resolve in: %s, %v", recorded(t, st), err)
		}
		t.Chdir(root)
		if err := importer.AbsolutePaths(ctx, st); err != nil || recorded(t, st) != file {
			t.Fatalf("from the folder it was typed in: %s, %v", recorded(t, st), err)
		}
	})
	t.Run("adopted when imported again", func(t *testing.T) {
		st := older(t)
		t.Chdir(root)
		if rep := runSource(t, st, src, file); rep.Messages != 0 || rep.Unchanged != 1 {
			t.Errorf("imported again by its absolute path: %+v, want it unchanged", rep)
		}
		if got := recorded(t, st); got != file {
			t.Errorf("recorded as %s", got)
		}
		if d := it.Dump(t, st); it.Count(d) != 2 || !strings.Contains(d["r1"].Msgs[0].Content, "absolute") {
			t.Errorf("%d messages", it.Count(d))
		}
	})
}
