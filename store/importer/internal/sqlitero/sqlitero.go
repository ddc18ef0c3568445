// Package sqlitero reads another application's SQLite database while that
// application may be writing it: opened read-only (never created or
// written, no schema set up, no lock kept between statements), the WAL
// included in change detection, and a database caught busy or mid-write
// passed over until the next run instead of failing the import. Every
// importer of an app's database shares it: Hermes's state.db, OpenCode's
// and Kilo's databases, Crush, Goose, Cursor and cursor-agent.
package sqlitero

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// busyWait is how long a reader waits for a writer's lock.
var busyWait = 5 * time.Second

// DB is a read-only connection.
type DB struct {
	conn *sqlite3.Conn
}

// Open opens path read-only. It never creates the file (a missing file is
// an error, not a busy database) and never writes it; readers wait up to
// 5 s for a checkpoint or a recovery holding the WAL index, as the apps'
// own readers do.
func Open(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	if err := conn.BusyTimeout(busyWait); err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetInterrupt(ctx)
	return &DB{conn: conn}, nil
}

// Close closes the connection.
func (db *DB) Close() error { return db.conn.Close() }

// Retry reports whether err means the database was busy, locked or not yet
// whole (an app creating it or in the middle of writing or migrating it):
// the file is passed over this time and read again on the next run, which
// is no error.
func Retry(err error) bool {
	for _, code := range []sqlite3.ErrorCode{sqlite3.BUSY, sqlite3.LOCKED, sqlite3.NOTADB, sqlite3.CORRUPT, sqlite3.CANTOPEN, sqlite3.PROTOCOL} {
		if errors.Is(err, code) {
			return true
		}
	}
	return false
}

// Row is the current row of a query. Its statement's Column methods are
// at hand too, for callers that read the row the sqlite3 way.
type Row struct{ *sqlite3.Stmt }

// Text is column i as text ("" for NULL).
func (r Row) Text(i int) string { return r.ColumnText(i) }

// Int is column i as an integer (0 for NULL).
func (r Row) Int(i int) int64 { return r.ColumnInt64(i) }

// Float is column i as a real (0 for NULL).
func (r Row) Float(i int) float64 { return r.ColumnFloat(i) }

// Null reports whether column i is NULL.
func (r Row) Null(i int) bool { return r.ColumnType(i) == sqlite3.NULL }

// Query runs sql with args (string, int, int64) and calls row for each row.
func (db *DB) Query(sql string, args []any, row func(Row) error) error {
	st, _, err := db.conn.Prepare(sql)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, a := range args {
		switch v := a.(type) {
		case string:
			err = st.BindText(i+1, v)
		case int64:
			err = st.BindInt64(i+1, v)
		case int:
			err = st.BindInt64(i+1, int64(v))
		default:
			err = fmt.Errorf("bind %T", a)
		}
		if err != nil {
			return err
		}
	}
	for st.Step() {
		if err := row(Row{st}); err != nil {
			return err
		}
	}
	return st.Err()
}

// Read runs fn in one read transaction, so every query sees the same
// snapshot of a database being written; the transaction holds no lock a
// WAL writer waits for and ends before Read returns.
func (db *DB) Read(fn func() error) error {
	if err := db.conn.Exec("BEGIN"); err != nil {
		return err
	}
	err := fn()
	if rerr := db.conn.Exec("ROLLBACK"); err == nil && rerr != nil {
		err = rerr
	}
	return err
}

// Columns lists a table's columns, lower-cased; empty when it does not exist.
func (db *DB) Columns(table string) (map[string]bool, error) {
	cols := map[string]bool{}
	err := db.Query("SELECT name FROM pragma_table_info(?)", []any{table}, func(r Row) error {
		cols[strings.ToLower(r.Text(0))] = true
		return nil
	})
	return cols, err
}
