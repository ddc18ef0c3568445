// Package kiro imports Kiro's chats from the three stores its CLI and IDE
// write (Kiro is closed source; the shapes are from public readers, named
// in FORMATS.md and the fixtures' manifests):
//
//   - kiro-cli's SQLite database ${XDG_DATA_HOME:-~/.local/share}/kiro-cli/data.sqlite3
//     (macOS: ~/Library/Application Support/kiro-cli/data.sqlite3), table
//     conversations_v2 (key: the working directory, conversation_id, value:
//     the ConversationState as JSON, created_at and updated_at in ms), opened
//     read-only (sqlitero) and never altered;
//   - kiro-cli's session journals ${KIRO_HOME:-~/.kiro}/sessions/cli/<id>.jsonl,
//     one {"version", "kind", "data"} record per line, with the <id>.json
//     beside it (cwd, title, times, model, the turns' token counts);
//   - the session store Kiro IDE 1.0 and later kiro-cli builds share,
//     ${KIRO_HOME:-~/.kiro}/sessions/<workspace hash>/sess_<id>/messages.jsonl,
//     one {"id", "timestamp", "payload": {"type", ...}} per line, with
//     session.json beside it.
//
// One conversation is one session: kiro-cli keeps a conversation it journals
// in data.sqlite3 too, so the journal (every line as written, thinking
// included) is read and the database's copy of that conversation left alone.
package kiro

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/qconv"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Kiro chats.
const SourceName = "kiro"

func init() { importer.Register(&Source{}, "kiro-cli", "kiro-ide") }

// Source imports Kiro's three stores. Its zero value is ready.
type Source struct{}

// Name is "kiro".
func (*Source) Name() string { return SourceName }

// DefaultPaths are kiro-cli's data folder and Kiro's sessions folder.
func (*Source) DefaultPaths() []string {
	paths := qconv.DataDirs("kiro-cli")
	if home := importer.HomeDir("KIRO_HOME", ".kiro"); home != "" {
		paths = append(paths, filepath.Join(home, "sessions"))
	}
	return paths
}

// dbName is kiro-cli's database.
const dbName = "data.sqlite3"

// Discover returns named files, and under each named folder data.sqlite3,
// the CLI journals (<id>.jsonl in a folder named cli) and the shared
// store's sess_<id>/messages.jsonl.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, nil, func(path, name string) {
		if kindOf(path) != "" {
			found = append(found, path)
		}
	})
	sort.Strings(found)
	return append(named, found...), err
}

// kindOf says which store a file is: "db", "cli", "v3" or "" (none).
func kindOf(path string) string {
	name, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case name == dbName:
		return "db"
	case name == "messages.jsonl" && strings.HasPrefix(dir, "sess_"):
		return "v3"
	case dir == "cli" && strings.HasSuffix(name, ".jsonl"):
		return "cli"
	}
	return ""
}

// Import brings one file up to date: a database, a CLI journal or a
// session of the shared store. A named file of another name is read by its
// contents: SQLite is a database, anything else a CLI journal.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	switch kind := kindOf(file); {
	case kind == "v3":
		return importV3(ctx, st, file)
	case kind == "cli":
		return importCLI(ctx, st, file)
	case kind == "db" || isSQLite(file):
		return importDB(ctx, st, file)
	}
	if strings.HasSuffix(file, ".jsonl") {
		return importCLI(ctx, st, file)
	}
	return importer.Report{}, fmt.Errorf("%s is not a Kiro file (data.sqlite3, sessions/cli/<id>.jsonl or sess_<id>/messages.jsonl)", file)
}

// importDB brings the copy of one data.sqlite3 up to date: conversations_v2,
// or the older conversations table of a database Kiro migrated from Amazon
// Q. A conversation journalled under sessions/cli is left to its journal.
func importDB(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("conversations_v2")
		if err != nil {
			return nil, err
		}
		if cols["conversation_id"] && cols["value"] {
			return &qconv.Reader{DB: db, Source: SourceName, Table: "conversations_v2"}, nil
		}
		if cols, err = db.Columns("conversations"); err == nil && cols["value"] {
			return &qconv.Reader{DB: db, Source: SourceName, Table: "conversations"}, nil
		}
		return nil, fmt.Errorf("%s is not a Kiro CLI data.sqlite3 (no conversations_v2 table)", file)
	})
}

// isSQLite reports whether file starts with SQLite's header.
func isSQLite(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [16]byte
	_, err = io.ReadFull(f, head[:])
	return err == nil && string(head[:]) == "SQLite format 3\x00"
}
