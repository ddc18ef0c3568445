package store

import (
	"fmt"
	"math"
	"strconv"
)

// DropStored prepares session id for messages read again from a source
// file that changed under recall (rewritten shorter, truncated or edited
// before where the last import stopped): it returns msgs without those of
// the session's messages already stored (same role, content and tool call
// id, and the same timestamp when the new one has one), and forgets the
// session's source keys so the rest are inserted afresh. Nothing stored is
// deleted: what the agent dropped from its file stays in recall, in its
// place.
func (tx *Tx) DropStored(id string, msgs []Message) ([]Message, error) {
	out, err := tx.dropMatching(id, msgs, false)
	if err != nil {
		return nil, err
	}
	if tx.s.layout.hasKeys {
		if err := tx.c.run("DELETE FROM recall_message_keys WHERE key >= ? AND key < ?", id+"\x00", id+"\x01"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// KeepDropped prepares session id for a fresh copy of its messages read
// from a source that rewrites whole sessions (an app's database, a data
// export): a stored message whose source key is in msgs is deleted, to be
// inserted again as the source has it now (a reply that grew, an edit); a
// stored message the source no longer has stays, so history the app pruned
// is kept. Messages without a key are matched as DropStored matches them.
func (tx *Tx) KeepDropped(id string, msgs []Message) ([]Message, error) {
	if !tx.s.layout.hasKeys {
		return tx.DropStored(id, msgs)
	}
	for _, m := range msgs {
		if m.SessionID != id || m.SourceKey == "" {
			continue
		}
		// The delete trigger drops the key row with the message.
		if err := tx.c.run("DELETE FROM messages WHERE id IN (SELECT message_id FROM recall_message_keys WHERE key = ?)", id+"\x00"+m.SourceKey); err != nil {
			return nil, fmt.Errorf("replace message of %s: %w", id, err)
		}
	}
	tx.dirty[id] = true
	return tx.dropMatching(id, msgs, true)
}

// dropMatching returns msgs without those of session id's messages already
// stored (same role, content and tool call id, and the same timestamp when
// the new one has one), in their order; keyed, when set, passes messages
// with a source key through untouched.
func (tx *Tx) dropMatching(id string, msgs []Message, keyed bool) ([]Message, error) {
	withTS := map[string]int{}
	noTS := map[string]int{}
	err := tx.c.query("SELECT role, COALESCE(content, ''), COALESCE(tool_call_id, ''), COALESCE(timestamp, 0) FROM messages WHERE session_id = ?",
		[]any{id}, func(st stmtRow) error {
			k := reproKey(st.ColumnText(0), st.ColumnText(1), st.ColumnText(2))
			withTS[k+"\x00"+tsKey(st.ColumnFloat(3))]++
			noTS[k]++
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read messages of %s: %w", id, err)
	}
	out := msgs[:0:0]
	for _, m := range msgs {
		if m.SessionID == id && !(keyed && m.SourceKey != "") {
			k := reproKey(m.Role, cleanContent(m.Content), m.ToolCallID)
			if m.Timestamp.IsZero() {
				if noTS[k] > 0 {
					noTS[k]--
					continue
				}
			} else if kt := k + "\x00" + tsKey(toEpoch(m.Timestamp)); withTS[kt] > 0 {
				withTS[kt]--
				noTS[k]--
				continue
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func reproKey(role, content, call string) string {
	return role + "\x00" + call + "\x00" + content
}

// tsKey is a stored timestamp to the millisecond (REAL seconds round-trip
// to about a microsecond).
func tsKey(epoch float64) string {
	return strconv.FormatInt(int64(math.Round(epoch*1000)), 10)
}
