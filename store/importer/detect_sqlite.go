package importer

import (
	"context"

	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// The SQLite formats of the agents other than Hermes, told apart by their
// tables: a Crush, Goose or Cursor database given to another importer is
// named for what it is, not taken for a Hermes state.db.
var (
	FormatCrush       = Format{Source: "crush", Alias: "crush", What: "a Crush database (crush.db)"}
	FormatGoose       = Format{Source: "goose", Alias: "goose", What: "a Goose sessions.db"}
	FormatCursor      = Format{Source: "cursor", Alias: "cursor", What: "Cursor's state.vscdb"}
	FormatCursorAgent = Format{Source: "cursor-agent", Alias: "cursor-agent", What: "a cursor-agent store.db"}
	FormatZed         = Format{Source: "zed", Alias: "zed", What: "Zed's threads.db"}
	FormatWarp        = Format{Source: "warp", Alias: "warp", What: "Warp's warp.sqlite"}
	FormatDevin       = Format{Source: "devin", Alias: "devin", What: "the Devin CLI's sessions.db"}
)

// detectSQLite names a SQLite database by its tables; one with none of an
// agent's is taken for Hermes's, as before. A database it cannot read
// (locked by its app, refused by sqlitero's bounds) is the zero Format:
// no hint is better than a wrong one.
func detectSQLite(path string) Format {
	db, err := sqlitero.Open(context.Background(), path)
	if err != nil {
		return Format{}
	}
	defer db.Close()
	var readErr error
	has := func(table, col string) bool {
		if readErr != nil {
			return false
		}
		cols, err := db.Columns(table)
		readErr = err
		return err == nil && cols[col]
	}
	var f Format
	switch {
	case has("cursorDiskKV", "key"):
		f = FormatCursor
	case has("messages", "parts"):
		f = FormatCrush
	case has("messages", "content_json"):
		f = FormatGoose
	case has("blobs", "data") && has("meta", "value"):
		f = FormatCursorAgent
	case has("threads", "data_type"):
		f = FormatZed
	case has("agent_conversations", "conversation_data") || has("ai_queries", "exchange_id"):
		f = FormatWarp
	case has("message_nodes", "chat_message"):
		f = FormatDevin
	default:
		f = FormatHermes // as before: the SQLite database recall reads by default
	}
	if readErr != nil {
		return Format{}
	}
	return f
}
