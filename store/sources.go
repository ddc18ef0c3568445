package store

import "context"

// Sources returns the distinct session sources in the database, sorted: what
// a source filter can offer (idx_sessions_source answers it without a scan).
func (s *Store) Sources(ctx context.Context) ([]string, error) {
	var out []string
	err := s.read(ctx, func(c *conn) error {
		return c.query("SELECT DISTINCT source FROM sessions WHERE source <> '' ORDER BY source", nil, func(r stmtRow) error {
			out = append(out, r.ColumnText(0))
			return nil
		})
	})
	return out, err
}
