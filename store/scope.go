package store

import "strings"

// cwdClause limits to sessions whose working directory is dir or under it
// (a repository's sessions, whichever subdirectory the agent ran in); ""
// adds nothing. A database without the cwd column matches nothing.
func (s *Store) cwdClause(where []string, args []any, dir string) ([]string, []any) {
	if dir == "" {
		return where, args
	}
	dir = strings.TrimRight(dir, "/")
	if dir == "" {
		return where, args // "/" holds everything
	}
	col := s.layout.sessionCol("cwd", "NULL")
	esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(dir)
	return append(where, "("+col+" = ? OR "+col+` LIKE ? ESCAPE '\')`), append(args, dir, esc+"/%")
}
