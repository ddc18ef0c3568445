package store

import "context"

// Warm reads, once, what ranking over every match keeps in memory: the
// main index's row lengths and the map of messages to sessions (about a
// second per million messages). A long-running reader (the TUI, the MCP
// server) calls it in the background at start, so that its first search
// does not pay for it; a one-shot command lets its first search do it.
// Errors are left to that search, which reports them.
func (s *Store) Warm(ctx context.Context) {
	if !s.layout.hasFTS {
		return
	}
	_ = s.read(ctx, func(c *conn) error {
		if _, _, err := s.docLens("messages_fts").refresh(c, "messages_fts", s); err != nil {
			return err
		}
		_, err := s.sessionMap().refresh(c, s.layout, s)
		return err
	})
}
