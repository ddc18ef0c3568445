package importer_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestTornLineWhileWriting: the last line of a file an agent is writing
// right now is cut mid-record; it is left for the next import and is no
// problem of the file (the old code counted it malformed on every poll of
// `recall watch`). The same cut in a file untouched for an hour is a writer
// that stopped, and is reported.
func TestTornLineWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, []byte(`{"s":"a","t":"one"}`+"\n"+`{"s":"a","t":"tw`), 0o644); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	var seen []int
	rep := importToy(t, st, path, &seen)
	if rep.Messages != 1 || rep.Malformed != 0 || len(rep.Problems) != 0 {
		t.Errorf("being written: %+v", rep)
	}
	hour := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, hour, hour); err != nil {
		t.Fatal(err)
	}
	rep = importToy(t, st, path, &seen)
	if rep.Malformed != 1 || len(rep.Problems) != 1 || rep.Problems[0].Line != 2 {
		t.Errorf("untouched for an hour: %+v", rep)
	}
}
