package fill

import (
	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/score"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// RowRoles tells, read by rowid, the role the ranking's second phase
// (collect.Ranking.Rescore) weighs of each of the message ids: tool output
// and a user-role row the agent program wrote (l.AgentWritten) are
// score.RoleTool, the assistant's score.RoleAssistant; rows the person
// wrote (and system rows) are not in the map.
func RowRoles(c engine.Conn, l engine.Layout, ids []int64) (map[int64]score.RowRole, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	agent := "0"
	if l.AgentWritten != "" {
		agent = l.AgentWritten
	}
	w := map[int64]score.RowRole{}
	q := "SELECT m.id, m.role, " + agent + " FROM messages m WHERE m.id IN (" + sqlutil.Placeholders(len(ids)) + ")"
	err := c.Query(q, args, func(st *sqlite3.Stmt) error {
		switch role := st.ColumnText(1); {
		case role == "tool", role == "user" && st.ColumnBool(2):
			w[st.ColumnInt64(0)] = score.RoleTool
		case role == "assistant":
			w[st.ColumnInt64(0)] = score.RoleAssistant
		}
		return nil
	})
	return w, err
}
