package store

import (
	"context"
	"fmt"
	"strings"
)

// An older recall stored a second source's session in the first one's when
// their ids were the same (Copilot CLI's and Qwen Code's 11111111-…,
// two generic JSONL files naming different sources). Migration 1030 lists
// the files that share a session with a file of another source
// (recall_identity_recheck); the next import reads each of them again in
// full, and importer.Commit hands its messages to ClaimMerged, which moves
// the ones the merged session holds into the file's own session. A file that
// is gone cannot say which messages were its own: its session stays merged.

// RecheckFiles returns the files of importer source that may hold a
// session an older recall merged into another one's, for an import to read
// again.
func (s *Store) RecheckFiles(ctx context.Context, source string) ([]string, error) {
	if !s.layout.hasIdentity || !s.layout.hasImportMeta {
		return nil, nil
	}
	var out []string
	err := s.read(ctx, func(c *conn) error {
		out = out[:0]
		return c.query(`SELECT DISTINCT r.path FROM recall_identity_recheck r JOIN recall_import_files f ON f.path = r.path
			WHERE f.source = ? ORDER BY r.path`, []any{source}, func(st stmtRow) error {
			out = append(out, st.ColumnText(0))
			return nil
		})
	})
	return out, err
}

// RecheckSessions returns the sessions (stored ids) path listed that an
// older recall may have merged with another source's.
func (tx *Tx) RecheckSessions(path string) ([]string, error) {
	if !tx.s.layout.hasIdentity {
		return nil, nil
	}
	var out []string
	err := tx.c.query("SELECT session_id FROM recall_identity_recheck WHERE path = ? ORDER BY session_id", []any{path}, func(st stmtRow) error {
		out = append(out, st.ColumnText(0))
		return nil
	})
	return out, err
}

// DoneRecheck records that path was read again (RecheckSessions).
func (tx *Tx) DoneRecheck(path string) error {
	if !tx.s.layout.hasIdentity {
		return nil
	}
	return tx.c.run("DELETE FROM recall_identity_recheck WHERE path = ?", path)
}

// ClaimMerged moves out of the merged session merged (a stored id) the
// messages of msgs that belong to another session of the same own id: for
// each such message, a stored one with the same role, text and tool call id
// (and time, when the message has one) becomes the other session's, with
// its source key. Call it after the file's sessions are written.
func (tx *Tx) ClaimMerged(merged string, msgs []Message) (int, error) {
	native, _, err := tx.c.scalarText("SELECT COALESCE((SELECT native_id FROM recall_session_identity WHERE id = ?1), ?1)", merged)
	if err != nil {
		return 0, err
	}
	byOwner := map[string][]Message{}
	for i := range msgs {
		if msgs[i].SessionID != native {
			continue
		}
		sid, err := tx.resolveMessage(&msgs[i])
		if err != nil {
			return 0, err
		}
		if sid != merged {
			byOwner[sid] = append(byOwner[sid], msgs[i])
		}
	}
	moved := 0
	for owner, own := range byOwner {
		n, err := tx.moveMatching(merged, owner, own)
		if err != nil {
			return moved, fmt.Errorf("split session %s: %w", clipID(merged), err)
		}
		moved += n
	}
	return moved, nil
}

// moveMatching moves from session from to session to one stored message
// for each message of msgs it matches (dropMatching's rule).
func (tx *Tx) moveMatching(from, to string, msgs []Message) (int, error) {
	type row struct {
		id int64
		ts string
	}
	byText := map[string][]row{}
	err := tx.c.query("SELECT id, role, COALESCE(content, ''), COALESCE(tool_call_id, ''), COALESCE(timestamp, 0) FROM messages WHERE session_id = ? ORDER BY id",
		[]any{from}, func(st stmtRow) error {
			k := reproKey(st.ColumnText(1), st.ColumnText(2), st.ColumnText(3))
			byText[k] = append(byText[k], row{st.ColumnInt64(0), tsKey(st.ColumnFloat(4))})
			return nil
		})
	if err != nil {
		return 0, err
	}
	var ids []int64
	for _, m := range msgs {
		k := reproKey(m.Role, cleanContent(m.Content), m.ToolCallID)
		rows := byText[k]
		for i, r := range rows {
			if m.Timestamp.IsZero() || r.ts == tsKey(toEpoch(m.Timestamp)) {
				ids = append(ids, r.id)
				byText[k] = append(rows[:i:i], rows[i+1:]...)
				break
			}
		}
	}
	for _, id := range ids {
		if err := tx.c.run("UPDATE messages SET session_id = ? WHERE id = ?", to, id); err != nil {
			return 0, err
		}
		if tx.s.layout.hasKeys {
			if err := tx.renameKeys(from, to, id); err != nil {
				return 0, err
			}
		}
	}
	if len(ids) > 0 {
		tx.dirty[from], tx.dirty[to] = true, true
	}
	return len(ids), nil
}

// renameKeys gives message id's source keys of session from to session to.
func (tx *Tx) renameKeys(from, to string, id int64) error {
	var keys []string
	if err := tx.c.query("SELECT key FROM recall_message_keys WHERE key >= ? AND key < ? AND message_id = ?",
		[]any{from + "\x00", from + "\x01", id}, func(st stmtRow) error {
			keys = append(keys, st.ColumnText(0))
			return nil
		}); err != nil {
		return err
	}
	for _, k := range keys {
		nk := to + "\x00" + strings.TrimPrefix(k, from+"\x00")
		if err := tx.c.run("DELETE FROM recall_message_keys WHERE key = ?", k); err != nil {
			return err
		}
		if err := tx.c.run("INSERT OR REPLACE INTO recall_message_keys(key, message_id) VALUES (?, ?)", nk, id); err != nil {
			return err
		}
	}
	return nil
}
