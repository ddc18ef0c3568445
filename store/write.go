package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Hermes's write policy (hermes_state.py, PR #3385): BEGIN IMMEDIATE takes the
// write lock up front so a conflict shows at once instead of mid-transaction;
// on SQLITE_BUSY/LOCKED retry with random jitter, which avoids the convoy that
// a fixed backoff creates when several processes retry in step.
//
// Hermes gives up after 15 attempts (about 16 s here, with SQLite's 1 s busy
// wait per attempt), which fails a writer whose turn comes after several
// long imports. recall waits as long as the database shows progress (another
// connection committed, or the -wal/-journal file changed: a long
// transaction writes its pages there before it commits), and gives up only
// after writeStall with no progress at all: a stopped process holding the
// lock, or another program's open transaction.
const (
	writeRetryMin    = 20 * time.Millisecond
	writeRetryMax    = 150 * time.Millisecond
	checkpointEveryN = 50
)

// writeStall is how long a writer waits without seeing any progress. A long
// import transaction shows progress as it spills pages into the -wal; only
// its parse phase shows none (recall import parses a file inside its
// transaction: about 13 s for 93 MB of Claude Code transcripts here), so 3
// minutes leaves a wide margin over the longest silent stretch recall makes.
var writeStall = 3 * time.Minute

// Tx is a write transaction. Its methods are only valid inside Write's fn.
type Tx struct {
	c     *conn
	s     *Store
	dirty map[string]bool // sessions whose counters need refreshing
	// pendingParents is set when a child was written before its parent.
	pendingParents bool
	// bulkTriggers holds the insert triggers' SQL while the bulk path has them dropped.
	bulkTriggers map[string]string
	// bytes counts the message text written, to recycle a connection that
	// grew its memory for a huge message.
	bytes int64
	// deferredLo and deferredHi are the ids this transaction left out of
	// the trigram index (deferred_trigram.go); 0 when none.
	deferredLo, deferredHi int64
	// forgotten holds the tombstones of `recall forget` (forget.go), read
	// on first use; nil until then.
	forgotten map[string]bool
	// prevText is, per session, the text of the last message this
	// transaction inserted or skipped (forget.go's chainKey).
	prevText map[string]string
	// forgotDrops are the sessions a forgotten message was dropped from:
	// one left with nothing is removed at the end (a copy of a forgotten
	// session leaves no empty row).
	forgotDrops map[string]bool
	// ids maps the sessions' own ids to stored ids (identity.go).
	ids *idScope
	// rewritten counts the messages given new text, their earlier text
	// kept (rewrite.go).
	rewritten int
}

// recycleBytes is the amount of message text in one transaction after
// which the writer connection is reopened: a WebAssembly memory never
// shrinks, and a long-running `recall watch` should not keep the hundreds of
// MB that storing one huge tool output took.
const recycleBytes = 32 << 20

// Write runs fn in one IMMEDIATE transaction, retrying it on SQLITE_BUSY or
// SQLITE_LOCKED with 20-150 ms random jitter for as long as other writers
// make progress (see writeStall); fn may therefore run more than once and
// must keep its side effects inside tx. Every 50 successful writes it runs a
// passive WAL checkpoint so the WAL stays small. Failures of the database
// file come back as an *Error (ErrCorrupt, ErrDiskFull, ErrLocked, ...).
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if s.readOnly || s.writer == nil {
		return ErrReadOnly
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	c := s.writer
	old := c.db.SetInterrupt(ctx)
	var written int64
	err := s.retryBusy(ctx, c, func() error {
		var err error
		written, err = s.writeOnce(c, fn)
		return err
	})
	if errors.Is(err, ErrTooLarge) || written > recycleBytes {
		// Out of memory, or grown for a huge message: start afresh.
		s.recycleWriter()
	} else {
		c.db.SetInterrupt(old)
	}
	if err != nil {
		return dbError(s.path, err)
	}
	s.writes++
	if s.writes%checkpointEveryN == 0 && s.writer != nil {
		// Best effort: a busy checkpoint simply does less this time.
		_ = s.writer.exec("PRAGMA wal_checkpoint(PASSIVE)")
	}
	return nil
}

// recycleWriter replaces the writer connection with a new one; if that
// fails, the store becomes read-only rather than keep a broken connection.
func (s *Store) recycleWriter() {
	old := s.writer
	s.untrack(old)
	safely(func() { old.close() })
	c, err := openConn(s.path, false)
	if err != nil {
		s.writer, s.readOnly = nil, true
		return
	}
	s.track(c)
	s.writer = c
}

