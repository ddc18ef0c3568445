// Package sqlro opens another program's SQLite database for reading while
// that program may be writing it (OpenCode's opencode.db, Kilo's kilo.db):
// read-only, no schema work, no lock held between statements, WAL-aware
// change detection, and "try again next run" for a database caught
// mid-write instead of an import error. It is the Hermes importer's way of
// opening state.db (store/importer/hermes/source.go), shared.
package sqlro

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// ErrBusy wraps a failure that a later run may not meet: the database is
// locked by its writer, half-written, or in the middle of a migration.
// Importers report it as "retried next run", never as a failed file, and
// keep their previous bookkeeping so the next run reads it again.
var ErrBusy = errors.New("database busy or mid-write, retried next run")

// busyWait is how long a reader waits for a writer's lock.
var busyWait = 5 * time.Second

// DB is a read-only connection.
type DB struct {
	conn *sqlite3.Conn
}

// Open opens path read-only. It never creates the file and never writes it;
// readers wait up to 5 s for the writer's checkpoint or recovery, as the
// agents' own readers do.
func Open(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, classify(fmt.Errorf("open %s read-only: %w", path, err))
	}
	if err := conn.BusyTimeout(busyWait); err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetInterrupt(ctx)
	return &DB{conn: conn}, nil
}

// Close closes the connection.
func (d *DB) Close() error { return d.conn.Close() }

// Query runs sql with args (string, int, int64) and calls row for each row.
// A busy, locked or malformed database comes back wrapped in ErrBusy.
func (d *DB) Query(sql string, args []any, row func(st *sqlite3.Stmt) error) error {
	st, _, err := d.conn.Prepare(sql)
	if err != nil {
		return classify(err)
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
		if err := row(st); err != nil {
			return err
		}
	}
	return classify(st.Err())
}

// Read runs fn in one read transaction, so every query sees the same
// snapshot of a database being written; the transaction holds no lock a
// WAL writer waits for and ends before Read returns.
func (d *DB) Read(fn func() error) error {
	if err := d.conn.Exec("BEGIN"); err != nil {
		return classify(err)
	}
	err := fn()
	if rerr := d.conn.Exec("ROLLBACK"); err == nil && rerr != nil {
		err = classify(rerr)
	}
	return err
}

// Columns returns the lower-case column names of table (none when the
// table does not exist).
func (d *DB) Columns(table string) (map[string]bool, error) {
	cols := map[string]bool{}
	err := d.Query("SELECT name FROM pragma_table_info(?)", []any{table}, func(st *sqlite3.Stmt) error {
		cols[strings.ToLower(st.ColumnText(0))] = true
		return nil
	})
	return cols, err
}

// classify wraps the errors a writer in progress causes in ErrBusy.
func classify(err error) error {
	if err == nil {
		return nil
	}
	switch {
	case errors.Is(err, sqlite3.BUSY), errors.Is(err, sqlite3.LOCKED), errors.Is(err, sqlite3.CORRUPT),
		errors.Is(err, sqlite3.NOTADB), errors.Is(err, sqlite3.PROTOCOL), errors.Is(err, sqlite3.CANTOPEN):
		return fmt.Errorf("%w: %w", ErrBusy, err)
	}
	return err
}

// Signature is the on-disk state of a database: its file and its WAL
// (where a writer's changes land until a checkpoint).
type Signature struct {
	Size     int64 `json:"s"`
	MTime    int64 `json:"m"`
	WalSize  int64 `json:"ws,omitempty"`
	WalMTime int64 `json:"wm,omitempty"`
}

// SignatureOf stats path and its -wal. An empty WAL holds nothing (a
// reader may create it), so it counts as absent.
func SignatureOf(path string) (Signature, os.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Signature{}, nil, fmt.Errorf("stat %s: %w", path, err)
	}
	sig := Signature{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if wi, err := os.Stat(path + "-wal"); err == nil && wi.Size() > 0 {
		sig.WalSize, sig.WalMTime = wi.Size(), wi.ModTime().UnixNano()
	}
	return sig, fi, nil
}
