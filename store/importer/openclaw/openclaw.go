// Package openclaw imports the transcripts of OpenClaw (openclaw on npm),
// the multi-channel agent gateway built on Pi's agent core. Its transcript
// is Pi's session format (a session header, then message, model_change,
// custom, compaction... entries linked by id/parentId), kept in two places
// over its releases:
//
//   - through 2026.7.1, one JSONL file per session:
//     ~/.openclaw/agents/<agentId>/sessions/<sessionId>.jsonl, with
//     sessions.json beside it mapping session keys to ids, labels and the
//     session that spawned a sub-agent; a /reset renames the file
//     <sessionId>.jsonl.reset.<time>;
//   - since 2026.8 (2026.7.2 in its betas), rows of the agent's SQLite
//     database, ~/.openclaw/agents/<agentId>/agent/openclaw-agent.sqlite:
//     transcript_events(session_id, seq, event_json | event_zstd) holds
//     the same records verbatim, session_windows and session_nodes the
//     metadata (model, label, the session key that spawned a sub-agent).
//
// Both are read with Pi's parser (store/importer/pi), so a session that
// OpenClaw's doctor moved from its file into the database keeps its rows.
// The state folder is $OPENCLAW_STATE_DIR, else ~/.openclaw (and the
// ~/.clawdbot and ~/.moltbot of its earlier names). FORMATS.md, "OpenClaw",
// cites the source of every shape.
package openclaw

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
)

// SourceName is the session source of imported OpenClaw sessions.
const SourceName = "openclaw"

func init() { importer.Register(&Source{}, "clawdbot", "moltbot") }

// Source imports OpenClaw transcripts. Its zero value is ready.
type Source struct{}

// Name is "openclaw".
func (*Source) Name() string { return SourceName }

// DefaultPaths are $OPENCLAW_STATE_DIR (else ~/.openclaw) and the state
// folders of OpenClaw's earlier names that exist.
func (*Source) DefaultPaths() []string {
	if d := os.Getenv("OPENCLAW_STATE_DIR"); d != "" {
		return []string{d}
	}
	var out []string
	for i, name := range []string{".openclaw", ".clawdbot", ".moltbot"} {
		d := importer.HomeDir("", name)
		if d != "" && (i == 0 || importer.IsDir(d)) {
			out = append(out, d)
		}
	}
	return out
}

// skip are folders of a state folder that never hold transcripts: agent
// workspaces (a person's files), plugin and skill copies, the JSONL files a
// migration into SQLite archived (their rows are in the database), cold
// archives.
var skip = map[string]bool{"workspace": true, "node_modules": true, "plugin-skills": true, "plugins": true,
	"session-sqlite-import-archive": true, "cold": true, "tmp": true, "logs": true, "media": true}

// Discover finds the agents' transcript files (agents/*/sessions/*.jsonl,
// and the .jsonl.reset.<time> a /reset leaves; not <id>.trajectory.jsonl,
// the runtime's trace of a run) and databases
// (agents/*/agent/openclaw-agent.sqlite) under paths.
func (*Source) Discover(paths []string) ([]string, error) {
	var dbs, files []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		switch kind(path) {
		case kindDB:
			dbs = append(dbs, path)
		case kindTranscript:
			files = append(files, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(dbs)
	sort.Strings(files)
	// A spawned sub-agent's file comes after its parent's when both are
	// imported in one run (WriteSessions gives a parent read later a row).
	return append(append(named, dbs...), files...), nil
}

const (
	kindNone = iota
	kindDB
	kindTranscript
)

// kind classifies a path by where OpenClaw keeps transcripts.
func kind(path string) int {
	name, dir := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case name == "openclaw-agent.sqlite":
		return kindDB
	case dir != "sessions":
		return kindNone
	case strings.HasSuffix(name, ".jsonl"), strings.Contains(name, ".jsonl.reset."):
		if strings.HasSuffix(name, ".zst") || strings.HasSuffix(name, ".lock") || strings.Contains(name, ".trajectory.") {
			return kindNone
		}
		return kindTranscript
	}
	return kindNone
}

// Import brings one database or transcript file up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	if kind(file) == kindDB || strings.HasSuffix(file, ".sqlite") {
		return export.ImportDB(ctx, st, SourceName, file, newDBReader(file))
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return newFileParser(file) })
}
