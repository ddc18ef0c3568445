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
	"os"
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

// metaCreatedBy marks databases recall created; only those are migrated at open.
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
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := initSQLite(); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(path)
	exists := statErr == nil
	if !exists && (opts.ReadOnly || !opts.Create) {
		return nil, fmt.Errorf("open %s: no such database file", path)
	}
	s := &Store{path: path, readers: make(chan *conn, maxReaders)}
	if opts.ReadOnly {
		if err := s.openReadOnly(ctx); err != nil {
			return nil, err
		}
		return s, nil
	}
	if err := s.openWritable(ctx, exists); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openWritable creates or migrates recall's own database; a foreign one is
// reopened read-only.
func (s *Store) openWritable(ctx context.Context, exists bool) error {
	w, err := openConn(s.path, false)
	if err != nil {
		return err
	}
	s.track(w)
	if !exists {
		if err := createDatabase(ctx, w); err != nil {
			return err
		}
	} else {
		ours, err := isRecallDatabase(w)
		if err != nil {
			return fmt.Errorf("open %s: %w", s.path, err)
		}
		if !ours {
			// Not ours (a Hermes state.db or another tool's file): read-only,
			// never a DDL statement against it.
			s.untrack(w)
			w.close()
			return s.openReadOnly(ctx)
		}
		version, err := schemaVersion(w)
		if err != nil {
			return err
		}
		if version > migrationsHermesMax() {
			s.untrack(w)
			w.close()
			if err := s.openReadOnly(ctx); err != nil {
				return err
			}
			s.notice = fmt.Sprintf("%s has schema version %d, newer than recall knows (%d): opened read-only", s.path, version, migrationsHermesMax())
			return nil
		}
		if err := migrate(ctx, w); err != nil {
			return err
		}
	}
	s.writer = w
	lay, err := detectLayout(w)
	if err != nil {
		return err
	}
	s.layout = lay
	// Rows queued by a native writer since our last write get their CJK grams
	// now; opening takes the write lock only when there is such work (Hermes
	// #93799: an open that always locked made other writers wait).
	if _, pending, err := w.scalarInt("SELECT 1 FROM recall_cjk_pending LIMIT 1"); err != nil || !pending {
		return err
	}
	return s.Write(ctx, func(tx *Tx) error { return nil })
}

func (s *Store) openReadOnly(ctx context.Context) error {
	s.readOnly = true
	c, err := openConn(s.path, true)
	if err != nil {
		return err
	}
	s.track(c)
	lay, err := detectLayout(c)
	if err != nil {
		return fmt.Errorf("open %s: %w", s.path, err)
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
	s.readers <- c
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
func (s *Store) read(ctx context.Context, fn func(c *conn) error) error {
	c, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer s.release(c)
	old := c.db.SetInterrupt(ctx)
	defer c.db.SetInterrupt(old)
	err = fn(c)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
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
		c, err := openConn(s.path, s.readOnly)
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
