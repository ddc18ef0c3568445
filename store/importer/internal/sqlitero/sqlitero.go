// Package sqlitero reads another application's SQLite database while that
// application may be writing it: opened read-only (never written, no schema
// set up, no lock kept between statements), the WAL included, as
// store/importer/hermes reads a Hermes state.db. The sources that keep their
// history in SQLite (Crush, Goose, Cursor) share it.
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

// DB is a read-only connection.
type DB struct {
	conn *sqlite3.Conn
	path string
}

// Open opens path read-only. Readers wait up to 5 s for a checkpoint or a
// recovery holding the WAL index, as the apps' own readers do.
func Open(ctx context.Context, path string) (*DB, error) {
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	if err := conn.BusyTimeout(5 * time.Second); err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetInterrupt(ctx)
	return &DB{conn: conn, path: path}, nil
}

// Close closes the connection.
func (db *DB) Close() error { return db.conn.Close() }

// Retry reports whether err means the database was busy, locked or not yet
// whole (an app creating it or in the middle of writing): the file is
// passed over this time and read again on the next run, which is no error.
func Retry(err error) bool {
	for _, code := range []sqlite3.ErrorCode{sqlite3.BUSY, sqlite3.LOCKED, sqlite3.NOTADB, sqlite3.CORRUPT, sqlite3.CANTOPEN, sqlite3.PROTOCOL} {
		if errors.Is(err, code) {
			return true
		}
	}
	return false
}

// Row reads the columns of the current row.
type Row struct{ st *sqlite3.Stmt }

// Text is column i as text ("" for NULL).
func (r Row) Text(i int) string { return r.st.ColumnText(i) }

// Int is column i as an integer (0 for NULL).
func (r Row) Int(i int) int64 { return r.st.ColumnInt64(i) }

// Float is column i as a real (0 for NULL).
func (r Row) Float(i int) float64 { return r.st.ColumnFloat(i) }

// Null reports whether column i is NULL.
func (r Row) Null(i int) bool { return r.st.ColumnType(i) == sqlite3.NULL }

// Query runs sql with args (text or integers) and calls row for each row.
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

// Columns lists a table's columns, lower-cased; empty when it does not exist.
func (db *DB) Columns(table string) (map[string]bool, error) {
	cols := map[string]bool{}
	err := db.Query("SELECT name FROM pragma_table_info(?)", []any{table}, func(r Row) error {
		cols[strings.ToLower(r.Text(0))] = true
		return nil
	})
	return cols, err
}

// Signature is the on-disk state of a database: its file and its WAL
// (where writes land until a checkpoint). Equal signatures mean nothing
// changed.
func Signature(path string) (string, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", nil, fmt.Errorf("stat %s: %w", path, err)
	}
	sig := fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
	// An empty WAL holds nothing (a reader may create it): as absent.
	if wi, err := os.Stat(path + "-wal"); err == nil && wi.Size() > 0 {
		sig += fmt.Sprintf("+%d/%d", wi.Size(), wi.ModTime().UnixNano())
	}
	return sig, fi, nil
}
