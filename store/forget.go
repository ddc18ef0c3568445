package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// ForgetResult counts what Forget deleted.
type ForgetResult struct {
	Sessions int // whole sessions
	Messages int // messages, those of the whole sessions included
}

// ErrNoTombstones is returned by Forget on a database recall has not
// migrated: without a place to remember what was deleted, an import would
// bring it back.
var ErrNoTombstones = errors.New("this database has no recall_forgotten table (run recall migrate first)")

// Forget deletes the sessions sessionIDs (with their messages) and the
// messages messageIDs for good: their rows, their entries in every FTS
// index (each index is then merged into one segment, so no term of them
// stays in an old one), with PRAGMA secure_delete (freed space is
// zeroed), then a
// checkpoint that truncates the WAL, which held copies of the pages. Each
// one leaves a tombstone (recall_forgotten, no text) so that importing its
// file again does not bring it back. Child sessions of a forgotten one are
// kept, unlinked, as Hermes does on delete.
func (s *Store) Forget(ctx context.Context, sessionIDs []string, messageIDs []int64) (ForgetResult, error) {
	if !s.layout.hasForgotten {
		return ForgetResult{}, ErrNoTombstones
	}
	var res ForgetResult
	err := s.Write(ctx, func(tx *Tx) error {
		res = ForgetResult{}
		restore, err := tx.secureDelete()
		defer restore()
		if err != nil {
			return err
		}
		at := float64(now().UnixNano()) / float64(time.Second)
		tomb := func(key string) error {
			return tx.c.run("INSERT OR REPLACE INTO recall_forgotten(key, forgotten_at) VALUES (?, ?)", key, at)
		}
		for _, id := range messageIDs {
			var sid, role, content string
			found := false
			err := tx.c.query("SELECT session_id, role, COALESCE(content, '') FROM messages WHERE id = ?", []any{id}, func(st stmtRow) error {
				sid, role, content, found = st.ColumnText(0), st.ColumnText(1), st.ColumnText(2), true
				return nil
			})
			if err != nil || !found {
				if err != nil {
					return err
				}
				continue
			}
			if err := tomb(contentKey(sid, role, content)); err != nil {
				return err
			}
			if tx.s.layout.hasKeys {
				var keys []string
				if err := tx.c.query("SELECT key FROM recall_message_keys WHERE key >= ? AND key < ? AND message_id = ?",
					[]any{sid + "\x00", sid + "\x01", id}, func(st stmtRow) error {
						keys = append(keys, st.ColumnText(0))
						return nil
					}); err != nil {
					return err
				}
				for _, k := range keys {
					if err := tomb(k); err != nil {
						return err
					}
				}
			}
			if err := tx.c.run("DELETE FROM messages WHERE id = ?", id); err != nil {
				return fmt.Errorf("forget message %d: %w", id, err)
			}
			tx.dirty[sid] = true
			res.Messages++
		}
		for _, id := range sessionIDs {
			n, _, err := tx.c.scalarInt("SELECT count(*) FROM messages WHERE session_id = ?", id)
			if err != nil {
				return err
			}
			if err := tomb(id); err != nil {
				return err
			}
			if err := tx.reserveIdentity(id); err != nil {
				return err
			}
			if err := tx.DeleteSessionMessages(id); err != nil {
				return err
			}
			if err := tx.DeleteSession(id); err != nil {
				return fmt.Errorf("forget session %s: %w", id, err)
			}
			if tx.c.db.Changes() > 0 {
				res.Sessions++
			}
			if err := tx.c.run("DELETE FROM recall_pending_parents WHERE session_id = ?1 OR parent_id = ?1", id); err != nil && tx.s.layout.hasImportMeta {
				return err
			}
			delete(tx.dirty, id)
			res.Messages += int(n)
		}
		if res.Messages == 0 && res.Sessions == 0 {
			return nil
		}
		return tx.purgeIndexes()
	})
	if err != nil {
		return res, err
	}
	// The WAL still holds the pages as they were before: a full checkpoint
	// that truncates it leaves them nowhere. A reader holding an old
	// snapshot can keep it from truncating; the next one will.
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.writer != nil {
		if err := s.writer.exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return res, fmt.Errorf("deleted, but the checkpoint that clears the WAL failed: %w", dbError(s.path, err))
		}
	}
	return res, nil
}

// ftsTables are the FTS5 indexes of this layout.
func (l layout) ftsTables() []string {
	var t []string
	if l.hasFTS {
		t = append(t, "messages_fts")
	}
	if l.hasTrigram {
		t = append(t, "messages_fts_trigram")
	}
	if l.hasCJK {
		t = append(t, "recall_fts_cjk")
	}
	return t
}

// secureDelete turns on PRAGMA secure_delete (freed cells and pages are
// zeroed) for the deletes of this transaction; restore sets it back.
func (tx *Tx) secureDelete() (restore func(), err error) {
	restore = func() {}
	was, _, err := tx.c.scalarInt("PRAGMA secure_delete")
	if err != nil {
		return restore, err
	}
	if err := tx.c.exec("PRAGMA secure_delete=ON"); err != nil {
		return restore, err
	}
	return func() { _ = tx.c.exec(fmt.Sprintf("PRAGMA secure_delete=%d", was)) }, nil
}

// purgeIndexes rewrites every FTS5 index without the deleted rows: a
// delete only marks a row's terms as gone in a new segment, and the old
// segments keep the terms (a secret's words) until a merge. 'optimize'
// merges every segment into one, freeing (and, with secure_delete,
// zeroing) the old ones. FTS5's own 'secure-delete' option would avoid the
// rewrite, but it changes the index format (version 5), which SQLite
// before 3.42, and so an older Hermes or sqlite3 shell, cannot read.
func (tx *Tx) purgeIndexes() error {
	for _, t := range tx.s.layout.ftsTables() {
		if err := tx.c.exec(fmt.Sprintf("INSERT INTO %[1]s(%[1]s) VALUES ('optimize')", t)); err != nil {
			return fmt.Errorf("purge %s: %w", t, err)
		}
	}
	return nil
}

// contentKey is a forgotten message's tombstone when it has no source key:
// its session, its role and the SHA-256 of its stored text.
func contentKey(sessionID, role, content string) string {
	h := sha256.Sum256([]byte(role + "\x00" + content))
	return sessionID + "\x00#" + hex.EncodeToString(h[:])
}

// loadForgotten reads the tombstones once per transaction.
func (tx *Tx) loadForgotten() (map[string]bool, error) {
	if tx.forgotten != nil || !tx.s.layout.hasForgotten {
		return tx.forgotten, nil
	}
	tx.forgotten = map[string]bool{}
	return tx.forgotten, tx.c.query("SELECT key FROM recall_forgotten", nil, func(st stmtRow) error {
		tx.forgotten[st.ColumnText(0)] = true
		return nil
	})
}

// sessionForgotten reports a session that `recall forget` deleted.
func (tx *Tx) sessionForgotten(id string) (bool, error) {
	f, err := tx.loadForgotten()
	return f[id], err
}

// messageForgotten reports a message that `recall forget` deleted: its
// session, its source key, or its text.
func (tx *Tx) messageForgotten(m *Message, content string) (bool, error) {
	f, err := tx.loadForgotten()
	if err != nil || len(f) == 0 {
		return false, err
	}
	return f[m.SessionID] || (m.SourceKey != "" && f[m.SessionID+"\x00"+m.SourceKey]) ||
		f[contentKey(m.SessionID, m.Role, content)], nil
}
