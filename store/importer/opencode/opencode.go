// Package opencode copies OpenCode sessions into a recall database, and
// those of Kilo CLI, a fork of OpenCode that keeps the same records under
// its own name.
//
// OpenCode 1.2 and later keep everything in one SQLite file,
// $XDG_DATA_HOME/opencode/opencode.db (else ~/.local/share/opencode/):
// tables session, message (data: JSON without the parts) and part (data:
// JSON: text, reasoning, tool, file, ...). The database is opened
// read-only while OpenCode may be writing it (internal/sqlitero). Before 1.2
// the same JSON records were files under storage/{session/<project>,
// message/<session>, part/<message>}; a folder whose database exists is
// not read for them (OpenCode migrated them into it). FORMATS.md, "OpenCode",
// says what is kept of each record.
package opencode

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// Source imports one OpenCode-family agent.
type Source struct {
	name string // session source and importer name: "opencode", "kilo"
	app  string // its folder under XDG_DATA_HOME and its database's name
	env  string // an environment variable naming the data folder, if any
}

func init() {
	importer.Register(&Source{name: "opencode", app: "opencode", env: "OPENCODE_DATA_DIR"})
	importer.Register(&Source{name: "kilo", app: "kilo", env: "KILO_DATA_DIR"}, "kilocode", "kilo-cli")
}

// Name is the source name: "opencode" or "kilo".
func (s *Source) Name() string { return s.name }

// DataDir is the agent's data folder: $<env>, else
// $XDG_DATA_HOME/<app>, else ~/.local/share/<app>.
func (s *Source) DataDir() string {
	if d := os.Getenv(s.env); d != "" {
		return d
	}
	return importer.DataHome(s.app)
}

// DefaultPaths is the data folder.
func (s *Source) DefaultPaths() []string {
	return importer.PathIf(s.DataDir())
}

// Discover returns the databases (<app>.db and the channel databases
// <app>-<channel>.db) of each folder, and when a folder has none, the
// session files of its storage/ layout. Files named are returned as they
// are.
func (s *Source) Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	out := files
	for _, dir := range dirs {
		// A folder may be the data folder or a home folder holding it.
		if sub := filepath.Join(dir, ".local", "share", s.app); importer.IsDir(sub) {
			dir = sub
		}
		dbs, _ := filepath.Glob(filepath.Join(dir, s.app+"*.db"))
		sort.Strings(dbs)
		out = append(out, dbs...)
		if len(dbs) > 0 {
			continue
		}
		legacy, _ := filepath.Glob(filepath.Join(dir, "storage", "session", "*", "*.json"))
		sort.Strings(legacy)
		out = append(out, legacy...)
	}
	return out, nil
}

// Import brings one database, or one session file of the storage/ layout,
// up to date in st.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	if strings.HasSuffix(file, ".json") {
		return s.importLegacy(ctx, st, file)
	}
	return s.importDB(ctx, st, file)
}
