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

// detectSQLite names a SQLite database by its tables; a database it cannot
// read, or one with none of these tables, is taken for Hermes's, as before.
func detectSQLite(path string) Format {
	db, err := sqlitero.Open(context.Background(), path)
	if err != nil {
		return FormatHermes
	}
	defer db.Close()
	has := func(table, col string) bool {
		cols, err := db.Columns(table)
		return err == nil && cols[col]
	}
	switch {
	case has("cursorDiskKV", "key"):
		return FormatCursor
	case has("messages", "parts"):
		return FormatCrush
	case has("messages", "content_json"):
		return FormatGoose
	case has("blobs", "data") && has("meta", "value"):
		return FormatCursorAgent
	case has("threads", "data_type"):
		return FormatZed
	case has("agent_conversations", "conversation_data") || has("ai_queries", "exchange_id"):
		return FormatWarp
	case has("message_nodes", "chat_message"):
		return FormatDevin
	}
	return FormatHermes
}
