package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SourceGone returns the sessions every one of whose source files is gone
// from disk (the agent deleted them, or its retention did): recall keeps
// them, and the TUI and `stats` say so. Sessions no import record names (a
// native writer's, standard input's) are never counted. A file that cannot
// be checked (permission) counts as present.
func (s *Store) SourceGone(ctx context.Context) (map[string]bool, error) {
	files, err := s.ImportFiles(ctx)
	if err != nil || len(files) == 0 {
		return map[string]bool{}, err
	}
	live, gone := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		// "<source>:<id>" rows are conversations inside an export or an
		// app's database, not files: the container's row speaks for them.
		if f.Path == "-" || f.Sessions == "" || strings.HasPrefix(f.Path, f.Source+":") {
			continue
		}
		_, err := os.Stat(f.Path)
		// A relative path (an older recall kept it as typed) is only known
		// to be gone from the folder it was typed in: from here, it is not.
		missing := errors.Is(err, fs.ErrNotExist) && filepath.IsAbs(f.Path)
		for _, id := range strings.Fields(f.Sessions) {
			if missing {
				gone[id] = true
			} else {
				live[id] = true
			}
		}
	}
	for id := range live {
		delete(gone, id)
	}
	if len(gone) == 0 {
		return gone, nil
	}
	// Only sessions still in the database (forgotten ones are not).
	out := map[string]bool{}
	err = s.read(ctx, func(c *conn) error {
		clear(out)
		return c.query("SELECT id FROM sessions", nil, func(st stmtRow) error {
			if id := st.ColumnText(0); gone[id] {
				out[id] = true
			}
			return nil
		})
	})
	return out, err
}

// SessionsSourceGone counts SourceGone.
func (s *Store) SessionsSourceGone(ctx context.Context) (int, error) {
	g, err := s.SourceGone(ctx)
	return len(g), err
}
