package store

import (
	"context"
	"fmt"
)

// The whole texts that short pieces are cut from. A search snippet and a
// list preview are cut from a message; recall/secrets needs the whole
// message to see a secret the cut left only part of (a key's random tail
// with its "sk_live_" cut off), so it can take that part out.

// textBatch bounds the ids of one query (SQLite's variable limit is far above).
const textBatch = 500

// MessagesByID returns the messages with these ids, whatever session or
// state they are in, keyed by id; an id with no row is left out.
func (s *Store) MessagesByID(ctx context.Context, ids []int64) (map[int64]Message, error) {
	out := make(map[int64]Message, len(ids))
	err := s.read(ctx, func(c *conn) error {
		for len(ids) > 0 {
			batch := ids[:min(len(ids), textBatch)]
			ids = ids[len(batch):]
			args := make([]any, len(batch))
			for i, id := range batch {
				args[i] = id
			}
			q := "SELECT " + s.layout.messageSelect() + " FROM messages m WHERE m.id IN (" + placeholders(len(batch)) + ")"
			if err := c.query(q, args, func(st stmtRow) error {
				m := scanMessage(st)
				out[m.ID] = m
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
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
	err := s.read(ctx, func(c *conn) error {
		for len(ids) > 0 {
			batch := ids[:min(len(ids), textBatch)]
			ids = ids[len(batch):]
			args := make([]any, len(batch))
			for i, id := range batch {
				args[i] = id
			}
			q := `SELECT s.id, (SELECT m.content FROM messages m WHERE m.session_id = s.id AND m.role = 'user'
				AND m.content IS NOT NULL AND m.content <> '' AND ` + s.layout.visibleMessage() + ` AND ` + s.layout.ordinaryMessage() + `
				ORDER BY m.id LIMIT 1) FROM sessions s WHERE s.id IN (` + placeholders(len(batch)) + `)`
			if err := c.query(q, args, func(st stmtRow) error {
				if text := DecodeContent(st.ColumnText(1)); text != "" {
					out[st.ColumnText(0)] = text
				}
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
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
