// Package pi imports the sessions of Pi (@mariozechner/pi-coding-agent),
// ~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl, and of Oh My Pi
// (@oh-my-pi/pi-coding-agent), a fork writing the same records under
// ~/.omp/agent/sessions.
//
// A session file is a header line ({"type":"session","version":3,"id",
// "cwd","parentSession"}) and entries linked into a tree by id/parentId:
// a person who goes back to an earlier point (/tree) and continues adds a
// second child to that entry, in the same file. The first child of every
// entry continues the session; a later child starts a branch, imported as
// a child session (<id>@<entry>) that holds only the entries after the
// branch point, so nothing is stored twice. A fork (/fork, --fork) is a
// new file that copies its origin's entries and names the origin in
// parentSession: the copies are left with the origin and the fork becomes
// its child session. FORMATS.md, "Pi", lists every record type.
package pi

import (
	"context"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// Source imports one Pi-family agent.
type Source struct {
	name string // session source and importer name: "pi", "omp"
	env  string // the environment variable naming the agent folder
	dir  string // the agent folder below the home folder
}

func init() {
	importer.Register(&Source{name: "pi", env: "PI_CODING_AGENT_DIR", dir: filepath.Join(".pi", "agent")}, "pi-coding-agent")
	importer.Register(&Source{name: "omp", env: "OMP_CODING_AGENT_DIR", dir: filepath.Join(".omp", "agent")}, "oh-my-pi")
}

// Name is "pi" or "omp".
func (s *Source) Name() string { return s.name }

// DefaultPaths is the agent folder's sessions folder.
func (s *Source) DefaultPaths() []string {
	h := importer.HomeDir(s.env, s.dir)
	if h == "" {
		return nil
	}
	return []string{filepath.Join(h, "sessions")}
}

// Discover finds the session files (*.jsonl) under paths: a home folder,
// the agent folder, its sessions folder, or files named.
func (s *Source) Discover(paths []string) ([]string, error) {
	roots := func(dir string) []string {
		for _, sub := range []string{filepath.Join(s.dir, "sessions"), filepath.Join(filepath.Base(s.dir), "sessions"), "sessions"} {
			if p := filepath.Join(dir, sub); importer.IsDir(p) {
				return []string{p}
			}
		}
		return []string{dir}
	}
	var walked []string
	out, err := importer.FindFiles(paths, roots, nil, func(path, n string) {
		if strings.HasSuffix(n, ".jsonl") {
			walked = append(walked, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(walked)
	return append(out, walked...), nil
}

// NewParser returns the parser of one transcript in Pi's session format,
// filed under source: the lines of a session file, or the same records
// kept elsewhere (OpenClaw, built on Pi's agent core, writes them as
// JSONL files and, since 2026.8, as rows of its agent database). file
// names the transcript; a transcript without a session header is filed
// under that name.
func NewParser(source, file string) importer.LineParser { return newParser(source, file) }

// Import brings one session file up to date, reading only what was
// appended since the last import.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return importer.ImportLines(ctx, st, s.name, file, func() importer.LineParser { return newParser(s.name, file) })
}
