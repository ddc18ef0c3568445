// Package sqlitero reads another application's SQLite database while that
// application may be writing it: opened read-only (never created or
// written, no schema set up, no lock kept between statements), the WAL
// included in change detection, and a database caught busy or mid-write
// passed over until the next run instead of failing the import. Every
// importer of an app's database shares it: Hermes's state.db, OpenCode's
// and Kilo's databases, Crush, Goose, Cursor and cursor-agent.
//
// Every read is bounded, since the file is the other program's (or
// anyone's): a database gets a time budget for all its reads (a base plus
// a rate by its size) enforced by SQLite's progress handler, a statement
// returns at most maxRows rows, and a statement that would read through a
// view, from a virtual table or with a recursive query is refused before
// it runs (an app writes its history to tables; a crush.db whose messages
// is a view over a recursive CTE spun forever).
package sqlitero

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// busyWait is how long a reader waits for a writer's lock.
var busyWait = 5 * time.Second

// The bounds of reading one database: every statement together may take
// readBase plus a second per readRate bytes of the file and its WAL (a
// real database is read far faster: Cursor's 2 GB state.vscdb in under a
// minute), and one statement returns at most maxRows rows.
var (
	readBase       = 60 * time.Second
	readRate int64 = 10 << 20
	maxRows        = 5_000_000
)

// DB is a read-only connection.
type DB struct {
	conn     *sqlite3.Conn
	path     string
	ctx      context.Context // the caller's: its end interrupts too
	budget   time.Duration   // for all reads, from Open
	deadline time.Time
	virtual  map[string]bool // the main schema's virtual tables, lower-cased
	refused  string          // why the authorizer refused the last statement
}

// BoundError is a read of another program's database that recall stopped:
// it took too long, returned too many rows, or would have read through a
// view or a virtual table where the app writes a table. The file is not
// read; the error says which bound it hit.
type BoundError struct {
	Path string
	Why  string
}

func (e *BoundError) Error() string { return e.Why }

// IsBound reports whether err is a BoundError.
func IsBound(err error) bool {
	var be *BoundError
	return errors.As(err, &be)
}

// Open opens path read-only. It never creates the file (a missing file is
// an error, not a busy database) and never writes it; readers wait up to
// 5 s for a checkpoint or a recovery holding the WAL index, as the apps'
// own readers do.
func Open(ctx context.Context, path string) (*DB, error) {
	sig, _, err := SignatureOf(path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, errors.Unwrap(err))
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, fmt.Errorf("open %s read-only: %w", path, err)
	}
	if err := conn.BusyTimeout(busyWait); err != nil {
		conn.Close()
		return nil, err
	}
	budget := readBase + time.Duration((sig.Size+sig.WalSize)/readRate)*time.Second
	db := &DB{conn: conn, path: path, ctx: ctx, budget: budget, deadline: time.Now().Add(budget)}
	conn.SetInterrupt(ctx)
	if err := conn.SetAuthorizer(db.authorize); err != nil {
		conn.Close()
		return nil, err
	}
	return db, nil
}

// authorize refuses what no importer's own SQL does and a hostile file
// can hide behind a table's name: reading through a view, from a virtual
// table (its module's code runs on every read), or with a recursive query.
func (db *DB) authorize(action sqlite3.AuthorizerActionCode, name3rd, _, schema, inner string) sqlite3.AuthorizerReturnCode {
	if db.refused != "" {
		return sqlite3.AUTH_DENY // the first reason stands
	}
	switch {
	case action == sqlite3.AUTH_RECURSIVE:
		db.refused = "a query in it is recursive (WITH RECURSIVE), which no app's history needs"
	case action == sqlite3.AUTH_READ && inner != "":
		db.refused = fmt.Sprintf("%s is a view, where the app writes a table", inner)
	case action == sqlite3.AUTH_READ && (schema == "main" || schema == "") && db.virtual[strings.ToLower(name3rd)]:
		db.refused = fmt.Sprintf("%s is a virtual table, where the app writes a table", name3rd)
	default:
		return sqlite3.AUTH_OK
	}
	return sqlite3.AUTH_DENY
}

// loadVirtual reads which tables of the main schema are virtual (once).
func (db *DB) loadVirtual() error {
	if db.virtual != nil {
		return nil
	}
	db.virtual = map[string]bool{}
	db.refused = ""
	st, _, err := db.conn.Prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		return db.explain(err)
	}
	defer st.Close()
	for st.Step() {
		db.virtual[strings.ToLower(st.ColumnText(0))] = true
	}
	return db.explain(st.Err())
}

// explain turns what a bound stopped into a BoundError.
func (db *DB) explain(err error) error {
	why := db.refused
	db.refused = ""
	switch {
	case err == nil:
		return nil
	case why != "":
		return &BoundError{Path: db.path, Why: why + ": not read"}
	case errors.Is(err, sqlite3.INTERRUPT) && db.ctx.Err() == nil:
		return &BoundError{Path: db.path, Why: fmt.Sprintf("reading it took longer than %s, far longer than an app's history takes: not read", db.budget.Round(time.Second))}
	}
	return err
}

// bounded runs fn with the connection interrupted at the deadline.
func (db *DB) bounded(fn func() error) error {
	ctx, cancel := context.WithDeadline(db.ctx, db.deadline)
	defer cancel()
	old := db.conn.SetInterrupt(ctx)
	defer db.conn.SetInterrupt(old)
	return db.explain(fn())
}

// Close closes the connection.
func (db *DB) Close() error { return db.conn.Close() }

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

// Query runs sql with args (string, int, int64) and calls row for each
// row, within the database's bounds.
func (db *DB) Query(sql string, args []any, row func(Row) error) error {
	return db.bounded(func() error {
		if err := db.loadVirtual(); err != nil {
			return err
		}
		return db.query(sql, args, row)
	})
}

func (db *DB) query(sql string, args []any, row func(Row) error) error {
	db.refused = ""
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
	for n := 1; st.Step(); n++ {
		if n > maxRows {
			return &BoundError{Path: db.path, Why: fmt.Sprintf("one query returned more than %d rows, more than an app's history holds: not read", maxRows)}
		}
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
	if err := db.bounded(func() error { return db.conn.Exec("BEGIN") }); err != nil {
		return err
	}
	err := fn()
	if rerr := db.conn.Exec("ROLLBACK"); err == nil && rerr != nil {
		err = rerr
	}
	return err
}

// Columns lists a table's columns, lower-cased; empty when it does not
// exist. A view or a virtual table of that name is refused (a BoundError):
// an app writes its history to tables, and reading anything else runs
// whatever the file's author put there.
func (db *DB) Columns(table string) (map[string]bool, error) {
	kind := ""
	err := db.Query("SELECT type FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE", []any{table}, func(r Row) error {
		kind = r.Text(0)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if kind != "" && kind != "table" {
		if kind == "virtual" {
			kind = "virtual table"
		}
		return nil, &BoundError{Path: db.path, Why: fmt.Sprintf("%s is a %s, where the app writes a table: not read", table, kind)}
	}
	cols := map[string]bool{}
	err = db.Query("SELECT name FROM pragma_table_info(?)", []any{table}, func(r Row) error {
		cols[strings.ToLower(r.Text(0))] = true
		return nil
	})
	return cols, err
}
