// Package copilot imports GitHub Copilot CLI sessions.
//
// Copilot CLI (1.0.x) appends every event of a session to
// ${COPILOT_HOME:-~/.copilot}/session-state/<sessionId>/events.jsonl, one
// {"type", "data", "id", "timestamp", "parentId", "agentId"?} per line (the
// schema ships with the CLI as schemas/session-events.schema.json), and
// keeps the session's name and directory in workspace.yaml beside it. A
// sub-agent's events are in the same file, tagged with its agentId: they
// become a child session of the file's session. Events are only appended
// (a rewind rewrites the file, which is then read again in full), so files
// are imported incrementally.
package copilot

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Copilot CLI sessions.
const SourceName = "copilot-cli"

func init() { importer.Register(&Source{}, "copilot") }

// Source imports Copilot CLI sessions. Its zero value is ready.
type Source struct{}

// Name is "copilot-cli".
func (s *Source) Name() string { return SourceName }

// DefaultPaths is $COPILOT_HOME, else ~/.copilot.
func (s *Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("COPILOT_HOME", ".copilot"))
}

// skip are folders under the Copilot root that never hold sessions.
var skip = map[string]bool{"logs": true, "pkg": true, "checkpoints": true, "rewind-file-snapshots": true, "files": true, "plugins": true, "skills": true}

// Discover finds session-state/<id>/events.jsonl under paths (the .copilot
// folder, its session-state folder, a session folder, or files).
func (s *Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		if name == "events.jsonl" {
			found = append(found, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(found)
	return append(named, found...), nil
}

// Import brings one events.jsonl up to date.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	ws := readWorkspace(filepath.Join(filepath.Dir(file), "workspace.yaml"))
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return newParser(file, ws) })
}

// workspace is what recall reads of workspace.yaml: the session's name
// (its first prompt, or what /rename set) and directory.
type workspace struct {
	ID, Name, Cwd, Branch string
}

// readWorkspace reads the top-level scalar keys of workspace.yaml; a
// missing file leaves the session without a title.
func readWorkspace(path string) workspace {
	var ws workspace
	f, err := os.Open(path)
	if err != nil {
		return ws
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' || line[0] == '#' {
			continue // nested values are not read
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = yamlScalar(strings.TrimSpace(v))
		switch k {
		case "id":
			ws.ID = v
		case "name":
			ws.Name = v
		case "cwd":
			ws.Cwd = v
		case "branch":
			ws.Branch = v
		}
	}
	return ws
}

// yamlScalar unquotes a one-line YAML scalar.
func yamlScalar(v string) string {
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}
