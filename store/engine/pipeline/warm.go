package pipeline

import (
	"context"

	"github.com/recall-dev/recall/store/engine"
)

// Warm reads, once, what ranking over every match keeps in memory: the
// main index's row lengths and the map of messages to sessions (about a
// second per million messages). A long-running reader (the TUI, the MCP
// server) calls it in the background at start, so that its first search
// does not pay for it; a one-shot command lets its first search do it.
// Errors are left to that search, which reports them.
func (e *Engine) Warm(ctx context.Context) {
	if !e.layout.HasFTS {
		return
	}
	_ = e.db.Read(ctx, func(c engine.Conn) error {
		if _, _, err := e.rows.Lens("messages_fts").Refresh(c); err != nil {
			return err
		}
		_, err := e.rows.Sessions().Refresh(c, e.layout)
		return err
	})
}
