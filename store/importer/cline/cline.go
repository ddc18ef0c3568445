// Package cline imports Cline conversations in both of the shapes Cline
// writes:
//
//   - Cline CLI 3.x: ~/.cline/data/sessions/<id>/<id>.messages.json
//     ({version, sessionId, origin, messages: [...]}, the whole file
//     rewritten on every change) with the manifest <id>.json beside it
//     (title, cwd, model, usage), and a sub-agent's run as
//     <stem>.messages.json in the same folder, which becomes a child
//     session;
//   - the task format: <data>/tasks/<id>/api_conversation_history.json (a
//     JSON list of Anthropic-shaped messages), which Cline CLI 2.x and the
//     VS Code extensions keep (Cline's saoudrizwan.claude-dev and Kilo
//     Code's kilocode.kilo-code globalStorage), titled from
//     state/taskHistory.json. Roo Code's tasks are the roo-code source's,
//     which reads them with ImportTask.
//
// Both are rewritten whole, so any change re-imports the file.
package cline

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Cline conversations.
const SourceName = "cline"

func init() { importer.Register(&Source{}) }

// Source imports Cline conversations. Its zero value is ready.
type Source struct{}

// Name is "cline".
func (s *Source) Name() string { return SourceName }

// extensions are the VS Code extension ids whose globalStorage holds
// tasks/<id>/api_conversation_history.json: Cline's and Kilo Code's (Roo
// Code's, rooveterinaryinc.roo-cline, is the roo-code source's).
var extensions = []string{"saoudrizwan.claude-dev", "kilocode.kilo-code"}

// DefaultPaths are ~/.cline/data (CLINE_DIR replaces ~/.cline) and the VS
// Code (and Cursor, VSCodium, Windsurf) globalStorage folders of Cline and
// Kilo Code that exist here.
func (s *Source) DefaultPaths() []string {
	var out []string
	if d := importer.HomeDir("CLINE_DIR", ".cline"); d != "" {
		out = append(out, filepath.Join(d, "data"))
	}
	for _, ext := range extensions {
		out = append(out, importer.EditorGlobalStorage(ext)...)
	}
	return out
}

var skip = map[string]bool{"logs": true, "cache": true, "db": true, "settings": true, "locks": true, "checkpoints": true, "workspaces": true}

const (
	kindNone = iota
	kindSession
	kindAgent
	kindTask
)

// kind classifies a path by where Cline puts conversations.
func kind(path string) int {
	name := filepath.Base(path)
	dir := filepath.Dir(path)
	switch {
	case name == "api_conversation_history.json" && filepath.Base(filepath.Dir(dir)) == "tasks":
		return kindTask
	case !strings.HasSuffix(name, ".messages.json") || filepath.Base(filepath.Dir(dir)) != "sessions":
		return kindNone
	case name == filepath.Base(dir)+".messages.json":
		return kindSession
	}
	return kindAgent
}

// Discover finds Cline 3 sessions (each lead before its sub-agents) and
// tasks under paths.
func (s *Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, _ string) {
		if kind(path) != kindNone {
			found = append(found, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(found, func(i, j int) bool {
		di, dj := filepath.Dir(found[i]), filepath.Dir(found[j])
		if di != dj {
			return di < dj
		}
		if ki, kj := kind(found[i]), kind(found[j]); ki != kj {
			return ki < kj // the lead session before its sub-agents
		}
		return found[i] < found[j]
	})
	return append(named, found...), nil
}

// Group keeps a session's sub-agent runs with it.
func (s *Source) Group(file string) string { return filepath.Dir(file) }

// Import brings one conversation file up to date: the file is read and
// turned into lines (the session's facts, then one message per line) only
// when it changed.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	open := func() (io.ReadCloser, error) {
		conv, err := convert(file)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(conv)), nil
	}
	return importer.ImportWhole(ctx, st, SourceName, file, open, func() importer.LineParser { return newParser(file) })
}
