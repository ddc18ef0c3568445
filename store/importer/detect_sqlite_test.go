package importer_test

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestDetectSQLite: the agents' SQLite databases are named for what they
// are (before, every SQLite file was "a Hermes state.db", so a second
// `recall import crush crush.db`, with nothing new to import, was told to
// use `recall import hermes`).
func TestDetectSQLite(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		fixture string
		steps   []string
		want    importer.Format
	}{
		{"crush", []string{"schema.sql"}, importer.FormatCrush},
		{"goose", []string{"schema.sql"}, importer.FormatGoose},
		{"cursor", []string{"schema.sql"}, importer.FormatCursor},
		{"cursoragent", []string{"store.sql"}, importer.FormatCursorAgent},
		{"hermes", []string{"schema.sql"}, importer.FormatHermes},
	} {
		path := filepath.Join(dir, tc.fixture+".db")
		it.LiveDB(t, path, it.Fixtures(t, tc.fixture), tc.steps...)
		if got := importer.Detect(path); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.fixture, got.What, tc.want.What)
		}
	}
}
