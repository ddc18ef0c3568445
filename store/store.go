// Package store is recall's SQLite store: Hermes Agent's state.db schema
// (sessions, messages, two FTS5 indexes, state_meta, schema_version) plus a
// short-CJK index, behind a small Go API.
//
// Connections: one writer connection (writes are serialised in-process by a
// mutex and across processes by BEGIN IMMEDIATE with jittered retries) and a
// small pool of reader connections, so a query typed in the TUI never waits
// for an import. SQLite runs as WebAssembly under wazero (no cgo); its
// compiled machine code is cached in the user cache dir so that only the very
// first start pays for compiling it.
//
// A database recall did not create (a Hermes state.db) is never altered: it
// is opened read-only and its layout detected (see layout.go).
package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ErrNotFound is returned when a session (or other row) does not exist.
var ErrNotFound = errors.New("not found")

// ErrReadOnly is returned by writes against a database opened read-only.
var ErrReadOnly = errors.New("database is opened read-only")

// Options controls how Open treats the file.
type Options struct {
	// ReadOnly opens without ever writing. Hermes databases are always opened so.
	ReadOnly bool
	// Create makes a new recall database when the file does not exist.
	Create bool
}

// metaCreatedBy marks databases recall created; only those are migrated at
// open. It is written in the same transaction as the first migration.
const metaCreatedBy = "recall_created"

// Store is an open database.
type Store struct {
	path     string
	readOnly bool
	notice   string
	layout   layout

	writeMu sync.Mutex
	writer  *conn // nil when read-only
	writes  int   // successful write transactions, for periodic checkpoints

	readers chan *conn // idle reader connections
	mu      sync.Mutex
	all     []*conn // every connection, for Close
	closed  bool
}

// maxReaders bounds the reader pool: each connection is its own Wasm instance
// with its own memory, so more readers cost RSS; two cover a TUI that searches
// while it loads a transcript.
const maxReaders = 2

// Open opens (and for recall's own databases creates and migrates) the
// database at path.
//
// What the file is (empty, recall's, or another program's) is decided on a
// read-only connection first: a foreign file (a Hermes state.db) is never
// opened read-write, so recall changes at most its -shm, exactly like a
// native mode=ro reader. A recall database that the user may not write (a
// 0444 file, a read-only directory) opens read-only with a notice.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := initSQLite(); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, &Error{Path: path, Kind: ErrNotDatabase, Err: errIsDir}
	} else if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, dbError(path, err)
		}
		if opts.ReadOnly || !opts.Create {
			return nil, &Error{Path: path, Kind: ErrNoDatabase, Err: err}
		}
		if err := createFile(path); err != nil {
			return nil, dbError(path, err)
		}
	}
	s := &Store{path: path, readers: make(chan *conn, maxReaders)}
	if err := s.open(ctx, opts); err != nil {
		s.Close()
		return nil, dbError(path, err)
	}
	return s, nil
}

// createFile makes the directory (0700) and an empty database file (0600:
// transcripts are private). Losing the race to another process creating the
// same file is fine: an empty file is an empty database, and creation
// itself happens under SQLite's write lock (ensureSchema).
func createFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

func (s *Store) open(ctx context.Context, opts Options) error {
	ro, err := openConn(s.path, true)
	if err != nil {
		return err
	}
	s.track(ro)
	kind, err := inspectFile(ro)
	if err != nil {
		return err
	}
	if kind == fileEmpty && opts.ReadOnly {
		return &Error{Path: s.path, Kind: ErrNoDatabase, Err: errEmptyFile}
	}
	if opts.ReadOnly || kind == fileForeign {
		return s.finishReadOnly(ro, "")
	}
	w, err := openConn(s.path, false)
	if err != nil {
		if kind == fileRecall && errors.Is(dbError(s.path, err), ErrPermission) {
			return s.finishReadOnly(ro, s.path+" is not writable ("+osReason(err)+"): opened read-only")
		}
		return err
	}
	s.track(w)
	outcome, err := ensureSchema(ctx, w, s.path, true)
	if err != nil {
		if kind == fileRecall && errors.Is(dbError(s.path, err), ErrPermission) {
			s.untrack(w)
			w.close()
			return s.finishReadOnly(ro, s.path+" is not writable ("+osReason(err)+"): opened read-only")
		}
		return err
	}
	if outcome != schemaReady {
		s.untrack(w)
		w.close()
		return s.finishReadOnly(ro, "")
	}
	matchCompanionModes(s.path)
	s.writer = w
	lay, err := detectLayout(w)
	if err != nil {
		return err
	}
	s.layout = lay
	s.readers <- ro
	// Rows queued by a native writer since our last write get their CJK grams
	// now; opening takes the write lock only when there is such work (Hermes
	// #93799: an open that always locked made other writers wait).
	if _, pending, err := w.scalarInt("SELECT 1 FROM recall_cjk_pending LIMIT 1"); err != nil || !pending {
		return err
	}
	return s.Write(ctx, func(tx *Tx) error { return nil })
}

