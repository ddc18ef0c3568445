package store

import (
	"context"
	"fmt"
)

// SessionsByPrefix returns up to limit sessions whose id starts with prefix
// (byte for byte, case-sensitive), newest first: the candidates a shell
// completes a session id from. An empty prefix lists the newest sessions.
func (s *Store) SessionsByPrefix(ctx context.Context, prefix string, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = 100
	}
	// Compared as blobs so that ids that are not valid UTF-8 match too, and
	// so that LIKE's ASCII case folding does not offer ids the shell would
	// then reject for not starting with what was typed.
	q := "SELECT " + s.layout.sessionSelect() + ` FROM sessions s
		WHERE substr(CAST(s.id AS BLOB), 1, ?) = CAST(? AS BLOB)
		ORDER BY s.started_at DESC, s.id DESC LIMIT ?`
	var out []Session
	err := s.read(ctx, func(c *conn) error {
		return c.query(q, []any{len(prefix), prefix, limit}, func(st stmtRow) error {
			out = append(out, scanSession(st, 0))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions by id prefix: %w", err)
	}
	return out, nil
}
