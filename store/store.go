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
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/recall-dev/recall/store/engine/pipeline"
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
	// lockTimeout and onLockWait: SetLockTimeout, OnLockWait (under writeMu).
	lockTimeout time.Duration
	onLockWait  func(LockWait)

	readers chan *conn // idle reader connections
	// immutable: the file is read as an immutable snapshot (read-only
	// storage, see open); new readers open the same way.
	immutable bool
	mu        sync.Mutex
	all       []*conn // every connection, for Close
	closed    bool
	// deferTrigram: bulk inserts leave the trigram index to a later pass
	// (SetDeferTrigram, deferred_trigram.go).
	deferTrigram atomic.Bool
	// background: FinishDeferredTrigram's pass, stopped and waited for by
	// Close (stopBackground, under mu).
	background     sync.WaitGroup
	stopBackground []context.CancelFunc
	// engine is the search engine (store/engine/pipeline), made once the
	// layout is known: it keeps the caches ranking reads between searches.
	engine *pipeline.Engine
	// redactor rewrites text before it is stored (SetRedactor, redact.go).
	redactor atomic.Pointer[TextRedactor]
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
	s.engine = pipeline.New(engineDB{s}, s.layout.engineLayout(), path)
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
	existed := companionsPresent(s.path)
	ro, err := openConn(s.path, true)
	if err != nil {
		keepCompanionPrivate(s.path, existed)
		if n, lost := walFramesLost(s.path); lost {
			return walDeletedError(s.path, n)
		}
		return err
	}
	s.track(ro)
	kind, err := inspectFile(ro)
	keepCompanionPrivate(s.path, existed)
	if err != nil {
		if n, lost := walFramesLost(s.path); lost {
			// Not read-only storage: a -wal deleted under a running
			// program (a TUI); say so instead of "a read-only snapshot".
			return walDeletedError(s.path, n)
		}
	}
	if err != nil && onReadOnlyStorage(s.path, err) {
		// A WAL database where -wal and -shm can be neither found nor
		// created (a read-only directory, a snapshot, read-only media):
		// with no -wal there is nothing uncheckpointed, and nobody can
		// write the file in WAL mode without creating one, so the file
		// alone is the whole database; it is read as an immutable one.
		s.untrack(ro)
		ro.close()
		if ro, err = openImmutable(s.path); err != nil {
			return err
		}
		s.track(ro)
		s.immutable = true
		if kind, err = inspectFile(ro); err == nil {
			return s.finishReadOnly(ro, s.path+": its -wal/-shm cannot be written here and hold nothing: opened as a read-only snapshot")
		}
	}
	if errors.Is(dbError(s.path, err), ErrHotJournal) && !opts.ReadOnly && journalOfEmptyFile(s.path+"-journal") {
		// A creation stopped while switching the new, empty file to WAL
		// (the only rollback-journal write recall makes): rolling it back
		// gives the empty file again, which is recall's to create in, so
		// the read-write connection below may roll it back.
		kind, err = fileEmpty, nil
	}
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
		if kind == fileRecall && notWritable(s.path, err) {
			return s.finishReadOnly(ro, s.path+" is not writable (permission denied): opened read-only")
		}
		return err
	}
	s.track(w)
	outcome, err := ensureSchema(ctx, w, s.path, true)
	if err != nil {
		if kind == fileRecall && notWritable(s.path, err) {
			s.untrack(w)
			w.close()
			return s.finishReadOnly(ro, s.path+" is not writable here ("+osReason(err)+"): opened read-only")
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

// notWritable reports a read-write open or first write that failed because
// the user may not write the file or its directory. The driver reports a
// refused open as a bare SQLITE_CANTOPEN, so the file is asked directly
// (opening it for writing, without writing, changes nothing).
func notWritable(path string, err error) bool {
	if errors.Is(dbError(path, err), ErrPermission) {
		return true
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
	}
	f.Close()
	return false
}

// onReadOnlyStorage reports a read-only open of a WAL database that failed
// because SQLite could neither create nor write its -wal or -shm (a
// read-only directory; or a 0444 -wal, which the driver, unlike native
// SQLite, does not fall back to opening read-only), when the -wal holds
// nothing (missing or empty): then the file alone is the whole database.
func onReadOnlyStorage(path string, err error) bool {
	k := kindOf(path, err)
	if k != ErrPermission && k != ErrIO {
		return false
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	// Bytes 18 and 19 of the header are 2 in WAL mode.
	_, err = io.ReadFull(f, h[:])
	return err == nil && h[18] == 2
}

// journalOfEmptyFile reports a rollback journal whose header says the
// database had no pages when the interrupted transaction began (bytes
// 16-19 of the header: the initial size in pages, after the 8-byte magic).
func journalOfEmptyFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [28]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return false
	}
	magic := []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}
	return bytes.Equal(h[:8], magic) && binary.BigEndian.Uint32(h[16:20]) == 0
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
	for _, stop := range s.stopBackground {
		stop()
	}
	s.mu.Unlock()
	s.background.Wait()
	s.mu.Lock()
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
	if err := c.sizeReaderCache(); err != nil {
		return err
	}
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
		open := func() (*conn, error) { return openConn(s.path, true) }
		if s.immutable {
			open = func() (*conn, error) { return openImmutable(s.path) }
		}
		c, err := open()
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
