package fill

import (
	"strings"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// shownRoleClause adds the condition for roles read as the roles hits are
// shown with (engine.Filter.ShownRoles): a user-role row the agent program
// wrote (l.AgentWritten: display kind agent or compaction, an interrupt
// marker, command output, a compaction summary) is shown as "system", so
// "user" leaves it out and "system" takes it in. Hidden rows are never
// visible anyway.
func shownRoleClause(l engine.Layout, where []string, args []any, roles []string) ([]string, []any) {
	if l.AgentWritten == "" {
		return sqlutil.InClause(where, args, "m.role IN", roles)
	}
	agentWritten := l.AgentWritten
	var ors []string
	for _, r := range roles {
		switch r {
		case "user":
			ors = append(ors, "(m.role = 'user' AND NOT "+agentWritten+")")
		case "system":
			ors = append(ors, "m.role = 'system'", "(m.role = 'user' AND "+agentWritten+")")
		default:
			ors = append(ors, "m.role = ?")
			args = append(args, r)
		}
	}
	return append(where, "("+strings.Join(ors, " OR ")+")"), args
}
