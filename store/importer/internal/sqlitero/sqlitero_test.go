package sqlitero

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/embed"
)

func writer(t *testing.T, path string) *sqlite3.Conn {
	t.Helper()
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Exec(`CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')`); err != nil {
		t.Fatal(err)
	}
	return w
}

func count(t *testing.T, path string) (int, error) {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.Read(func() error {
		return db.Query("SELECT count(*) FROM t", nil, func(st Row) error {
			n = st.ColumnInt(0)
			return nil
		})
	})
	return n, err
}

// TestLockedIsBusy reads a database whose writer holds an exclusive lock
// (rollback journal): the error is BUSY (importer.PassOver defers it to the next run), and
// once the writer commits the read succeeds, without the reader having
// written anything.
func TestLockedIsBusy(t *testing.T) {
	old := busyWait
	busyWait = 50 * time.Millisecond
	t.Cleanup(func() { busyWait = old })
	path := filepath.Join(t.TempDir(), "a.db")
	w := writer(t, path)
	if err := w.Exec(`BEGIN EXCLUSIVE; INSERT INTO t VALUES ('y')`); err != nil {
		t.Fatal(err)
	}
	if _, err := count(t, path); !errors.Is(err, sqlite3.BUSY) {
		t.Fatalf("read under an exclusive lock: %v, want BUSY", err)
	}
	if err := w.Exec(`COMMIT`); err != nil {
		t.Fatal(err)
	}
	if n, err := count(t, path); err != nil || n != 2 {
		t.Fatalf("read after commit = %d, %v; want 2", n, err)
	}
}

// TestWALReadWhileWriting reads a WAL database while its writer holds a
// write transaction: the reader sees the last commit and does not wait.
func TestWALReadWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	w := writer(t, path)
	if err := w.Exec(`PRAGMA journal_mode=WAL; INSERT INTO t VALUES ('y'); BEGIN IMMEDIATE; INSERT INTO t VALUES ('z')`); err != nil {
		t.Fatal(err)
	}
	if n, err := count(t, path); err != nil || n != 2 {
		t.Fatalf("read during a write = %d, %v; want the 2 committed rows", n, err)
	}
	sig, _, err := SignatureOf(path)
	if err != nil || sig.WalSize == 0 {
		t.Errorf("signature %+v, %v: want the WAL counted", sig, err)
	}
}

// TestHalfWrittenIsCorrupt reads a file cut short (a copy caught
// mid-write): SQLite's own error, which importer.PassOver puts in words.
func TestHalfWrittenIsCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	w := writer(t, path)
	for i := 0; i < 200; i++ {
		if err := w.Exec(`INSERT INTO t SELECT hex(randomblob(200))`); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, b[:len(b)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := count(t, path); !errors.Is(err, sqlite3.CORRUPT) {
		t.Fatalf("read of a cut file: %v, want CORRUPT", err)
	}
}

// TestSignatureString keeps the stored form of a signature: a change would
// make every export database look changed on the next run.
func TestSignatureString(t *testing.T) {
	for _, c := range []struct {
		sig  Signature
		want string
	}{
		{Signature{Size: 4096, MTime: 17}, "4096/17"},
		{Signature{Size: 4096, MTime: 17, WalSize: 8, WalMTime: 19}, "4096/17+8/19"},
	} {
		if got := c.sig.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.sig, got, c.want)
		}
	}
}
