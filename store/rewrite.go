package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// A source that rewrites whole sessions (a data export, an app's database)
// may hand recall a message it imported before with other text: an edit, a
// regenerated answer under the same id, or an untrusted export reusing a
// conversation's ids. The message then takes the new text in its place
// (transcripts read as the source has them now), and the text it had is
// kept as an earlier version: a row of its own that is not part of the live
// conversation (active = 0, so no count, title or preview uses it) but is
// searched as Hermes searches compacted rows (compacted = 1), and marked
// display_kind = 'earlier' so every view labels it. Nothing once imported
// is lost; `recall stats` counts these rows (messages_rewritten).

// earlierKeyTag joins a message's source key and a hash of the earlier
// text it had, into the earlier version's own key: importing the same
// rewrite twice keeps one copy.
const earlierKeyTag = "~earlier:"

// keyedRow is a stored message found by its source key.
type keyedRow struct {
	id                                                 int64
	role, content, callID, calls, tool, reasoning, fin string
	ts                                                 float64
	tokens                                             int
	active, compacted                                  bool
	kind                                               string
}

func (r keyedRow) sameText(m *Message) bool {
	return r.role == m.Role && r.content == cleanContent(m.Content) && r.callID == m.ToolCallID &&
		r.calls == m.ToolCalls && r.tool == m.ToolName && r.reasoning == m.Reasoning
}

func (r keyedRow) sameState(m *Message) bool {
	return (m.Timestamp.IsZero() || tsKey(r.ts) == tsKey(toEpoch(m.Timestamp))) && r.fin == m.FinishReason &&
		r.tokens == m.TokenCount && r.active == !m.Inactive && r.compacted == m.Compacted && r.kind == m.DisplayKind
}

// refreshKeyed brings the stored message of session sid with m's source key
// up to m (see KeepDropped); false when there is none and m is new.
func (tx *Tx) refreshKeyed(sid string, m *Message) (bool, error) {
	tx.redactIncoming(m) // compared, and stored, as redact_at_import stores it
	row, ok, err := tx.keyedRow(sid, m.SourceKey)
	if err != nil || !ok {
		return false, err
	}
	m.ID = row.id
	switch {
	case row.sameText(m) && row.sameState(m):
		return true, nil
	case row.sameText(m):
		return true, tx.overwriteMessage(row.id, m)
	}
	if err := tx.keepEarlier(sid, m.SourceKey, row); err != nil {
		return false, err
	}
	tx.rewritten++
	return true, tx.overwriteMessage(row.id, m)
}

// Rewritten is how many stored messages this transaction gave new text,
// keeping their earlier text as earlier versions.
func (tx *Tx) Rewritten() int { return tx.rewritten }

// keyedRow reads the message of session sid stored with source key key.
func (tx *Tx) keyedRow(sid, key string) (keyedRow, bool, error) {
	var r keyedRow
	found := false
	q := `SELECT ` + tx.s.layout.keyedRowCols() + ` FROM recall_message_keys k JOIN messages m ON m.id = k.message_id WHERE k.key = ?`
	err := tx.c.query(q, []any{sid + "\x00" + key}, func(st stmtRow) error {
		found = true
		r = scanKeyedRow(st)
		return nil
	})
	return r, found, err
}

// keyedRowCols are the columns scanKeyedRow reads, of messages m.
func (l layout) keyedRowCols() string {
	return `m.id, m.role, COALESCE(m.content, ''), COALESCE(m.tool_call_id, ''), COALESCE(m.tool_calls, ''),
		COALESCE(m.tool_name, ''), COALESCE(` + l.messageCol("reasoning", "NULL") + `, ''), COALESCE(` + l.messageCol("finish_reason", "NULL") + `, ''),
		COALESCE(m.timestamp, 0), COALESCE(m.token_count, 0), COALESCE(` + l.messageCol("active", "1") + `, 1),
		COALESCE(` + l.messageCol("compacted", "0") + `, 0), COALESCE(` + l.messageCol("display_kind", "NULL") + `, '')`
}

func scanKeyedRow(st stmtRow) keyedRow {
	return keyedRow{id: st.ColumnInt64(0), role: st.ColumnText(1), content: st.ColumnText(2), callID: st.ColumnText(3),
		calls: st.ColumnText(4), tool: st.ColumnText(5), reasoning: st.ColumnText(6), fin: st.ColumnText(7),
		ts: st.ColumnFloat(8), tokens: st.ColumnInt(9), active: st.ColumnInt(10) != 0, compacted: st.ColumnInt(11) != 0,
		kind: st.ColumnText(12)}
}

