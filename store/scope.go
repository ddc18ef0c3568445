package store

import "github.com/recall-dev/recall/store/internal/sqlutil"

// cwdClause limits to sessions whose working directory is dir or under it
// (a repository's sessions, whichever subdirectory the agent ran in); ""
// adds nothing. A database without the cwd column matches nothing.
func (s *Store) cwdClause(where []string, args []any, dir string) ([]string, []any) {
	return sqlutil.CwdClause(where, args, s.layout.sessionCol("cwd", "NULL"), dir)
}
