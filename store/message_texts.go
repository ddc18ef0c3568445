package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// The whole texts that short pieces are cut from. A search snippet and a
// list preview are cut from a message; recall/secrets needs the whole
// message to see a secret the cut left only part of (a key's random tail
// with its "sk_live_" cut off), so it can take that part out.

// textBatch bounds the ids of one query (SQLite's variable limit is far above).
const textBatch = 500

// inBatches runs query, whose IN list is written "(ids)", for ids,
// textBatch at a time, on one reader connection.
func inBatches[T any](ctx context.Context, s *Store, ids []T, query string, row func(st stmtRow)) error {
	return s.read(ctx, func(c *conn) error {
		for len(ids) > 0 {
			batch := ids[:min(len(ids), textBatch)]
			ids = ids[len(batch):]
			args := make([]any, len(batch))
			for i, id := range batch {
				args[i] = id
			}
			if err := c.query(strings.Replace(query, "(ids)", "("+sqlutil.Placeholders(len(batch))+")", 1), args, func(st stmtRow) error {
				row(st)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

// MessagesByID returns the messages with these ids, whatever session or
// state they are in, keyed by id; an id with no row is left out.
func (s *Store) MessagesByID(ctx context.Context, ids []int64) (map[int64]Message, error) {
	out := make(map[int64]Message, len(ids))
	err := inBatches(ctx, s, ids, "SELECT "+s.layout.messageSelect()+" FROM messages m WHERE m.id IN (ids)", func(st stmtRow) {
		m := scanMessage(st)
		out[m.ID] = m
	})
	if err != nil {
		return nil, fmt.Errorf("read messages by id: %w", err)
	}
	return out, nil
}

// FirstPrompts returns, per session id, the whole first message the person
// typed: the text SessionSummary.Preview is cut from (the same message:
// visible, a user row with text and no display kind). A session without
// one is left out.
func (s *Store) FirstPrompts(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	err := inBatches(ctx, s, ids, `SELECT s.id, (SELECT m.content FROM messages m WHERE m.session_id = s.id AND m.role = 'user'
		AND m.content IS NOT NULL AND m.content <> '' AND `+s.layout.visibleMessage()+` AND `+s.layout.ordinaryMessage()+`
		ORDER BY m.id LIMIT 1) FROM sessions s WHERE s.id IN (ids)`, func(st stmtRow) {
		if text := DecodeContent(st.ColumnText(1)); text != "" {
			out[st.ColumnText(0)] = text
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read first prompts: %w", err)
	}
	return out, nil
}

// PreviewChars is how many characters of the first prompt a preview keeps.
const PreviewChars = 60

// Preview is how a list shows a session's first prompt: whitespace
// collapsed, cut to PreviewChars characters plus "..." (SessionSummary.Preview).
func Preview(text string) string { return preview(text, PreviewChars) }

// TitleMaxChars is the longest title kept (Hermes's rule): a longer one is
// cut there, so a title of this length may end inside a word, or a key.
const TitleMaxChars = 100
