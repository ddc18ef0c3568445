// Package trae imports TRAE CLI 2.0 sessions (ByteDance's TRAE, the binary
// traecli): a closed-source fork of codex-rs that writes Codex's rollouts,
// field for field, under its own home, ~/.trae/cli/sessions/YYYY/MM/DD/
// rollout-<time>-<uuid>.jsonl (archived ones in ~/.trae/cli/archived_sessions).
//
// The rollouts are read by the codex source's reader (codex.ImportRollout)
// under this source's name: the sessions resume in traecli, not codex.
package trae

import (
	"context"
	"path/filepath"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/codex"
)

// SourceName is the session source of imported TRAE CLI sessions.
const SourceName = "trae-cli"

func init() { importer.Register(&Source{}, "trae", "traecli", "traex") }

// Source imports TRAE CLI rollouts. Its zero value is ready.
type Source struct{}

// Name is "trae-cli".
func (*Source) Name() string { return SourceName }

// Home is TRAE CLI's folder, ~/.trae/cli.
func Home() string { return importer.HomeDir("", filepath.Join(".trae", "cli")) }

// DefaultPaths are the live and archived session folders.
func (*Source) DefaultPaths() []string {
	h := Home()
	if h == "" {
		return nil
	}
	return []string{filepath.Join(h, "sessions"), filepath.Join(h, "archived_sessions")}
}

// Discover finds rollouts the way the codex source does (a home, its
// sessions folders, any folder below, or single files).
func (*Source) Discover(paths []string) ([]string, error) { return codex.DiscoverRollouts(paths) }

// Import brings one rollout up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return codex.ImportRollout(ctx, st, SourceName, file)
}
