package store

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// InsertMessages appends msgs in order and sets each one's ID. A message
// whose SourceKey was already imported (into the same session), or that
// `recall forget` deleted, is skipped and keeps ID 0. Session counters are refreshed when the transaction ends.
//
// A message larger than MaxMessageBytes fails the call before anything is
// written (errors.Is(err, ErrTooLarge)); CheckMessageSize tells beforehand.
func (tx *Tx) InsertMessages(msgs []Message) (int, error) {
	for i := range msgs {
		if err := CheckMessageSize(msgs[i]); err != nil {
			return 0, fmt.Errorf("insert message %d of %d in %s: %w", i+1, len(msgs), msgs[i].SessionID, err)
		}
	}
	inserted := 0
	bulk, err := tx.bulkFor(msgs)
	if err != nil {
		return 0, fmt.Errorf("insert messages: %w", err)
	}
	for i := range msgs {
		if msgs[i].SessionID == "" {
			return inserted, errors.New("insert message: empty session id")
		}
		tx.redactIncoming(&msgs[i]) // redact_at_import: secrets never stored
		sid, err := tx.resolveMessage(&msgs[i])
		if err != nil {
			return inserted, fmt.Errorf("insert message: %w", err)
		}
		msgs[i].ID = 0
		ok, err := tx.insertMessage(&msgs[i], sid, bulk)
		if err != nil {
			return inserted, err
		}
		if ok {
			inserted++
		}
	}
	return inserted, nil
}

// bulkFor decides whether msgs, about to be inserted, take the bulk path
// (bulk.go), and starts it when they do.
func (tx *Tx) bulkFor(msgs []Message) (bool, error) {
	// Once the bulk path has dropped the insert triggers, every later insert
	// of the transaction must index its rows directly too.
	// A deferred trigram index takes the bulk path even for one row: the
	// trigger would index it now.
	bulk := tx.bulkTriggers != nil ||
		((len(msgs) >= bulkMin || needsDirectIndex(msgs) || tx.s.deferTrigram.Load()) && tx.s.layout.hasCJK && tx.s.layout.hasTrigram && tx.s.layout.hasFTS)
	if bulk {
		if err := tx.beginBulk(); err != nil {
			return false, err
		}
	}
	return bulk, nil
}

// insertMessage writes m into the session stored as sid (not m.SessionID,
// which may be the source's own id) and sets m.ID; false when it was
// skipped (its source key stored already, or forgotten).
func (tx *Tx) insertMessage(m *Message, sid string, bulk bool) (bool, error) {
	if m.Role == "" {
		return false, fmt.Errorf("insert message in %s: empty role", sid)
	}
	var key string
	if m.SourceKey != "" && tx.s.layout.hasKeys {
		key = sid + "\x00" + m.SourceKey
		if _, dup, err := tx.c.scalarInt("SELECT 1 FROM recall_message_keys WHERE key = ?", key); err != nil {
			return false, err
		} else if dup {
			tx.follows(sid, cleanContent(m.Content))
			return false, nil
		}
	}
	content := cleanContent(m.Content)
	stored := *m
	stored.SessionID = sid
	gone, err := tx.messageForgotten(&stored, content)
	tx.follows(sid, content)
	if err != nil {
		return false, err
	} else if gone { // `recall forget` deleted it: an import must not bring it back
		tx.droppedForgotten(sid)
		return false, nil
	}
	var keys []string
	if key != "" {
		keys = []string{key}
	}
	return true, tx.writeMessage(m, sid, bulk, keys)
}

// writeMessage writes m's row into the session stored as sid, as it is (no
// check), with the given keys (whole recall_message_keys keys), and sets
// m.ID.
func (tx *Tx) writeMessage(m *Message, sid string, bulk bool, keys []string) error {
	ts := m.Timestamp
	if ts.IsZero() {
		ts = now()
	}
	content := cleanContent(m.Content)
	args := []any{sid, m.Role, content, nullString(m.ToolCallID), nullString(m.ToolCalls),
		nullString(m.ToolName), ts, nullInt(m.TokenCount), nullString(m.FinishReason), nullString(m.Reasoning)}
	if tx.s.layout.hasDisplayState() {
		args = append(args, boolInt(!m.Inactive), boolInt(m.Compacted), nullString(m.DisplayKind))
	}
	if err := tx.c.run(tx.s.layout.insertMessageSQL(), args...); err != nil {
		return fmt.Errorf("insert message in %s: %w", sid, err)
	}
	m.ID = tx.c.db.LastInsertRowID()
	tx.bytes += int64(messageBytes(m))
	if bulk {
		if err := tx.indexDirect(m, content); err != nil {
			return fmt.Errorf("index message %d: %w", m.ID, err)
		}
	}
	for _, key := range keys {
		if err := tx.c.run("INSERT INTO recall_message_keys(key, message_id) VALUES (?, ?)", key, m.ID); err != nil {
			return err
		}
	}
	tx.dirty[sid] = true
	return nil
}

