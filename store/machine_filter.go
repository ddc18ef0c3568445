package store

import "strings"

// machineClause appends the condition that a session (alias s) came from
// one of machines: a machine's id, name or ssh host, or "local" (this
// machine's own sessions, also named by this machine's name).
func (l layout) machineClause(where []string, args []any, machines []string) ([]string, []any) {
	if len(machines) == 0 {
		return where, args
	}
	if !l.hasSync || !l.hasIdentity {
		// Every session is this machine's.
		for _, m := range machines {
			if m == "local" {
				return where, args
			}
		}
		return append(where, "0"), args
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(machines)), ",")
	local := `NOT EXISTS (SELECT 1 FROM recall_session_identity i WHERE i.id = s.id AND i.machine <> '')`
	cond := `(EXISTS (SELECT 1 FROM recall_session_identity i JOIN recall_machines mm ON mm.id = i.machine
			WHERE i.id = s.id AND (mm.id IN (` + ph + `) OR mm.name IN (` + ph + `) OR mm.host IN (` + ph + `)))
		OR (` + local + ` AND ('local' IN (` + ph + `)
			OR EXISTS (SELECT 1 FROM state_meta WHERE key = '` + metaMachineName + `' AND value IN (` + ph + `)))))`
	for range 5 {
		for _, m := range machines {
			args = append(args, m)
		}
	}
	return append(where, cond), args
}
