package sqlitero

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// hostile writes a database with table t of 3000 rows, plus the objects
// of ddl.
func hostile(t *testing.T, ddl string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crush.db")
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Exec(`CREATE TABLE t (a TEXT);
		WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO t SELECT i FROM n;` + ddl); err != nil {
		t.Fatal(err)
	}
	return path
}

func readAll(t *testing.T, path, sql string) (int, time.Duration, error) {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	t0 := time.Now()
	err = db.Read(func() error {
		return db.Query(sql, nil, func(Row) error { n++; return nil })
	})
	return n, time.Since(t0), err
}

// TestBoundedReads: a read of another program's database stops, with a
// BoundError naming why, at a view (here over an endless recursive CTE, as
// a hostile crush.db's messages), a virtual table, a recursive query, too
// many rows and too much time; an ordinary table reads as before.
func TestBoundedReads(t *testing.T) {
	oldBase, oldRows := readBase, maxRows
	readBase, maxRows = 300*time.Millisecond, 1000
	t.Cleanup(func() { readBase, maxRows = oldBase, oldRows })
	for _, c := range []struct {
		name, ddl, sql, why string
	}{
		{"recursive view", `CREATE VIEW messages AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i AS id, 'x' AS parts, 's' AS session_id FROM r`,
			`SELECT id, parts FROM messages WHERE session_id = 's'`, "recursive"},
		{"plain view", `CREATE VIEW messages AS SELECT a AS parts FROM t`, `SELECT parts FROM messages`, "messages is a view"},
		{"virtual table", `CREATE VIRTUAL TABLE messages USING fts5(parts)`, `SELECT parts FROM messages`, "messages is a virtual table"},
		{"recursive query", ``, `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 5) SELECT i FROM r`, "recursive"},
		{"rows", ``, `SELECT a FROM t`, "more than 1000 rows"},
		{"time", ``, `SELECT count(*) FROM t a, t b, t c`, "took longer than 0s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := hostile(t, c.ddl)
			_, took, err := readAll(t, path, c.sql)
			var be *BoundError
			if !errors.As(err, &be) || !strings.Contains(be.Why, c.why) || be.Path != path {
				t.Fatalf("%v, want a BoundError about %q", err, c.why)
			}
			if took > 5*time.Second {
				t.Errorf("stopped after %s", took)
			}
		})
	}
	// Columns, which every importer asks first, names what a table is not.
	for ddl, want := range map[string]string{
		`CREATE VIEW messages AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i AS parts FROM r`: "messages is a view, where the app writes a table: not read",
		`CREATE VIRTUAL TABLE messages USING fts5(parts)`:                                                                  "messages is a virtual table, where the app writes a table: not read",
	} {
		db, err := Open(context.Background(), hostile(t, ddl))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Columns("messages"); err == nil || err.Error() != want || !IsBound(err) {
			t.Errorf("Columns: %v, want %q", err, want)
		}
		if cols, err := db.Columns("t"); err != nil || !cols["a"] {
			t.Errorf("Columns of a table: %v, %v", cols, err)
		}
		db.Close()
	}
	// Within the bounds, reads are as they were.
	if n, _, err := readAll(t, hostile(t, ``), `SELECT a FROM t WHERE rowid <= 1000`); err != nil || n != 1000 {
		t.Errorf("an ordinary read: %d rows, %v", n, err)
	}
	// The caller's own cancel is no bound.
	db, err := Open(context.Background(), hostile(t, ``))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	db.ctx = ctx
	cancel()
	if err := db.Query(`SELECT count(*) FROM t a, t b`, nil, func(Row) error { return nil }); !errors.Is(err, sqlite3.INTERRUPT) || IsBound(err) {
		t.Errorf("cancelled: %v, want INTERRUPT", err)
	}
}