// textHash is a short hash of a message's text fields, in one order.
func textHash(role, content, callID, calls, tool, reasoning string) string {
	h := sha256.New()
	for _, s := range []string{role, content, callID, calls, tool, reasoning} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// hash is textHash of the row's text.
func (r keyedRow) hash() string {
	return textHash(r.role, r.content, r.callID, r.calls, r.tool, r.reasoning)
}

// messageHash is textHash of m's text as it would be stored.
func messageHash(m *Message) string {
	return textHash(m.Role, cleanContent(m.Content), m.ToolCallID, m.ToolCalls, m.ToolName, m.Reasoning)
}

// message is the row as a Message of session sid, in the state it has.
func (r keyedRow) message(sid string) Message {
	return Message{SessionID: sid, Role: r.role, Content: r.content, ToolCallID: r.callID, ToolCalls: r.calls,
		ToolName: r.tool, Reasoning: r.reasoning, FinishReason: r.fin, TokenCount: r.tokens,
		Timestamp: fromEpoch(r.ts), Inactive: !r.active, Compacted: r.compacted, DisplayKind: r.kind}
}

// earlierVersion is row's text as the earlier version of the message with
// source key key in session sid.
func earlierVersion(sid, key string, row keyedRow) Message {
	old := row.message(sid)
	old.Inactive, old.Compacted, old.DisplayKind = true, row.earlierSearched(), DisplayKindEarlier
	old.SourceKey = key + earlierKeyTag + row.hash()
	return old
}

// earlierSearched reports whether row's text, kept as an earlier version,
// is searched (as compacted rows are: compacted = 1). Text that was never
// searched stays out of search: an earlier version of a hidden or rewound
// message (active = 0, compacted = 0: Hermes's rewound).
func (r keyedRow) earlierSearched() bool {
	return (r.active || r.compacted) && r.kind != DisplayKindHidden
}

// markEarlier makes stored row r an earlier version where it stands: out
// of the live conversation, searched only if its text was.
func (tx *Tx) markEarlier(r keyedRow) error {
	tx.rewritten++
	return tx.c.run("UPDATE messages SET active = 0, compacted = ?, display_kind = ? WHERE id = ?", r.earlierSearched(), DisplayKindEarlier, r.id)
}

// keepEarlier stores row's text as an earlier version of the message with
// source key key in session sid.
func (tx *Tx) keepEarlier(sid, key string, row keyedRow) error {
	if !tx.s.layout.hasDisplayState() {
		return nil // a Hermes file before v11 cannot mark it: it keeps the new text only
	}
	old := earlierVersion(sid, key, row)
	_, err := tx.insertMessage(&old, sid, tx.bulkTriggers != nil)
	return err
}

// overwriteMessage gives the stored message id m's text and state, in
// place (the index triggers re-index it).
func (tx *Tx) overwriteMessage(id int64, m *Message) error {
	ts := m.Timestamp
	if ts.IsZero() {
		ts = now()
	}
	set := "role = ?, content = ?, tool_call_id = ?, tool_calls = ?, tool_name = ?, timestamp = ?, token_count = ?"
	args := []any{m.Role, cleanContent(m.Content), nullString(m.ToolCallID), nullString(m.ToolCalls), nullString(m.ToolName), ts, nullInt(m.TokenCount)}
	l := tx.s.layout
	if l.messageCols["finish_reason"] {
		set += ", finish_reason = ?"
		args = append(args, nullString(m.FinishReason))
	}
	if l.messageCols["reasoning"] {
		set += ", reasoning = ?"
		args = append(args, nullString(m.Reasoning))
	}
	if l.hasDisplayState() {
		set += ", active = ?, compacted = ?, display_kind = ?"
		args = append(args, boolInt(!m.Inactive), boolInt(m.Compacted), nullString(m.DisplayKind))
	}
	if err := tx.c.run("UPDATE messages SET "+set+" WHERE id = ?", append(args, id)...); err != nil {
		return fmt.Errorf("rewrite message %d: %w", id, err)
	}
	tx.bytes += int64(messageBytes(m))
	return nil
}
