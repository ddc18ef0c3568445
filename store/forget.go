package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ForgetOptions says what is being forgotten besides rows.
type ForgetOptions struct {
	// Text is the text being forgotten (`recall forget --match`'s query):
	// a session title that holds it is cleared, and the database file is
	// searched for it once the rows are gone.
	Text string
}

// ForgetResult counts what Forget deleted.
type ForgetResult struct {
	Sessions int // whole sessions
	Messages int // messages, those of the whole sessions included
	// Titles counts the titles cleared because they held forgotten text
	// (a list then names the session by its first prompt, as any untitled one).
	Titles int
	// Left counts the copies of forgotten text (ForgetOptions.Text, the
	// cleared titles) still found in the database file and its WAL after
	// the checkpoint: 0 when the file holds none.
	Left int
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
//
// Tombstones are kept by text too, so that a copy of a forgotten message
// (a transcript copied under a new session id, a fork) stays forgotten:
// every message forgotten by id, and every message of a forgotten session
// long enough not to be a common reply ("yes", "continue"). A title that
// holds forgotten text (o.Text, or a forgotten message it was cut from) is
// cleared, and tombstoned so that an import does not set it again.
func (s *Store) Forget(ctx context.Context, sessionIDs []string, messageIDs []int64, o ForgetOptions) (ForgetResult, error) {
	if !s.layout.hasForgotten {
		return ForgetResult{}, ErrNoTombstones
	}
	var res ForgetResult
	var cleared []string
	err := s.Write(ctx, func(tx *Tx) error {
		res, cleared = ForgetResult{}, nil
		forgotten := map[string][]string{} // session -> texts of its forgotten messages
		restore, err := tx.secureDelete()
		defer restore()
		if err != nil {
			return err
		}
		at := float64(now().UnixNano()) / float64(time.Second)
		tomb := func(keys ...string) error {
			for _, key := range keys {
				if err := tx.c.run("INSERT OR REPLACE INTO recall_forgotten(key, forgotten_at) VALUES (?, ?)", key, at); err != nil {
					return err
				}
			}
			return nil
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
			if err := tomb(contentKey(sid, role, content), contentKey("", role, content)); err != nil {
				return err
			}
			forgotten[sid] = append(forgotten[sid], content)
			if tx.s.layout.hasKeys {
				var keys []string
				if err := tx.c.query("SELECT key FROM recall_message_keys WHERE key >= ? AND key < ? AND message_id = ?",
					[]any{sid + "\x00", sid + "\x01", id}, func(st stmtRow) error {
						keys = append(keys, st.ColumnText(0))
						return nil
					}); err != nil {
					return err
				}
				if err := tomb(keys...); err != nil {
					return err
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
			// Its title and its messages' texts, so that a copy stays forgotten.
			var keys []string
			if title, ok, err := tx.c.scalarText("SELECT COALESCE(title, '') FROM sessions WHERE id = ?", id); err != nil {
				return err
			} else if ok && title != "" {
				keys = append(keys, titleKey(title), titleKey(baseTitle(title)))
			}
			prev := ""
			if err := tx.c.query("SELECT role, COALESCE(content, '') FROM messages WHERE session_id = ? ORDER BY id", []any{id}, func(st stmtRow) error {
				role, content := st.ColumnText(0), st.ColumnText(1)
				if len(strings.TrimSpace(content)) >= minCopiedText {
					keys = append(keys, contentKey("", role, content))
				} else {
					keys = append(keys, chainKey(role, content, prev))
				}
				prev = content
				return nil
			}); err != nil {
				return err
			}
			if err := tomb(keys...); err != nil {
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
		if cleared, err = tx.clearTitles(forgotten, o.Text, tomb); err != nil {
			return err
		}
		res.Titles = len(cleared)
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
	var needles []string
	if len(strings.TrimSpace(o.Text)) >= minCheckedText {
		needles = append(needles, o.Text)
	}
	for _, t := range cleared {
		if len(t) >= minCheckedText {
			needles = append(needles, t)
		}
	}
	left, err := fileHolds(s.path, needles)
	if err != nil {
		return res, fmt.Errorf("deleted, but checking the file for what was left failed: %w", err)
	}
	res.Left = left
	return res, nil
}

// minCopiedText: a message of a forgotten session shorter than this is
// tombstoned by its text together with the message before it (chainKey):
// "yes", "continue", "/compact" recur in every session, and only in a copy
// of the forgotten one do they follow the same message. A message
// forgotten by id is tombstoned by its text alone, whatever its length.
const minCopiedText = 32

// chainKey is the tombstone of a short message of a forgotten session:
// its role and text, and the text of the message before it ("" for the
// first).
func chainKey(role, content, prev string) string {
	h := sha256.Sum256([]byte(role + "\x00" + content + "\x00" + prev))
	return "\x00~" + hex.EncodeToString(h[:])
}

// follows records the text of the last message of a session seen by this
// transaction's inserts (kept or dropped), which the next one's chainKey
// is made with.
func (tx *Tx) follows(sessionID, content string) {
	if tx.prevText == nil {
		tx.prevText = map[string]string{}
	}
	tx.prevText[sessionID] = content
}

// droppedForgotten records that a forgotten message of sessionID was not
// inserted.
func (tx *Tx) droppedForgotten(sessionID string) {
	if tx.forgotDrops == nil {
		tx.forgotDrops = map[string]bool{}
	}
	tx.forgotDrops[sessionID] = true
}

// previous is the text of the message before the next one inserted into
// sessionID: the last one this transaction saw, else the last one stored.
func (tx *Tx) previous(sessionID string) (string, error) {
	if p, ok := tx.prevText[sessionID]; ok {
		return p, nil
	}
	p, _, err := tx.c.scalarText("SELECT COALESCE(content, '') FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT 1", sessionID)
	return p, err
}

// minCheckedText: shorter text is not looked for in the file (it would be
// found in unrelated rows).
const minCheckedText = 6

// clearTitles clears the titles of the sessions that lost messages when a
// title holds text (the forgotten query) or was cut from one of the
// messages forgotten in it; each cleared title is tombstoned. It returns
// the titles cleared.
func (tx *Tx) clearTitles(forgotten map[string][]string, text string, tomb func(...string) error) ([]string, error) {
	var cleared []string
	for sid, contents := range forgotten {
		title, ok, err := tx.c.scalarText("SELECT COALESCE(title, '') FROM sessions WHERE id = ?", sid)
		if err != nil {
			return nil, err
		}
		if !ok || title == "" || !titleHolds(title, text, contents) {
			continue
		}
		if err := tx.c.run("UPDATE sessions SET title = NULL WHERE id = ?", sid); err != nil {
			return nil, fmt.Errorf("clear the title of %s: %w", sid, err)
		}
		if err := tomb(titleKey(title), titleKey(baseTitle(title))); err != nil {
			return nil, err
		}
		cleared = append(cleared, title)
	}
	return cleared, nil
}

// titleHolds reports whether a title holds forgotten text: the text
// itself or all its words (compared in lower case), or the start of a
// forgotten message it was cut from (importers title a session by its
// first prompt).
func titleHolds(title, text string, contents []string) bool {
	low := strings.ToLower(title)
	if text = strings.ToLower(strings.TrimSpace(text)); text != "" {
		if strings.Contains(low, text) {
			return true
		}
		words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' })
		all := len(words) > 0
		for _, w := range words {
			all = all && strings.Contains(low, w)
		}
		if all {
			return true
		}
	}
	cut := strings.TrimSpace(strings.TrimRight(baseTitle(title), ".…"))
	if len([]rune(cut)) < 8 {
		return false
	}
	cut = strings.Join(strings.Fields(cut), " ")
	for _, c := range contents {
		if strings.Contains(strings.Join(strings.Fields(c), " "), cut) {
			return true
		}
	}
	return false
}

// baseTitle is a title without the " #N" freeTitle numbers repeats with.
func baseTitle(t string) string {
	if i := strings.LastIndex(t, " #"); i > 0 {
		if _, err := strconv.Atoi(t[i+2:]); err == nil {
			return t[:i]
		}
	}
	return t
}

// titleKey is the tombstone of a title cleared because it held forgotten text.
func titleKey(title string) string {
	h := sha256.Sum256([]byte(title))
	return "\x00title#" + hex.EncodeToString(h[:])
}

// keptTitle is title, or "" when forget cleared it (it held forgotten
// text, or titled a forgotten session): an import must not set it again.
func (tx *Tx) keptTitle(title string) (string, error) {
	if title == "" {
		return "", nil
	}
	f, err := tx.loadForgotten()
	if err != nil || f[titleKey(title)] || f[titleKey(baseTitle(title))] {
		return "", err
	}
	return title, nil
}

// fileHolds counts the occurrences of needles in the database file and its
// WAL: what secure_delete, the index rewrite and the checkpoint should have
// left nowhere. The files are read in chunks that overlap by the longest
// needle, so a copy across two reads is found once.
func fileHolds(path string, needles []string) (int, error) {
	if len(needles) == 0 || path == "" || path == ":memory:" {
		return 0, nil
	}
	longest := 0
	for _, n := range needles {
		longest = max(longest, len(n))
	}
	total := 0
	for _, name := range []string{path, path + "-wal"} {
		f, err := os.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return total, err
		}
		buf := make([]byte, 4<<20+longest)
		keep := 0
		for {
			n, rerr := io.ReadFull(f, buf[keep:])
			window := buf[:keep+n]
			for _, nd := range needles {
				// Count matches that end past the overlap, so none is counted twice.
				for off := 0; ; {
					i := bytes.Index(window[off:], []byte(nd))
					if i < 0 {
						break
					}
					if off+i+len(nd) > keep {
						total++
					}
					off += i + 1
				}
			}
			if rerr != nil {
				break
			}
			keep = min(longest-1, len(window))
			copy(buf, window[len(window)-keep:])
		}
		f.Close()
	}
	return total, nil
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

// contentKey is a forgotten message's tombstone by text: its session (""
// for any session), its role and the SHA-256 of its stored text.
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
// session, its source key, or its text, in its session or any other (a
// copy, a fork; a short text only after the same message as there). Call
// it before follows records the message.
func (tx *Tx) messageForgotten(m *Message, content string) (bool, error) {
	f, err := tx.loadForgotten()
	if err != nil || len(f) == 0 {
		return false, err
	}
	if f[m.SessionID] || (m.SourceKey != "" && f[m.SessionID+"\x00"+m.SourceKey]) ||
		f[contentKey(m.SessionID, m.Role, content)] || f[contentKey("", m.Role, content)] {
		return true, nil
	}
	if len(strings.TrimSpace(content)) >= minCopiedText {
		return false, nil
	}
	prev, err := tx.previous(m.SessionID)
	return f[chainKey(m.Role, content, prev)], err
}
