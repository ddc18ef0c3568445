package store

import "strings"

// shownRoleClause adds the condition for roles read as the roles hits are
// shown with (SearchFilter.ShownRoles): a user-role row the agent program
// wrote (display kind agent or compaction: an interrupt marker, command
// output, a compaction summary) is shown as "system", so "user" leaves it
// out and "system" takes it in. Hidden rows are never visible anyway.
func (l layout) shownRoleClause(where []string, args []any, roles []string) ([]string, []any) {
	if !l.messageCols["display_kind"] {
		return inClause(where, args, "m.role IN", roles)
	}
	const agentWritten = "COALESCE(m.display_kind, '') IN ('" + DisplayKindAgent + "', '" + DisplayKindCompaction + "')"
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
