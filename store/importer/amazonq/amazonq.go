// Package amazonq imports Amazon Q Developer CLI chats (aws/amazon-q-developer-cli).
//
// `q chat` keeps one conversation per working directory in its SQLite
// database ${XDG_DATA_HOME:-~/.local/share}/amazon-q/data.sqlite3 (macOS:
// ~/Library/Application Support/amazon-q/data.sqlite3), table
// conversations (key TEXT PRIMARY KEY: the directory, value TEXT: the
// ConversationState as JSON, replaced whole after each turn). The database
// is opened read-only (sqlitero) and never altered; a conversation is read
// again when its JSON changed.
package amazonq

import (
	"context"
	"fmt"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/qconv"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Amazon Q chats.
const SourceName = "amazon-q"

func init() { importer.Register(&Source{}, "q", "amazonq") }

// Source imports Amazon Q's data.sqlite3. Its zero value is ready.
type Source struct{}

// Name is "amazon-q".
func (*Source) Name() string { return SourceName }

// DefaultPaths is the data folder dirs::data_local_dir()/amazon-q
// (crates/chat-cli/src/util/paths.rs, database_path_static).
func (*Source) DefaultPaths() []string {
	return qconv.DataDirs("amazon-q")
}

// Discover returns named files, and data.sqlite3 in each named folder.
func (*Source) Discover(paths []string) ([]string, error) {
	return qconv.DiscoverDB(paths)
}

// Import brings the copy of one data.sqlite3 up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("conversations")
		if err != nil {
			return nil, err
		}
		if !cols["key"] || !cols["value"] {
			return nil, fmt.Errorf("%s is not an Amazon Q data.sqlite3 (no conversations table)", file)
		}
		return &qconv.Reader{DB: db, Source: SourceName, Table: "conversations"}, nil
	})
}