var (
	errEmptyFile = errors.New("empty file")
	errIsDir     = errors.New("is a directory")
)

// finishReadOnly makes ro the store's first reader and detects its layout.
func (s *Store) finishReadOnly(ro *conn, notice string) error {
	s.readOnly = true
	s.notice = notice
	lay, err := detectLayout(ro)
	if err != nil {
		return err
	}
	s.layout = lay
	// recall's own databases stop at the migrations it ships; a Hermes
	// database is read through the newest Hermes layout recall knows.
	known := hermesNewestKnown
	if lay.recallCreated {
		known = migrationsHermesMax()
	}
	if lay.schemaVersion > known && s.notice == "" {
		s.notice = fmt.Sprintf("%s has schema version %d, newer than recall knows (%d): opened read-only", s.path, lay.schemaVersion, known)
	}
	s.readers <- ro
	return nil
}

func (s *Store) track(c *conn) {
	s.mu.Lock()
	s.all = append(s.all, c)
	s.mu.Unlock()
}

func (s *Store) untrack(c *conn) {
	s.mu.Lock()
	for i, x := range s.all {
		if x == c {
			s.all = append(s.all[:i], s.all[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// hermesNewestKnown is the newest Hermes state.db schema whose layout recall
// reads (spec §11: external-content FTS over views, v23+).
const hermesNewestKnown = 30

// ReadOnly reports whether the store never writes (a foreign or newer database).
func (s *Store) ReadOnly() bool { return s.readOnly }

// Notice is a one-line notice the caller should show (or "").
func (s *Store) Notice() string { return s.notice }

// Close closes every connection. A writable store checkpoints the WAL first
// (PASSIVE: a TRUNCATE racing other writers is what tore pages in Hermes).
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	conns := s.all
	s.all = nil
	s.mu.Unlock()
	if s.writer != nil {
		s.writeMu.Lock()
		_ = s.writer.exec("PRAGMA wal_checkpoint(PASSIVE)")
		s.writeMu.Unlock()
	}
	var first error
	for _, c := range conns {
		if err := c.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// read runs fn on a reader connection, interrupting it when ctx is done.
// Failures of the database file come back as an *Error; a connection that
// ran out of memory is closed instead of going back to the pool.
func (s *Store) read(ctx context.Context, fn func(c *conn) error) (err error) {
	c, err := s.acquire(ctx)
	if err != nil {
		return dbError(s.path, err)
	}
	old := c.db.SetInterrupt(ctx)
	defer func() {
		if r := recover(); r != nil {
			if !isOOM(r) {
				panic(r)
			}
			s.untrack(c)
			c.close()
			err = &Error{Path: s.path, Kind: ErrTooLarge, Err: errOOM}
			return
		}
		c.db.SetInterrupt(old)
		s.release(c)
		if err != nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		err = dbError(s.path, err)
	}()
	return fn(c)
}

func (s *Store) acquire(ctx context.Context) (*conn, error) {
	select {
	case c := <-s.readers:
		return c, nil
	default:
	}
	s.mu.Lock()
	closed := s.closed
	n := len(s.all)
	if s.writer != nil {
		n--
	}
	s.mu.Unlock()
	if closed {
		return nil, errors.New("store is closed")
	}
	if n < maxReaders {
		// Readers never write, even in a writable store.
		c, err := openConn(s.path, true)
		if err != nil {
			return nil, err
		}
		s.track(c)
		return c, nil
	}
	select {
	case c := <-s.readers:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Store) release(c *conn) {
	select {
	case s.readers <- c:
	default:
		s.untrack(c)
		c.close()
	}
}

// now is the clock, a variable so tests can pin it.
var now = time.Now
