package hermes

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// keyPrefix starts a copied message's source key: "hermes:<row id>".
const keyPrefix = "hermes:"

// source is a read-only connection to a Hermes state.db.
type source struct {
	db          *sqlitero.DB
	sessionCols map[string]bool
	messageCols map[string]bool
	visible     string // the SQL condition of a message Hermes shows
}

// openSource opens path read-only (no schema init, no writes: Hermes may be
// writing it right now) and reads which columns this schema version has.
func openSource(ctx context.Context, path string) (*source, error) {
	db, err := sqlitero.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	s := &source{db: db}
	for _, t := range []struct {
		name string
		cols *map[string]bool
	}{{"sessions", &s.sessionCols}, {"messages", &s.messageCols}} {
		cols, err := db.Columns(t.name)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if len(cols) == 0 {
			s.close()
			return nil, fmt.Errorf("%s is not a Hermes state.db (no %s table)", path, t.name)
		}
		*t.cols = cols
	}
	for _, c := range []string{"id", "session_id", "role", "content", "timestamp"} {
		if !s.messageCols[c] {
			s.close()
			return nil, fmt.Errorf("%s is not a Hermes state.db (messages has no %s column)", path, c)
		}
	}
	var vis []string
	switch {
	case s.messageCols["active"] && s.messageCols["compacted"]:
		vis = append(vis, "(COALESCE(active, 1) = 1 OR compacted = 1)")
	case s.messageCols["active"]:
		vis = append(vis, "COALESCE(active, 1) = 1")
	}
	if s.messageCols["display_kind"] {
		vis = append(vis, "COALESCE(display_kind, '') <> 'hidden'")
	}
	s.visible = "1"
	if len(vis) > 0 {
		s.visible = strings.Join(vis, " AND ")
	}
	return s, nil
}

func (s *source) close() { s.db.Close() }

func (s *source) query(sql string, args []any, row func(st sqlitero.Row) error) error {
	return s.db.Query(sql, args, row)
}

func (s *source) col(cols map[string]bool, name string) string {
	if cols[name] {
		return name
	}
	return "NULL"
}

func (s *source) maxMessageID() (int64, error) {
	var n int64
	err := s.query("SELECT COALESCE(MAX(id), 0) FROM messages", nil, func(st sqlitero.Row) error {
		n = st.ColumnInt64(0)
		return nil
	})
	return n, err
}

// sessionRow is a source session and the hash of its row.
type sessionRow struct {
	s    store.Session
	hash string
}

// sessionFields are read in this order; a column an older schema lacks
// reads as NULL.
var sessionFields = []string{
	"id", "source", "model", "model_config", "title", "parent_session_id", "started_at", "ended_at",
	"end_reason", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens",
	"reasoning_tokens", "estimated_cost_usd", "actual_cost_usd", "cwd", "git_branch",
	"archived",
	// Not copied, but a change in them means the messages may have changed.
	"message_count", "tool_call_count", "rewind_count",
}

