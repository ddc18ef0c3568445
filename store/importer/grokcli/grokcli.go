// Package grokcli imports the sessions of Grok CLI (superagent-ai/grok-cli,
// published as @vibe-kit/grok-cli and, since its 1.0 rewrite on Bun, as
// grok-dev): ~/.grok/grok.db, a SQLite database (bun:sqlite, WAL) that
// 1.0 and later keep every session in. @vibe-kit/grok-cli 0.0.34, the
// release the npm registry here serves, keeps no history at all (only
// ~/.grok/user-settings.json), so there is nothing of it to read.
//
// Tables (src/storage/migrations.ts): workspaces (canonical_path),
// sessions (id, title, model, cwd_at_start, created_at, updated_at),
// messages (session_id, seq, role, message_json: an AI SDK ModelMessage),
// usage_events (tokens per message_seq), compactions (summary,
// first_kept_seq). FORMATS.md, "Grok CLI", cites the source of each.
package grokcli

import (
	"context"
	"path/filepath"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
)

// SourceName is the session source of imported Grok CLI sessions.
const SourceName = "grok-cli"

func init() { importer.Register(&Source{}, "grok-dev", "vibe-kit-grok") }

// Source imports Grok CLI's database. Its zero value is ready.
type Source struct{}

// Name is "grok-cli".
func (*Source) Name() string { return SourceName }

// DefaultPaths is ~/.grok (where grok.db lives).
func (*Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("", ".grok"))
}

// Discover returns the files named, and for each folder named its grok.db
// (the folder is not walked: xAI's Grok Build keeps thousands of session
// files in ~/.grok/sessions).
func (*Source) Discover(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, "grok.db"), filepath.Join(d, ".grok", "grok.db")} {
			if importer.IsFile(p) {
				files = append(files, p)
				break
			}
		}
	}
	return files, nil
}

// Import brings the database up to date: only sessions whose rows changed
// are read again.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, newReader)
}
