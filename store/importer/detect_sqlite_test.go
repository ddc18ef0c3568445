package importer_test

import (
	"archive/zip"
	"os"
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
		{"zed", []string{"schema.sql"}, importer.FormatZed},
		{"warp", []string{"schema.sql"}, importer.FormatWarp},
		{"devin", []string{"schema.sql"}, importer.FormatDevin},
	} {
		path := filepath.Join(dir, tc.fixture+".db")
		it.LiveDB(t, path, it.Fixtures(t, tc.fixture), tc.steps...)
		if got := importer.Detect(path); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.fixture, got.What, tc.want.What)
		}
	}
}

// TestDetectExport: a data export given to the other web chat's importer
// is named for what it is, in its zip or as conversations.json.
func TestDetectExport(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    importer.Format
	}{
		{"chatgpt", importer.FormatChatGPT},
		{"claudeai", importer.FormatClaudeAI},
	} {
		file := filepath.Join(it.Fixtures(t, tc.fixture), "conversations.json")
		if got := importer.Detect(file); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.fixture, got.What, tc.want.What)
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		zipped := filepath.Join(t.TempDir(), "export.zip")
		f, _ := os.Create(zipped)
		zw := zip.NewWriter(f)
		w, _ := zw.Create("conversations.json")
		w.Write(raw)
		zw.Close()
		f.Close()
		if got := importer.Detect(zipped); got != tc.want {
			t.Errorf("%s zip: %q, want %q", tc.fixture, got.What, tc.want.What)
		}
	}
}