func (s *Store) writeOnce(c *conn, fn func(tx *Tx) error) (written int64, err error) {
	return written, withWriteLock(c, s.path, func() error {
		tx := &Tx{c: c, s: s, dirty: map[string]bool{}}
		defer func() { written = tx.bytes }()
		if err := fn(tx); err != nil {
			return err
		}
		return tx.finish()
	})
}

// withWriteLock runs fn between BEGIN IMMEDIATE and COMMIT on c, and rolls
// back when fn fails or SQLite runs out of memory (the driver panics then;
// the panic becomes an ErrTooLarge error, and any other panic goes on). It
// does not retry: a busy error is for the caller's retryBusy.
func withWriteLock(c *conn, path string, fn func() error) (err error) {
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			safely(func() { _ = c.exec("ROLLBACK") })
			if !isOOM(r) {
				panic(r)
			}
			err = &Error{Path: path, Kind: ErrTooLarge, Err: fmt.Errorf("%w; the transaction was rolled back", errOOM)}
			return
		}
		if err != nil {
			safely(func() { _ = c.exec("ROLLBACK") })
		}
	}()
	if err := fn(); err != nil {
		return err
	}
	return c.exec("COMMIT")
}

// retryBusy runs attempt until it succeeds, fails with anything but
// SQLITE_BUSY/LOCKED, ctx ends, or the database shows no progress for the
// store's lock timeout (then ErrLocked).
func (s *Store) retryBusy(ctx context.Context, c *conn, attempt func() error) error {
	return retryBusyFor(ctx, c, s.path, s.stallLimit(), s.onLockWait, attempt)
}

// retryBusy is Store.retryBusy before there is a Store (Open's migrations):
// the default limit, no progress reports.
func retryBusy(ctx context.Context, c *conn, path string, attempt func() error) error {
	return retryBusyFor(ctx, c, path, writeStall, nil, attempt)
}

func retryBusyFor(ctx context.Context, c *conn, path string, limit time.Duration, notify func(LockWait), attempt func() error) error {
	var w *lockWait
	for {
		err := attempt()
		if err == nil || !isBusy(err) {
			return err
		}
		if w == nil {
			w = newLockWait(c, path, limit, notify)
		}
		if err := w.wait(ctx); err != nil {
			return err
		}
	}
}

// LockWait describes a writer waiting for another process's write lock,
// for a progress line ("waiting for the write lock held since ...").
type LockWait struct {
	// Since is when the lock was last seen to make progress (or the wait began).
	Since time.Time
	// Waited is how long this writer has waited in all.
	Waited time.Duration
	// GiveUp is when the writer fails with ErrLocked unless progress is seen.
	GiveUp time.Time
}

// SetLockTimeout sets how long a write waits for a lock held without any
// progress before it fails with ErrLocked (writeStall when d <= 0).
func (s *Store) SetLockTimeout(d time.Duration) {
	s.writeMu.Lock()
	s.lockTimeout = d
	s.writeMu.Unlock()
}

// OnLockWait sets a function called about once a second while a write
// waits for another process's lock (nil for none).
func (s *Store) OnLockWait(fn func(LockWait)) {
	s.writeMu.Lock()
	s.onLockWait = fn
	s.writeMu.Unlock()
}

func (s *Store) stallLimit() time.Duration {
	if s.lockTimeout > 0 {
		return s.lockTimeout
	}
	return writeStall
}

// lockWait tracks how long a writer has waited and whether the database
// moved meanwhile.
type lockWait struct {
	c        *conn
	path     string
	limit    time.Duration
	notify   func(LockWait)
	told     time.Time
	start    time.Time
	progress time.Time // last time progress was seen
	sig      string
}

func newLockWait(c *conn, path string, limit time.Duration, notify func(LockWait)) *lockWait {
	t := time.Now()
	return &lockWait{c: c, path: path, limit: limit, notify: notify, start: t, progress: t, sig: progressSignature(c, path)}
}

