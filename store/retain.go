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
// place. id, like the messages' SessionID, is the source's own id (or the
// stored one).
func (tx *Tx) DropStored(id string, msgs []Message) ([]Message, error) {
	sid, err := tx.resolveNative(id, "")
	if err != nil {
		return nil, err
	}
	out, err := tx.dropMatching(sid, msgs, false)
	if err != nil {
		return nil, err
	}
	if tx.s.layout.hasKeys {
		if err := tx.c.run("DELETE FROM recall_message_keys WHERE key >= ? AND key < ?", sid+"\x00", sid+"\x01"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// KeepDropped prepares session id for a fresh copy of its messages read
// from a source that rewrites whole sessions (an app's database, a data
// export), and returns the messages still to insert. A stored message
// whose source key is in msgs stays where it is: unchanged, it is dropped
// from msgs (its timestamp, finish reason, token count and display state
// follow the source's); rewritten (its text, tool calls or reasoning
// changed), it takes the new text in place, and its earlier text is kept in
// a row of its own (an earlier version, DisplayKindEarlier), so nothing
// once imported is lost. A stored message the source no longer has stays,
// so history the app pruned is kept. Messages without a key are matched
// as DropStored matches them.
func (tx *Tx) KeepDropped(id string, msgs []Message) ([]Message, error) {
	if !tx.s.layout.hasKeys {
		return tx.DropStored(id, msgs)
	}
	sid, err := tx.resolveNative(id, "")
	if err != nil {
		return nil, err
	}
	out := msgs[:0:0]
	for i := range msgs {
		m := &msgs[i]
		if m.SourceKey == "" {
			out = append(out, *m)
			continue
		}
		msid, err := tx.resolveMessage(m)
		if err != nil {
			return nil, err
		}
		if msid != sid {
			out = append(out, *m)
			continue
		}
		kept, err := tx.refreshKeyed(sid, m)
		if err != nil {
			return nil, fmt.Errorf("replace message of %s: %w", sid, err)
		}
		if !kept {
			out = append(out, *m)
		}
	}
	tx.dirty[sid] = true
	return tx.dropMatching(sid, out, true)
}

// dropMatching returns msgs without those of session id's messages already
// stored (same role, content and tool call id, and the same timestamp when
// the new one has one), in their order; keyed, when set, passes messages
// with a source key through untouched.
func (tx *Tx) dropMatching(id string, msgs []Message, keyed bool) ([]Message, error) {
	sids := make([]string, len(msgs))
	for i := range msgs {
		var err error
		if sids[i], err = tx.resolveMessage(&msgs[i]); err != nil {
			return nil, err
		}
	}
	matched := func(i int) bool { return sids[i] == id && !(keyed && msgs[i].SourceKey != "") }
	need := false
	for i := range msgs {
		need = need || matched(i)
	}
	if !need { // every message keyed, or another session's: no stored text to read
		return append(msgs[:0:0], msgs...), nil
	}
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
	for i, m := range msgs {
		if matched(i) {
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
