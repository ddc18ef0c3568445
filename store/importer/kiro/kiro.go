// Package kiro imports Kiro CLI chats (kiro-cli, the successor of Amazon Q
// Developer CLI, whose conversation format it keeps).
//
// kiro-cli keeps its conversations in ${XDG_DATA_HOME:-~/.local/share}/kiro-cli/data.sqlite3
// (macOS: ~/Library/Application Support/kiro-cli/data.sqlite3), table
// conversations_v2 (key: the working directory, conversation_id, value: the
// ConversationState as JSON, created_at and updated_at in ms; one row per
// conversation and directory, so a directory holds many conversations). The
// database is opened read-only (sqlitero) and never altered.
package kiro

import (
	"context"
	"fmt"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/qconv"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Kiro CLI chats.
const SourceName = "kiro"

func init() { importer.Register(&Source{}, "kiro-cli") }

// Source imports Kiro CLI's data.sqlite3. Its zero value is ready.
type Source struct{}

// Name is "kiro".
func (*Source) Name() string { return SourceName }

// DefaultPaths is kiro-cli's data folder.
func (*Source) DefaultPaths() []string {
	return qconv.DataDirs("kiro-cli")
}

// Discover returns named files, and data.sqlite3 in each named folder.
func (*Source) Discover(paths []string) ([]string, error) { return qconv.DiscoverDB(paths) }

// Import brings the copy of one data.sqlite3 up to date: conversations_v2,
// or the older conversations table of a database Kiro migrated from Amazon Q.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
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
