package store

import (
	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
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
func (c *conn) ScalarInt(sql string, args ...any) (int64, bool, error) { return c.scalarInt(sql, args...) }

// ScalarText returns the first column of the first row as text (engine.Conn).
func (c *conn) ScalarText(sql string, args ...any) (string, bool, error) {
	return c.scalarText(sql, args...)
}

// Prepare returns a cached statement, reset, bindings cleared (engine.Conn).
func (c *conn) Prepare(sql string) (*sqlite3.Stmt, error) { return c.prepare(sql) }

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
	}
	if l.hasTrigram && l.hasImportMeta {
		el.TrigramFromKey, el.TrigramToKey = metaTrigramFrom, metaTrigramTo
	}
	return el
}
