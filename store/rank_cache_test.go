package store

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestRankCacheAcrossProcesses: a store opened after another filled the
// ranking caches starts from their files and reads none of the rows they
// hold, answers the same, and a database replaced by another file (a new
// inode) is never answered from the old one's files.
func TestRankCacheAcrossProcesses(t *testing.T) {
	if fileID(os.DevNull) == "" {
		t.Skip("no file identity on this system")
	}
	defer func(d string, n int64) { RankCacheDir, rankCacheMinRows = d, n }(RankCacheDir, rankCacheMinRows)
	RankCacheDir, rankCacheMinRows = t.TempDir(), 100
	first := fullRankCorpus(t, 2000)
	path := first.Path()
	plain := SearchFilter{Phase: PhaseFinal, Limit: 300, Sessions: true}
	msgs := SearchFilter{Phase: PhaseFinal, Limit: 10}
	wantPlain, wantMsgs := hitIDs(search(t, first, "error deploy", plain)), hitIDs(search(t, first, "error", msgs))
	files, _ := filepath.Glob(filepath.Join(RankCacheDir, "*"))
	if len(files) != 2 {
		t.Fatalf("cache files %v, want the lengths and the sessions", files)
	}
	first.Close()

	before := rowsFilled.Load()
	second := mustOpenPath(t, path, Options{})
	if got := hitIDs(search(t, second, "error deploy", plain)); !slices.Equal(got, wantPlain) {
		t.Errorf("plain sessions from the cache files differ: %v, want %v", got[:min(5, len(got))], wantPlain[:5])
	}
	if got := hitIDs(search(t, second, "error", msgs)); !slices.Equal(got, wantMsgs) {
		t.Errorf("messages from the cache files differ: %v, want %v", got, wantMsgs)
	}
	if n := rowsFilled.Load() - before; n != 0 {
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
	before = rowsFilled.Load()
	third := mustOpenPath(t, path, Options{})
	search(t, third, "error", msgs)
	if rowsFilled.Load()-before < 1000 {
		t.Error("a replaced database file was answered from the old file's cache")
	}
}

// The cache bodies read back what was written, and a damaged or cut file
// is refused (the rows are read instead), never half-read.
func TestRankCacheBodies(t *testing.T) {
	lens := lensFile{UpTo: 4, Lens: []uint32{0, 7, 1 << 31, 3, 12}}
	sess := sessionsFile{UpTo: 3, SessUpTo: 2, Of: []int32{-1, 0, 1, 1}, At: []int32{0, 1700000000, -5, 1700000300},
		IDs: []string{"a", "b"}, Titles: []string{"Fix 部署", ""}, Started: []float64{1.5, 2}, First: []int64{1, 2}}
	for _, tc := range []struct {
		name string
		in   interface {
			MarshalBinary() ([]byte, error)
		}
		out func() interface{ UnmarshalBinary([]byte) error }
	}{
		{"lens", &lens, func() interface{ UnmarshalBinary([]byte) error } { return &lensFile{} }},
		{"sessions", &sess, func() interface{ UnmarshalBinary([]byte) error } { return &sessionsFile{} }},
	} {
		b, err := tc.in.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got := tc.out()
		if err := got.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(got, tc.in) {
			t.Fatalf("%s: read back %+v (%v), wrote %+v", tc.name, got, err, tc.in)
		}
		for cut := 0; cut < len(b); cut++ {
			if tc.out().UnmarshalBinary(b[:cut]) == nil {
				t.Fatalf("%s cut to %d of %d bytes: read as whole", tc.name, cut, len(b))
			}
		}
	}
}