// MaxMessageBytes is the largest message (content, tool calls and
// reasoning together) the store keeps: such a message is stored whole and
// indexed on its first characters (see indexContentChars). Measured within
// the 1 GiB of SQLite memory of a 64-bit build (wasmMemoryPages), a 128 MB
// message is written and read back and a 200 MB one runs out reading it
// back; 64 MiB keeps a margin of two. A 32-bit build (32 MiB) keeps 4 MiB.
const MaxMessageBytes = (bits.UintSize/64)*(64<<20) + (1-bits.UintSize/64)*(4<<20)

// bigMessage is the size from which a single message is indexed directly
// (the bulk path) rather than through the triggers: each trigger program
// reads new.content again, and a 100 MB row then needed more memory than
// SQLite has (measured: 128 MB failed through the triggers, passed direct).
const bigMessage = 1 << 20

// needsDirectIndex reports a batch that must take the bulk path even when
// it is one message: a big one (memory), or one with a NUL byte, which the
// triggers index only up to the NUL (see indexField).
func needsDirectIndex(msgs []Message) bool {
	for i := range msgs {
		if messageBytes(&msgs[i]) >= bigMessage || hasNUL(&msgs[i]) {
			return true
		}
	}
	return false
}

func messageBytes(m *Message) int {
	return len(m.Content) + len(m.ToolCalls) + len(m.Reasoning) + len(m.ToolName) + len(m.ToolCallID) + len(m.FinishReason)
}

// CheckMessageSize returns an ErrTooLarge error when m is larger than
// MaxMessageBytes, so an importer can report that one record and keep the
// rest of its file.
func CheckMessageSize(m Message) error {
	if n := messageBytes(&m); n > MaxMessageBytes {
		return TooLargeError(int64(n))
	}
	return nil
}

// TooLargeError is the ErrTooLarge error of a message of n bytes (an
// importer that measured a message without holding it says so with it).
func TooLargeError(n int64) error {
	return fmt.Errorf("%w: the message is %.1f MB, more than the %d MB recall stores", ErrTooLarge, float64(n)/(1<<20), MaxMessageBytes>>20)
}

// cleanContent removes the snippet marker runes so a stored text can never
// fake a highlight.
func cleanContent(s string) string {
	if strings.Contains(s, HighlightStart) || strings.Contains(s, HighlightEnd) {
		s = strings.NewReplacer(HighlightStart, "", HighlightEnd, "").Replace(s)
	}
	return s
}

// hasDisplayState reports the Hermes v11+ visibility columns (active,
// compacted, display_kind), which every recall database has.
func (l layout) hasDisplayState() bool {
	return l.messageCols["active"] && l.messageCols["compacted"] && l.messageCols["display_kind"]
}

