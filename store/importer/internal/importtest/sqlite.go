package importtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// LiveDB creates the SQLite database path the way a running app has it:
// WAL mode, the rows not checkpointed, the writer connection left open
// (returned; closed when the test ends). Each step is SQL, or the name of
// a .sql file in the fixture folder dir.
func LiveDB(t testing.TB, path, dir string, steps ...string) *sqlite3.Conn {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	steps = append([]string{"PRAGMA journal_mode=WAL", "PRAGMA wal_autocheckpoint=0"}, steps...)
	for _, s := range steps {
		sql := s
		if strings.HasSuffix(s, ".sql") {
			b, err := os.ReadFile(filepath.Join(dir, s))
			if err != nil {
				t.Fatal(err)
			}
			sql = string(b)
		}
		if err := w.Exec(sql); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return w
}
