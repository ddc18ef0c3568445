package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/recall-dev/recall/store/engine/rowcache"
)

// TestRankCacheAcrossProcesses: a store opened after another filled the
// ranking caches starts from their files and reads none of the rows they
// hold, answers the same, and a database replaced by another file (a new
// inode) is never answered from the old one's files.
func TestRankCacheAcrossProcesses(t *testing.T) {
	if rowcache.FileID(os.DevNull) == "" {
		t.Skip("no file identity on this system")
	}
	defer func(d string, n int64) { rowcache.Dir, rowcache.MinRows = d, n }(rowcache.Dir, rowcache.MinRows)
	rowcache.Dir, rowcache.MinRows = t.TempDir(), 100
	first := fullRankCorpus(t, 2000)
	path := first.Path()
	plain := SearchFilter{Phase: PhaseFinal, Limit: 300, Sessions: true}
	msgs := SearchFilter{Phase: PhaseFinal, Limit: 10}
	wantPlain, wantMsgs := hitIDs(search(t, first, "error deploy", plain)), hitIDs(search(t, first, "error", msgs))
	files, _ := filepath.Glob(filepath.Join(rowcache.Dir, "*"))
	if len(files) != 2 {
		t.Fatalf("cache files %v, want the lengths and the sessions", files)
	}
	first.Close()

	before := rowcache.RowsFilled.Load()
	second := mustOpenPath(t, path, Options{})
	if got := hitIDs(search(t, second, "error deploy", plain)); !slices.Equal(got, wantPlain) {
		t.Errorf("plain sessions from the cache files differ: %v, want %v", got[:min(5, len(got))], wantPlain[:5])
	}
	if got := hitIDs(search(t, second, "error", msgs)); !slices.Equal(got, wantMsgs) {
		t.Errorf("messages from the cache files differ: %v, want %v", got, wantMsgs)
	}
	if n := rowcache.RowsFilled.Load() - before; n != 0 {
		t.Errorf("a process starting from the cache files read %d rows", n)
	}
	second.Close()

	// The same path, another file: the files are not used.
	copyFile(t, path, path+".new")
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	before = rowcache.RowsFilled.Load()
	third := mustOpenPath(t, path, Options{})
	search(t, third, "error", msgs)
	if rowcache.RowsFilled.Load()-before < 1000 {
		t.Error("a replaced database file was answered from the old file's cache")
	}
}
