package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/migrations"
)

// assertComplete fails unless path is a finished recall database: marked,
// at the latest versions, opened writable, and writable.
func assertComplete(t *testing.T, path string) {
	t.Helper()
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	if st.ReadOnly() {
		t.Fatalf("reopened read-only: %s", st.Notice())
	}
	c := rawConn(t, path, true)
	if v := count(t, c, "SELECT version FROM schema_version"); v != migrations.HermesMax {
		t.Errorf("schema_version = %d", v)
	}
	if v, _ := recallVersion(c); v != newestRecallMigration(t) {
		t.Errorf("recall_schema_version = %d", v)
	}
	if n := count(t, c, "SELECT count(*) FROM state_meta WHERE key = ?", metaCreatedBy); n != 1 {
		t.Errorf("recall_created marker rows = %d", n)
	}
	if err := st.CreateSession(context.Background(), Session{ID: "after", Source: "cli"}); err != nil {
		t.Errorf("write after reopen: %v", err)
	}
}

// TestZeroByteFileIsEmptyDatabase: an empty file is an empty database that
// recall creates its schema in and keeps as its own (the old code migrated
// it without the marker, and refused it read-only on every later open).
func TestZeroByteFileIsEmptyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zero.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	st := mustOpenPath(t, path, Options{})
	if st.ReadOnly() {
		t.Fatalf("zero-byte file opened read-only: %s", st.Notice())
	}
	st.Close()
	assertComplete(t, path)
	// A read-only open of an empty file says so instead of failing on a missing table.
	empty := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(empty, nil, 0o600)
	if _, err := Open(context.Background(), empty, Options{ReadOnly: true}); !errors.Is(err, ErrNoDatabase) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("read-only open of an empty file: %v", err)
	}
}

// TestInterruptedCreationResumes: every state a creation can be stopped in
// (before WAL, after WAL, after each migration) opens as recall's and is
// completed. The states are built step by step with the real migration
// code; the heavy TestCreationKilled makes them with real kills.
func TestInterruptedCreationResumes(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for stop := -1; stop <= len(ms); stop++ {
		path := filepath.Join(t.TempDir(), "partial.db")
		os.WriteFile(path, nil, 0o600)
		if stop >= 0 {
			c := rawConn(t, path, false)
			if err := c.exec("PRAGMA journal_mode=WAL"); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < stop && i < len(ms); i++ {
				if err := withWriteLock(c, path, func() error { return applyMigration(c, ms[i], i == 0) }); err != nil {
					t.Fatal(err)
				}
			}
			c.close()
		}
		t.Run(strings.TrimSuffix(migName(ms, stop), ".sql"), func(t *testing.T) { assertComplete(t, path) })
	}
}

func migName(ms []migration, stop int) string {
	switch {
	case stop < 0:
		return "zero-bytes"
	case stop == 0:
		return "wal-only"
	}
	return "after-" + ms[stop-1].name
}

// TestOlderRecallUnfinishedCreation: the previous recall wrote its marker
// after the last migration; a creation it left past migration 1001 (so with
// recall_schema_version) and without any rows is recognised as recall's and
// completed. One stopped before 1001 has nothing that tells it from an empty
// Hermes file and stays read-only.
func TestOlderRecallUnfinishedCreation(t *testing.T) {
	ms, _ := loadMigrations()
	build := func(upto int) string {
		path := filepath.Join(t.TempDir(), "old.db")
		os.WriteFile(path, nil, 0o600)
		c := rawConn(t, path, false)
		c.exec("PRAGMA journal_mode=WAL")
		for _, m := range ms {
			if m.version > upto {
				break
			}
			if err := withWriteLock(c, path, func() error { return applyMigration(c, m, false) }); err != nil {
				t.Fatal(err)
			}
		}
		c.close()
		return path
	}
	assertComplete(t, build(1002))
	st := mustOpenPath(t, build(5), Options{})
	if !st.ReadOnly() {
		t.Error("a v5 file without state_meta was claimed as recall's")
	}
}

// TestFilesArePrivate: under umask 022 the directory recall creates is 0700
// and every file it writes 0600: the database, -wal, -shm, and a -journal
// (a recall database someone switched to rollback mode).
func TestFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data", "recall")
	path := filepath.Join(dir, "state.db")
	st := mustOpenPath(t, path, Options{Create: true})
	seed(t, st, []fixtureSession{{id: "s", source: "cli"}}, []fixture{{label: "a", session: "s", role: "user", content: "private"}})
	if _, err := st.Messages(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	modes := func(want map[string]os.FileMode) {
		t.Helper()
		for name, mode := range want {
			fi, err := os.Stat(filepath.Join(dir, name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("%s is %o, want %o", name, fi.Mode().Perm(), mode)
			}
		}
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o700 {
			t.Errorf("directory %s is %o, want 700", d, fi.Mode().Perm())
		}
	}
	modes(map[string]os.FileMode{"state.db": 0o600, "state.db-wal": 0o600, "state.db-shm": 0o600})
	for _, name := range dirNames(t, dir) {
		if fi, _ := os.Stat(filepath.Join(dir, name)); fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %o: readable by others", name, fi.Mode().Perm())
		}
	}
	st.Close()

	// A second process's first connection recreates -shm: still 0600.
	st = mustOpenPath(t, path, Options{})
	if _, err := st.Messages(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
	modes(map[string]os.FileMode{"state.db": 0o600, "state.db-wal": 0o600, "state.db-shm": 0o600})
	st.Close()

	// Rollback-journal mode: the -journal of an open write transaction.
	c := rawConn(t, path, false)
	if err := c.exec("PRAGMA journal_mode=DELETE"); err != nil {
		t.Fatal(err)
	}
	if err := c.exec("BEGIN IMMEDIATE; UPDATE messages SET content = 'x'"); err != nil {
		t.Fatal(err)
	}
	modes(map[string]os.FileMode{"state.db-journal": 0o600})
	c.exec("ROLLBACK")
}

// TestReaderCacheSized: every reader a search uses has the larger page
// cache (readerCacheKiB), in a writable store and a read-only one alike;
// the writer keeps SQLite's default.
func TestReaderCacheSized(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	mustOpenPath(t, path, Options{Create: true}).Close()
	for _, opts := range []Options{{}, {ReadOnly: true}} {
		st := mustOpenPath(t, path, opts)
		ctx := context.Background()
		// Two readers at once, so the pool opens its second connection too.
		hold := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- st.read(ctx, func(c *conn) error { <-hold; return checkCache(c, -readerCacheKiB) })
		}()
		time.Sleep(20 * time.Millisecond)
		if err := st.read(ctx, func(c *conn) error { return checkCache(c, -readerCacheKiB) }); err != nil {
			t.Errorf("%+v: %v", opts, err)
		}
		close(hold)
		if err := <-done; err != nil {
			t.Errorf("%+v: %v", opts, err)
		}
		if st.writer != nil {
			if err := checkCache(st.writer, -2000); err != nil {
				t.Errorf("writer: %v", err)
			}
		}
		st.Close()
	}
}

func checkCache(c *conn, want int64) error {
	got, _, err := c.scalarInt("PRAGMA cache_size")
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("cache_size %d, want %d", got, want)
	}
	return nil
}