// wait sleeps a random jitter and reports ErrLocked after the limit without progress.
func (w *lockWait) wait(ctx context.Context) error {
	jitter := writeRetryMin + time.Duration(rand.Int64N(int64(writeRetryMax-writeRetryMin)))
	select {
	case <-time.After(jitter):
	case <-ctx.Done():
		return ctx.Err()
	}
	if sig := progressSignature(w.c, w.path); sig != w.sig {
		w.sig, w.progress = sig, time.Now()
	}
	if stalled := time.Since(w.progress); stalled > w.limit {
		return &Error{Path: w.path, Kind: ErrLocked, Err: fmt.Errorf(
			"another process has held the write lock for %s without writing anything (a stopped recall, or another program's open transaction); waited %s in all",
			stalled.Round(time.Second), time.Since(w.start).Round(time.Second))}
	}
	// The first busy second is normal between writers; say so after it.
	if w.notify != nil && time.Since(w.start) >= time.Second && time.Since(w.told) >= time.Second {
		w.told = time.Now()
		w.notify(LockWait{Since: w.progress, Waited: time.Since(w.start), GiveUp: w.progress.Add(w.limit)})
	}
	return nil
}

// progressSignature changes whenever another connection commits
// (PRAGMA data_version) or a writer appends to the -wal or -journal file.
func progressSignature(c *conn, path string) string {
	v, _, _ := c.scalarInt("PRAGMA data_version")
	sig := strconv.FormatInt(v, 10)
	for _, suffix := range []string{"-wal", "-journal"} {
		if fi, err := os.Stat(path + suffix); err == nil {
			sig += fmt.Sprintf(" %d@%d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return sig
}

// errOOM is the cause of an ErrTooLarge that SQLite's memory ran out on.
var errOOM = errors.New("SQLite ran out of memory on one statement (a message too large for it)")

// isOOM reports the driver's out-of-memory panic (ncruces/go-sqlite3 panics
// with util.OOMErr when sqlite3_malloc fails or SQLite returns NOMEM).
func isOOM(r any) bool {
	e, ok := r.(error)
	return ok && e.Error() == "sqlite3: out of memory"
}

// safely runs f, swallowing the driver's out-of-memory panic (a ROLLBACK or
// Close after an out-of-memory error).
func safely(f func()) {
	defer func() {
		if r := recover(); r != nil && !isOOM(r) {
			panic(r)
		}
	}()
	f()
}

// finish refreshes session counters and indexes queued CJK rows, inside the
// same transaction as the writes that caused them.
func (tx *Tx) finish() error {
	if tx.bulkTriggers != nil {
		if err := tx.endBulk(); err != nil {
			return err
		}
	}
	if tx.deferredHi > 0 {
		if err := tx.recordDeferred(); err != nil {
			return fmt.Errorf("record the deferred trigram rows: %w", err)
		}
	}
	if tx.pendingParents {
		if err := linkPendingParents(tx); err != nil {
			return fmt.Errorf("link parent sessions: %w", err)
		}
	}
	for id := range tx.forgotDrops {
		if _, err := tx.DeleteSessionIfEmpty(id); err != nil {
			return fmt.Errorf("remove a session left empty by forgotten messages: %w", err)
		}
	}
	for id := range tx.dirty {
		if err := tx.c.run(`UPDATE sessions SET
			message_count = (SELECT count(*) FROM messages WHERE session_id = ?1 AND `+tx.s.layout.liveMessage()+`),
			tool_call_count = (SELECT COALESCE(SUM(CASE WHEN tool_calls IS NULL OR tool_calls = '' OR tool_calls = '[]' THEN 0
				WHEN json_valid(tool_calls) AND json_type(tool_calls) = 'array' THEN json_array_length(tool_calls) ELSE 1 END), 0)
				FROM messages WHERE session_id = ?1 AND role = 'assistant')
			WHERE id = ?1`, id); err != nil {
			return fmt.Errorf("update session counts: %w", err)
		}
	}
	if tx.s.layout.hasCJK {
		return drainCJK(tx.c)
	}
	return nil
}

// isBusy reports SQLITE_BUSY / SQLITE_LOCKED, the errors worth retrying.
func isBusy(err error) bool {
	var e *sqlite3.Error
	if errors.As(err, &e) {
		code := e.Code()
		return code == sqlite3.BUSY || code == sqlite3.LOCKED
	}
	return errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED)
}

// Meta reads a state_meta value.
func (tx *Tx) Meta(key string) (string, bool, error) {
	return tx.c.scalarText("SELECT COALESCE(value, '') FROM state_meta WHERE key = ?", key)
}

// SetMeta upserts a state_meta value.
func (tx *Tx) SetMeta(key, value string) error {
	return tx.c.run("INSERT INTO state_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
}

// importFileCols are the columns scanImportFile reads.
const importFileCols = "path, source, size, mtime, offset, COALESCE(state, ''), COALESCE(sessions, ''), COALESCE(ident, '')"

func scanImportFile(st stmtRow) ImportFile {
	return ImportFile{Path: st.ColumnText(0), Source: st.ColumnText(1), Size: st.ColumnInt64(2),
		ModTime: fromEpoch(st.ColumnFloat(3)), Offset: st.ColumnInt64(4), State: st.ColumnText(5), Sessions: st.ColumnText(6),
		Ident: st.ColumnText(7)}
}

// ImportFile returns what was recorded about a source file.
func (tx *Tx) ImportFile(path string) (ImportFile, bool, error) {
	var f ImportFile
	ok := false
	err := tx.c.query("SELECT "+importFileCols+" FROM recall_import_files WHERE path = ?",
		[]any{path}, func(st stmtRow) error {
			ok = true
			f = scanImportFile(st)
			return nil
		})
	return f, ok, err
}

// SetImportFile records a source file's progress, in the same transaction as
// the messages it covers, so a killed import resumes exactly where it stopped.
// An empty Ident keeps the one recorded. Sessions may name the sessions by
// the source's own ids: they are recorded by their stored ids.
func (tx *Tx) SetImportFile(f ImportFile) error {
	if f.Sessions != "" && tx.s.layout.hasIdentity {
		ids, err := tx.storedIDs(strings.Fields(f.Sessions))
		if err != nil {
			return err
		}
		f.Sessions = strings.Join(ids, " ")
	}
	return tx.c.run(`INSERT INTO recall_import_files(path, source, size, mtime, offset, state, sessions, imported_at, ident)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET source = excluded.source, size = excluded.size, mtime = excluded.mtime,
			offset = excluded.offset, state = excluded.state, sessions = excluded.sessions, imported_at = excluded.imported_at,
			ident = COALESCE(excluded.ident, ident)`,
		f.Path, f.Source, f.Size, toEpoch(f.ModTime), f.Offset, f.State, f.Sessions, toEpoch(now()), nullString(f.Ident))
}

// CreateSession inserts a session, or fills the empty columns of an existing one.
func (s *Store) CreateSession(ctx context.Context, sess Session) error {
	return s.Write(ctx, func(tx *Tx) error { return tx.UpsertSession(sess) })
}

// EndSession records when and why a session ended; the first reason wins, as in Hermes.
func (s *Store) EndSession(ctx context.Context, id, reason string, at time.Time) error {
	if at.IsZero() {
		at = now()
	}
	return s.Write(ctx, func(tx *Tx) error {
		return tx.c.run("UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL", at, nullString(reason), id)
	})
}

// AppendMessages appends messages (to existing sessions) in one transaction.
func (s *Store) AppendMessages(ctx context.Context, msgs []Message) (int, error) {
	var n int
	err := s.Write(ctx, func(tx *Tx) error {
		var err error
		n, err = tx.InsertMessages(msgs)
		return err
	})
	return n, err
}

// linkPendingParents sets the parent links whose parent now exists, skipping
// any that would close a cycle.
func linkPendingParents(tx *Tx) error {
	c := tx.c
	type pending struct{ child, parent, source string }
	var links []pending
	q := `SELECT p.session_id, p.parent_id, '' FROM recall_pending_parents p
		WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.id = p.parent_id)`
	if tx.s.layout.hasIdentity {
		q = `SELECT p.session_id, p.parent_id, COALESCE(p.parent_source, '') FROM recall_pending_parents p
		WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.id = p.parent_id)
			OR EXISTS (SELECT 1 FROM recall_session_identity i WHERE i.native_id = p.parent_id)`
	}
	err := c.query(q, nil, func(st stmtRow) error {
		links = append(links, pending{st.ColumnText(0), st.ColumnText(1), st.ColumnText(2)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, l := range links {
		parent, ok, err := tx.parentSession(identity{source: l.source, native: l.parent})
		if err != nil {
			return err
		}
		if !ok || parent == l.child {
			continue
		}
		if err := c.run("UPDATE sessions SET parent_session_id = ? WHERE id = ? AND parent_session_id IS NULL", parent, l.child); err != nil {
			return err
		}
		if err := c.run("DELETE FROM recall_pending_parents WHERE session_id = ?", l.child); err != nil {
			return err
		}
	}
	return nil
}
