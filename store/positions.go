package store

import (
	"context"
	"fmt"
)

// MessageIDs returns the ids of a session's visible messages in id order:
// the messages Messages returns, without their text. A message's position
// in this list ("#6 of 8") is how people name it; ids are for machines.
func (s *Store) MessageIDs(ctx context.Context, sessionID string) ([]int64, error) {
	var out []int64
	q := "SELECT m.id FROM messages m WHERE m.session_id = ? AND " + s.layout.visibleMessage() + " ORDER BY m.id"
	err := s.read(ctx, func(c *conn) error {
		return c.query(q, []any{sessionID}, func(st stmtRow) error {
			out = append(out, st.ColumnInt64(0))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("get message ids of %s: %w", sessionID, err)
	}
	return out, nil
}
