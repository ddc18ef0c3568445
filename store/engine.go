package store

import (
	"context"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/rowcache"
)

// The search engine (store/engine/...) reads the database through a narrow
// view: one reader connection at a time (engine.Conn, below) and what this
// file has (engine.Layout). It never writes, and it imports nothing of the
// store.

// Query runs sql and calls row for each result row (engine.Conn).
func (c *conn) Query(sql string, args []any, row func(st *sqlite3.Stmt) error) error {
	return c.query(sql, args, row)
}

// ScalarInt returns the first column of the first row (engine.Conn).
func (c *conn) ScalarInt(sql string, args ...any) (int64, bool, error) {
	return c.scalarInt(sql, args...)
}

// ScalarText returns the first column of the first row as text (engine.Conn).
func (c *conn) ScalarText(sql string, args ...any) (string, bool, error) {
	return c.scalarText(sql, args...)
}

// Prepare returns a cached statement, reset, bindings cleared (engine.Conn).
func (c *conn) Prepare(sql string) (*sqlite3.Stmt, error) { return c.prepare(sql) }

// Snapshot runs fn inside one read transaction (engine.Conn).
func (c *conn) Snapshot(fn func() error) error { return c.snapshot(fn) }

// SQLite is the connection itself (engine.Conn).
func (c *conn) SQLite() *sqlite3.Conn { return c.db }

// engineLayout is what the engine needs to know of this file's layout.
func (l layout) engineLayout() engine.Layout {
	el := engine.Layout{
		HasFTS: l.hasFTS, FTSMultiCol: l.ftsMultiCol, HasTrigram: l.hasTrigram, HasCJK: l.hasCJK,
		FTSStale: l.ftsStale, FTSContentOnly: l.ftsContentOnly,
		UnindexedFrom: l.unindexedFrom, UnindexedTo: l.unindexedTo,
		HasTitle: l.sessionCols["title"], TitleCol: l.sessionCol("title", "NULL"), CwdCol: l.sessionCol("cwd", "NULL"),
		DisplayKindCol: l.messageCol("display_kind", "NULL"), Visible: l.visibleMessage(),
		Unsearched:    l.unsearchedMessage(),
		MachineClause: l.machineClause,
	}
	if l.hasTrigram && l.hasImportMeta {
		el.TrigramFromKey, el.TrigramToKey = metaTrigramFrom, metaTrigramTo
	}
	if l.messageCols["display_kind"] {
		el.AgentWritten = "COALESCE(m.display_kind, '') IN ('" + DisplayKindAgent + "', '" + DisplayKindCompaction + "')"
	}
	return el
}

func init() {
	// The ranking caches' files live in recall's cache directory, beside
	// SQLite's compiled code.
	rowcache.Dir = cacheDir("RECALL_RANK_CACHE", "rank")
}

// engineDB lends the engine a reader connection (engine.Conn) for a read.
type engineDB struct{ s *Store }

// Read runs fn on a reader connection (Store.read).
func (d engineDB) Read(ctx context.Context, fn func(c engine.Conn) error) error {
	return d.s.read(ctx, func(c *conn) error { return fn(c) })
}

// SearchMessages finds messages matching a user query, as typed. Malformed
// syntax is never an error: it is repaired into the nearest valid query,
// and a hostile one is cut down with a Notice. Only cancellation and I/O
// errors are returned. The search engine (store/engine/pipeline, its
// stages beside it) answers; its plan (store/engine/plan) says which index
// answers which query.
func (s *Store) SearchMessages(ctx context.Context, query string, f SearchFilter) (SearchResult, error) {
	return s.engine.Search(ctx, query, f)
}

// Warm reads, once, what ranking over every match keeps in memory: the
// main index's row lengths and the map of messages to sessions (about a
// second per million messages). A long-running reader (the TUI, the MCP
// server) calls it in the background at start, so that its first search
// does not pay for it; a one-shot command lets its first search do it.
// Errors are left to that search, which reports them.
func (s *Store) Warm(ctx context.Context) { s.engine.Warm(ctx) }