func (s *source) sessionSelect() string {
	cols := make([]string, len(sessionFields))
	for i, f := range sessionFields {
		cols[i] = s.col(s.sessionCols, f)
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM sessions"
}

func scanSession(st sqlitero.Row) sessionRow {
	parts := make([]string, len(sessionFields))
	for i := range sessionFields {
		if st.Null(i) {
			parts[i] = "\x00"
		} else {
			parts[i] = st.ColumnText(i)
		}
	}
	sess := store.Session{
		ID: st.ColumnText(0), Source: st.ColumnText(1), Model: st.ColumnText(2), ModelConfig: st.ColumnText(3),
		Title: st.ColumnText(4), ParentID: st.ColumnText(5), StartedAt: epoch(st.ColumnFloat(6)),
		EndedAt: epoch(st.ColumnFloat(7)), EndReason: st.ColumnText(8),
		InputTokens: st.ColumnInt64(9), OutputTokens: st.ColumnInt64(10), CacheReadTokens: st.ColumnInt64(11),
		CacheWriteTokens: st.ColumnInt64(12), ReasoningTokens: st.ColumnInt64(13),
		EstimatedCostUSD: st.ColumnFloat(14), ActualCostUSD: st.ColumnFloat(15),
		Cwd: st.ColumnText(16), GitBranch: st.ColumnText(17), Archived: st.ColumnInt(18) != 0,
	}
	if sess.ParentID == sess.ID {
		sess.ParentID = ""
	}
	return sessionRow{s: sess, hash: hashRow(parts)}
}

// sessions reads every session row.
func (s *source) sessions() ([]sessionRow, error) {
	var out []sessionRow
	err := s.query(s.sessionSelect()+" ORDER BY started_at, id", nil, func(st sqlitero.Row) error {
		out = append(out, scanSession(st))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	return out, nil
}

// session reads one session row.
func (s *source) session(id string) (sessionRow, bool, error) {
	var row sessionRow
	found := false
	err := s.query(s.sessionSelect()+" WHERE id = ?", []any{id}, func(st sqlitero.Row) error {
		row, found = scanSession(st), true
		return nil
	})
	return row, found, err
}

// sessionsWithMessagesAfter lists the sessions holding messages in (from, to].
func (s *source) sessionsWithMessagesAfter(from, to int64) ([]string, error) {
	var out []string
	err := s.query("SELECT DISTINCT session_id FROM messages WHERE id > ? AND id <= ?", []any{from, to}, func(st sqlitero.Row) error {
		out = append(out, st.ColumnText(0))
		return nil
	})
	return out, err
}

// visibleCount counts a session's visible messages with id <= upTo, how
// many of them are not live (active=0, compacted into a summary), and sums
// their ids.
func (s *source) visibleCount(session string, upTo int64) (counts, error) {
	notLive := "0"
	if s.messageCols["active"] {
		notLive = "COALESCE(SUM(COALESCE(active, 1) = 0), 0)"
	}
	var c counts
	err := s.query("SELECT count(*), "+notLive+", COALESCE(SUM(id), 0) FROM messages WHERE session_id = ? AND id <= ? AND "+s.visible, []any{session, upTo}, func(st sqlitero.Row) error {
		c = counts{n: st.ColumnInt(0), inactive: st.ColumnInt(1), ids: st.ColumnInt64(2)}
		return nil
	})
	return c, err
}

func (s *source) messageSelect() string {
	cols := []string{"id", "session_id", "COALESCE(role, '')", "content",
		s.col(s.messageCols, "tool_call_id"), s.col(s.messageCols, "tool_calls"), s.col(s.messageCols, "tool_name"),
		"COALESCE(timestamp, 0)", s.col(s.messageCols, "token_count"), s.col(s.messageCols, "finish_reason"),
		s.col(s.messageCols, "reasoning"), s.col(s.messageCols, "reasoning_content"),
		"(" + s.visible + ")",
		"COALESCE(" + s.col(s.messageCols, "active") + ", 1)", "COALESCE(" + s.col(s.messageCols, "compacted") + ", 0)",
		s.col(s.messageCols, "display_kind")}
	return "SELECT " + strings.Join(cols, ", ") + " FROM messages"
}

func scanMessage(st sqlitero.Row) (store.Message, bool) {
	id := st.ColumnInt64(0)
	reasoning := st.ColumnText(10)
	if reasoning == "" {
		reasoning = st.ColumnText(11)
	}
	m := store.Message{
		SessionID: st.ColumnText(1), Role: st.ColumnText(2), Content: store.DecodeContent(st.ColumnText(3)),
		ToolCallID: st.ColumnText(4), ToolCalls: toolCalls(st.ColumnText(5)), ToolName: st.ColumnText(6),
		Timestamp: epoch(st.ColumnFloat(7)), TokenCount: st.ColumnInt(8), FinishReason: st.ColumnText(9),
		Reasoning: reasoning, SourceKey: keyPrefix + strconv.FormatInt(id, 10),
		// Copied as Hermes keeps them: a row compaction folded into a
		// summary (active=0, compacted=1) is searched but not part of the
		// live conversation, and counts as Hermes counts it.
		Inactive: st.ColumnInt(13) == 0, Compacted: st.ColumnInt(14) != 0, DisplayKind: st.ColumnText(15),
	}
	return m, st.ColumnInt(12) != 0
}

// messagesAfter reads the visible messages with ids in (after, upTo], at
// most limit rows (visible or not) in id order; last is the highest id read.
func (s *source) messagesAfter(after, upTo int64, limit int) (msgs []store.Message, last int64, skipped int, err error) {
	last = after
	err = s.query(s.messageSelect()+" WHERE id > ? AND id <= ? ORDER BY id LIMIT ?", []any{after, upTo, limit}, func(st sqlitero.Row) error {
		m, vis := scanMessage(st)
		last = st.ColumnInt64(0)
		if !vis {
			skipped++
			return nil
		}
		msgs = append(msgs, m)
		return nil
	})
	if err != nil {
		err = fmt.Errorf("read messages: %w", err)
	}
	return msgs, last, skipped, err
}

// sessionMessages reads a session's visible messages with id <= upTo, and
// counts the others with id <= countUpTo.
func (s *source) sessionMessages(session string, upTo, countUpTo int64) (msgs []store.Message, skipped int, err error) {
	err = s.query(s.messageSelect()+" WHERE session_id = ? AND id <= ? ORDER BY id", []any{session, upTo}, func(st sqlitero.Row) error {
		m, vis := scanMessage(st)
		if !vis {
			if st.ColumnInt64(0) <= countUpTo {
				skipped++
			}
			return nil
		}
		msgs = append(msgs, m)
		return nil
	})
	if err != nil {
		err = fmt.Errorf("read messages of %s: %w", session, err)
	}
	return msgs, skipped, err
}

func epoch(f float64) time.Time {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// toolCalls keeps Hermes's JSON list; an empty list is no calls.
func toolCalls(s string) string {
	if t := strings.TrimSpace(s); t == "[]" || t == "null" {
		return ""
	}
	return s
}
