package engine

import "github.com/ncruces/go-sqlite3"

// Conn is what the engine needs of one reader connection: its statements
// and the connection itself (for its interrupt context and transaction
// state). The store's reader connections are Conns; the engine never
// writes through one.
type Conn interface {
	// Query runs sql with args bound by Go type (string, int, int64,
	// float64, bool, []byte, time.Time as Unix seconds, nil) and calls row
	// for each result row.
	Query(sql string, args []any, row func(st *sqlite3.Stmt) error) error
	// ScalarInt returns the first column of the first row; ok is false when there was no row.
	ScalarInt(sql string, args ...any) (v int64, ok bool, err error)
	// ScalarText is ScalarInt for a text column.
	ScalarText(sql string, args ...any) (v string, ok bool, err error)
	// Prepare returns a cached statement, reset and with its bindings cleared.
	Prepare(sql string) (*sqlite3.Stmt, error)
	// Snapshot runs fn inside one read transaction: every statement of a
	// search sees the same state of the file, and the shared lock is taken
	// once.
	Snapshot(fn func() error) error
	// SQLite is the connection itself.
	SQLite() *sqlite3.Conn
}
