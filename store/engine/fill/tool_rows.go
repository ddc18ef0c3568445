package fill

import (
	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// ToolRows tells which of the message ids are tool output (role "tool"),
// read by rowid: the ranking's second phase (collect.Ranking.Rescore) asks
// it for the best rows of its few best sessions.
func ToolRows(c engine.Conn, ids []int64) (map[int64]bool, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	tool := map[int64]bool{}
	err := c.Query("SELECT id FROM messages WHERE id IN ("+sqlutil.Placeholders(len(ids))+") AND role = 'tool'", args, func(st *sqlite3.Stmt) error {
		tool[st.ColumnInt64(0)] = true
		return nil
	})
	return tool, err
}