func (l layout) insertMessageSQL() string {
	const cols = "session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning"
	if l.hasDisplayState() {
		return "INSERT INTO messages(" + cols + ", active, compacted, display_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	}
	return "INSERT INTO messages(" + cols + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nullInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

// DeleteSessionMessages removes every message of a session (a clean
// re-import); sessionID is the source's own id or the stored one
// (identity.go).
func (tx *Tx) DeleteSessionMessages(sessionID string) error {
	sessionID, err := tx.resolveNative(sessionID, "")
	if err != nil {
		return err
	}
	if err := tx.c.run("DELETE FROM messages WHERE session_id = ?", sessionID); err != nil {
		return fmt.Errorf("delete messages of %s: %w", sessionID, err)
	}
	if tx.s.layout.hasKeys {
		if err := tx.c.run("DELETE FROM recall_message_keys WHERE key >= ? AND key < ?", sessionID+"\x00", sessionID+"\x01"); err != nil {
			return err
		}
	}
	tx.dirty[sessionID] = true
	return nil
}

func (l layout) messageSelect() string {
	return strings.Join([]string{
		"m.id", "m.session_id", "m.role", "COALESCE(m.content, '')", "COALESCE(m.tool_call_id, '')",
		"COALESCE(m.tool_calls, '')", "COALESCE(m.tool_name, '')", "COALESCE(m.timestamp, 0)",
		"COALESCE(m.token_count, 0)", "COALESCE(" + l.messageCol("finish_reason", "NULL") + ", '')",
		"COALESCE(" + l.messageCol("reasoning", "NULL") + ", '')",
		"COALESCE(" + l.messageCol("active", "1") + ", 1)", "COALESCE(" + l.messageCol("compacted", "0") + ", 0)",
		"COALESCE(" + l.messageCol("display_kind", "NULL") + ", '')",
	}, ", ")
}

func scanMessage(st stmtRow) Message {
	return Message{
		ID: st.ColumnInt64(0), SessionID: st.ColumnText(1), Role: st.ColumnText(2),
		Content: DecodeContent(st.ColumnText(3)), ToolCallID: st.ColumnText(4), ToolCalls: st.ColumnText(5),
		ToolName: st.ColumnText(6), Timestamp: fromEpoch(st.ColumnFloat(7)), TokenCount: st.ColumnInt(8),
		FinishReason: st.ColumnText(9), Reasoning: st.ColumnText(10),
		Inactive: st.ColumnInt(11) == 0, Compacted: st.ColumnInt(12) != 0, DisplayKind: st.ColumnText(13),
	}
}

// Messages returns a session's visible messages in id order (never timestamp
// order: wall clocks are not monotonic).
func (s *Store) Messages(ctx context.Context, sessionID string) ([]Message, error) {
	var out []Message
	q := "SELECT " + s.layout.messageSelect() + " FROM messages m WHERE m.session_id = ? AND " + s.layout.visibleMessage() + " ORDER BY m.id"
	err := s.read(ctx, func(c *conn) error {
		return c.query(q, []any{sessionID}, func(st stmtRow) error {
			out = append(out, scanMessage(st))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("get messages of %s: %w", sessionID, err)
	}
	return out, nil
}

// MessagesAround returns up to window visible messages before the anchor,
// the anchor, and up to window after it (Hermes get_messages_around).
func (s *Store) MessagesAround(ctx context.Context, sessionID string, anchor int64, window int) ([]Message, int, int, error) {
	var before, after []Message
	var anchorMsg *Message
	sel := "SELECT " + s.layout.messageSelect() + " FROM messages m WHERE m.session_id = ? AND "
	vis := s.layout.visibleMessage()
	err := s.read(ctx, func(c *conn) error {
		if err := c.query(sel+"m.id = ?", []any{sessionID, anchor}, func(st stmtRow) error {
			m := scanMessage(st)
			anchorMsg = &m
			return nil
		}); err != nil {
			return err
		}
		if anchorMsg == nil {
			return fmt.Errorf("message %d in session %s: %w", anchor, sessionID, ErrNotFound)
		}
		if err := c.query(sel+"m.id < ? AND "+vis+" ORDER BY m.id DESC LIMIT ?", []any{sessionID, anchor, window}, func(st stmtRow) error {
			before = append(before, scanMessage(st))
			return nil
		}); err != nil {
			return err
		}
		return c.query(sel+"m.id > ? AND "+vis+" ORDER BY m.id LIMIT ?", []any{sessionID, anchor, window}, func(st stmtRow) error {
			after = append(after, scanMessage(st))
			return nil
		})
	})
	if err != nil {
		return nil, 0, 0, err
	}
	out := make([]Message, 0, len(before)+1+len(after))
	for i := len(before) - 1; i >= 0; i-- {
		out = append(out, before[i])
	}
	out = append(out, *anchorMsg)
	out = append(out, after...)
	return out, len(before), len(after), nil
}

// Bookends returns the first n user/assistant messages with content before
// minID and the last n after maxID, both in ascending order. Rows with a
// display kind (slash commands, text the agent wrote into a user record)
// are not bookends: a bookend shows what the person asked and the answer.
func (s *Store) Bookends(ctx context.Context, sessionID string, minID, maxID int64, n int) ([]Message, []Message, error) {
	var start, end []Message
	sel := "SELECT " + s.layout.messageSelect() + " FROM messages m WHERE m.session_id = ? AND m.role IN ('user', 'assistant') AND m.content <> '' AND " + s.layout.visibleMessage() + " AND " + s.layout.ordinaryMessage()
	err := s.read(ctx, func(c *conn) error {
		if err := c.query(sel+" AND m.id < ? ORDER BY m.id LIMIT ?", []any{sessionID, minID, n}, func(st stmtRow) error {
			start = append(start, scanMessage(st))
			return nil
		}); err != nil {
			return err
		}
		return c.query(sel+" AND m.id > ? ORDER BY m.id DESC LIMIT ?", []any{sessionID, maxID, n}, func(st stmtRow) error {
			end = append([]Message{scanMessage(st)}, end...)
			return nil
		})
	})
	return start, end, err
}

// DecodeContent turns Hermes's multimodal encoding ("\x00json:" + a JSON list
// of parts) into its text parts, images and audio as "[image]"/"[audio]";
// plain strings pass through. The search engine reads stored text the same
// way (analysis.DecodeContent).
func DecodeContent(s string) string { return analysis.DecodeContent(s) }
