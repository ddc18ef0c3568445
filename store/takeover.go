package store

import "fmt"

// ReplaceCopy prepares session id (the source's own id, or the stored
// one), which another copy of its conversation filled so far, for msgs:
// the same conversation from a fuller record of it (Kiro CLI's journal of a
// conversation whose database copy recall read first). A stored message
// msgs bring again (same source key and text, or same role, text, tool
// call id, tool calls and tool name, its reasoning the same or none) is
// deleted: msgs bring it back. A stored message whose source key msgs
// give other text becomes an earlier version where it is (as a source's
// rewrite keeps one, rewrite.go). Every other stays where it is, so what
// only the other copy held (turns from before the journal began, a
// compaction summary) is not lost.
func (tx *Tx) ReplaceCopy(id string, msgs []Message) error {
	sid, err := tx.resolveNative(id, "")
	if err != nil {
		return err
	}
	keys := map[string]string{}    // source key -> hash of the text msgs give it
	texts := map[string][]string{} // text hash -> the reasoning of each message with it
	for i := range msgs {
		m := msgs[i]
		tx.redactIncoming(&m) // compared as it would be stored
		if m.SourceKey != "" {
			keys[m.SourceKey] = messageHash(&m)
		}
		h := textHash(m.Role, cleanContent(m.Content), m.ToolCallID, m.ToolCalls, m.ToolName, "")
		texts[h] = append(texts[h], m.Reasoning)
	}
	stored, err := tx.sessionKeys(sid)
	if err != nil {
		return err
	}
	var gone []int64
	var earlier []keyedAt
	err = tx.c.query("SELECT "+tx.s.layout.keyedRowCols()+" FROM messages m WHERE m.session_id = ? ORDER BY m.id", []any{sid}, func(st stmtRow) error {
		r := scanKeyedRow(st)
		if r.isEarlier() {
			return nil // an earlier version stays one
		}
		for _, k := range stored[r.id] {
			if h, ok := keys[k]; ok {
				if h == r.hash() || !tx.s.layout.hasDisplayState() {
					gone = append(gone, r.id)
				} else {
					earlier = append(earlier, keyedAt{row: r, key: k, hash: r.hash()})
				}
				return nil
			}
		}
		h := textHash(r.role, r.content, r.callID, r.calls, r.tool, "")
		for i, reasoning := range texts[h] {
			if r.reasoning == "" || r.reasoning == reasoning {
				texts[h] = append(texts[h][:i], texts[h][i+1:]...)
				gone = append(gone, r.id)
				break
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the messages of %s: %w", sid, err)
	}
	for _, mid := range gone {
		if err := tx.c.run("DELETE FROM messages WHERE id = ?", mid); err != nil {
			return fmt.Errorf("replace the copy of %s: %w", sid, err)
		}
	}
	if err := tx.keepInPlace(sid, earlier); err != nil {
		return err
	}
	tx.dirty[sid] = true
	return nil
}

// keyedAt is a stored row, the source key it is stored under and the hash
// of its text.
type keyedAt struct {
	row       keyedRow
	key, hash string
}

// keepInPlace makes each row of session sid in rows an earlier version
// where it stands: out of the live conversation, its key freed for the
// message that now has other text under it.
func (tx *Tx) keepInPlace(sid string, rows []keyedAt) error {
	for _, r := range rows {
		old := sid + "\x00" + r.key
		if err := tx.c.run("UPDATE recall_message_keys SET key = ? WHERE key = ?", old+earlierKeyTag+r.hash, old); err != nil {
			return fmt.Errorf("re-key message %d of %s: %w", r.row.id, sid, err)
		}
		if err := tx.markEarlier(r.row); err != nil {
			return fmt.Errorf("keep the earlier text of message %d of %s: %w", r.row.id, sid, err)
		}
	}
	return nil
}
