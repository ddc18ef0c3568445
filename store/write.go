package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Hermes's write policy (hermes_state.py, PR #3385): BEGIN IMMEDIATE takes the
// write lock up front so a conflict shows at once instead of mid-transaction;
// on SQLITE_BUSY/LOCKED retry with random jitter, which avoids the convoy that
// a fixed backoff creates when several processes retry in step.
const (
	writeMaxRetries  = 15
	writeRetryMin    = 20 * time.Millisecond
	writeRetryMax    = 150 * time.Millisecond
	checkpointEveryN = 50
)

// Tx is a write transaction. Its methods are only valid inside Write's fn.
type Tx struct {
	c     *conn
	s     *Store
	dirty map[string]bool // sessions whose counters need refreshing
	// pendingParents is set when a child was written before its parent.
	pendingParents bool
	// bulkTriggers holds the insert triggers' SQL while the bulk path has them dropped.
	bulkTriggers map[string]string
}

// Write runs fn in one IMMEDIATE transaction, retrying it on SQLITE_BUSY or
// SQLITE_LOCKED up to 15 times with 20-150 ms random jitter; fn may therefore
// run more than once and must keep its side effects inside tx. Every 50
// successful writes it runs a passive WAL checkpoint so the WAL stays small.
func (s *Store) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if s.readOnly || s.writer == nil {
		return ErrReadOnly
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	c := s.writer
	old := c.db.SetInterrupt(ctx)
	defer c.db.SetInterrupt(old)
	var err error
	for attempt := 0; attempt < writeMaxRetries; attempt++ {
		if attempt > 0 {
			jitter := writeRetryMin + time.Duration(rand.Int64N(int64(writeRetryMax-writeRetryMin)))
			select {
			case <-time.After(jitter):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err = s.writeOnce(c, fn)
		if err == nil {
			s.writes++
			if s.writes%checkpointEveryN == 0 {
				// Best effort: a busy checkpoint simply does less this time.
				_ = c.exec("PRAGMA wal_checkpoint(PASSIVE)")
			}
			return nil
		}
		if !isBusy(err) {
			return err
		}
	}
	return fmt.Errorf("write: database stayed locked by another process after %d attempts: %w", writeMaxRetries, err)
}

func (s *Store) writeOnce(c *conn, fn func(tx *Tx) error) (err error) {
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = c.exec("ROLLBACK")
		}
	}()
	tx := &Tx{c: c, s: s, dirty: map[string]bool{}}
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.finish(); err != nil {
		return err
	}
	return c.exec("COMMIT")
}

// finish refreshes session counters and indexes queued CJK rows, inside the
// same transaction as the writes that caused them.
func (tx *Tx) finish() error {
	if tx.bulkTriggers != nil {
		if err := tx.endBulk(); err != nil {
			return err
		}
	}
	if tx.pendingParents {
		if err := linkPendingParents(tx.c); err != nil {
			return fmt.Errorf("link parent sessions: %w", err)
		}
	}
	for id := range tx.dirty {
		if err := tx.c.run(`UPDATE sessions SET
			message_count = (SELECT count(*) FROM messages WHERE session_id = ?1),
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

// ImportFile returns what was recorded about a source file.
func (tx *Tx) ImportFile(path string) (ImportFile, bool, error) {
	var f ImportFile
	ok := false
	err := tx.c.query("SELECT path, source, size, mtime, offset, COALESCE(state, ''), COALESCE(sessions, '') FROM recall_import_files WHERE path = ?",
		[]any{path}, func(st stmtRow) error {
			ok = true
			f = ImportFile{Path: st.ColumnText(0), Source: st.ColumnText(1), Size: st.ColumnInt64(2),
				ModTime: fromEpoch(st.ColumnFloat(3)), Offset: st.ColumnInt64(4), State: st.ColumnText(5), Sessions: st.ColumnText(6)}
			return nil
		})
	return f, ok, err
}

// SetImportFile records a source file's progress, in the same transaction as
// the messages it covers, so a killed import resumes exactly where it stopped.
func (tx *Tx) SetImportFile(f ImportFile) error {
	return tx.c.run(`INSERT INTO recall_import_files(path, source, size, mtime, offset, state, sessions, imported_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET source = excluded.source, size = excluded.size, mtime = excluded.mtime,
			offset = excluded.offset, state = excluded.state, sessions = excluded.sessions, imported_at = excluded.imported_at`,
		f.Path, f.Source, f.Size, toEpoch(f.ModTime), f.Offset, f.State, f.Sessions, toEpoch(now()))
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
func linkPendingParents(c *conn) error {
	var links [][2]string
	err := c.query(`SELECT p.session_id, p.parent_id FROM recall_pending_parents p
		WHERE EXISTS (SELECT 1 FROM sessions s WHERE s.id = p.parent_id)`, nil, func(st stmtRow) error {
		links = append(links, [2]string{st.ColumnText(0), st.ColumnText(1)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, l := range links {
		if err := c.run("UPDATE sessions SET parent_session_id = ? WHERE id = ? AND parent_session_id IS NULL", l[1], l[0]); err != nil {
			return err
		}
		if err := c.run("DELETE FROM recall_pending_parents WHERE session_id = ?", l[0]); err != nil {
			return err
		}
	}
	return nil
}
