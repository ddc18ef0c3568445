// Package codebuddy imports CodeBuddy Code (Tencent's terminal agent,
// @tencent-ai/codebuddy-code, shipped in @tencent-ai/agent-sdk) sessions:
// ${CODEBUDDY_CONFIG_DIR:-~/.codebuddy}/projects/<cwd slug>/<sessionId>.jsonl,
// appended one item per line, and a sub-agent's run in
// <sessionId>/subagents/agent-<id>.jsonl, laid out as Claude Code lays
// them out. The lines are the items of CodeBuddy's agent runner (OpenAI
// Agents-style: message, reasoning, function_call, function_call_result)
// plus its history records (custom-title, ai-title, summary, ...); the
// user texts follow Claude Code's conventions and are classified by the
// claude source's rules (claude.Classify).
package codebuddy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported CodeBuddy Code sessions.
const SourceName = "codebuddy"

func init() { importer.Register(&Source{}, "codebuddy-code", "cbc") }

// Source imports CodeBuddy Code sessions. Its zero value is ready.
type Source struct{}

// Name is "codebuddy".
func (*Source) Name() string { return SourceName }

// Root is ${CODEBUDDY_CONFIG_DIR:-~/.codebuddy} (docs: env-vars.md).
func Root() string { return importer.HomeDir("CODEBUDDY_CONFIG_DIR", ".codebuddy") }

// DefaultPaths is the projects folder.
func (*Source) DefaultPaths() []string {
	if r := Root(); r != "" {
		return []string{filepath.Join(r, "projects")}
	}
	return nil
}

// skip are the folders under projects that hold no transcripts.
var skip = map[string]bool{"tool-results": true}

// Discover finds the transcripts under paths (the config dir, its projects
// folder, one project's folder, or single files), each session before its
// sub-agents.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, importer.Subfolder("projects"), skip, func(path, name string) {
		if strings.HasSuffix(name, ".jsonl") {
			found = append(found, path)
		}
	})
	sort.Slice(found, func(i, j int) bool {
		gi, gj := group(found[i]), group(found[j])
		if gi != gj {
			return gi < gj
		}
		if si, sj := subagentOf(found[i]) != "", subagentOf(found[j]) != ""; si != sj {
			return sj // the session before its sub-agents
		}
		return found[i] < found[j]
	})
	return append(named, found...), err
}

// Group keeps a session's sub-agent runs with it.
func (*Source) Group(file string) string { return group(file) }

func group(file string) string {
	if parent := subagentOf(file); parent != "" {
		return filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(file))), parent+".jsonl")
	}
	return file
}

// subagentOf is the session a sub-agent transcript
// (<sessionId>/subagents/agent-<id>.jsonl) belongs to, else "".
func subagentOf(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(dir) != "subagents" || !strings.HasPrefix(filepath.Base(file), "agent-") {
		return ""
	}
	return filepath.Base(filepath.Dir(dir))
}

// Import brings one transcript up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return newParser(file) })
}

// cleanupDays is CodeBuddy Code's cleanupPeriodDays in settings.json
// (default 30: docs settings.md), 0 when it keeps everything.
func cleanupDays() int {
	days := 30
	if raw, err := os.ReadFile(filepath.Join(Root(), "settings.json")); err == nil {
		var cfg struct {
			CleanupPeriodDays *int `json:"cleanupPeriodDays"`
		}
		if json.Unmarshal(raw, &cfg) == nil && cfg.CleanupPeriodDays != nil {
			days = *cfg.CleanupPeriodDays
		}
	}
	return max(days, 0)
}

// RetentionAge is how old a transcript gets before CodeBuddy Code deletes
// it (importer.RetentionAger).
func (*Source) RetentionAge() (time.Duration, bool) {
	if d := cleanupDays(); d > 0 && Root() != "" {
		return time.Duration(d) * 24 * time.Hour, true
	}
	return 0, false
}

// RetentionNotice warns that CodeBuddy Code deletes old sessions when its
// folder exists.
func (*Source) RetentionNotice() string {
	if r := Root(); r == "" || !importer.IsDir(r) || cleanupDays() == 0 {
		return ""
	}
	return fmt.Sprintf("CodeBuddy Code deletes sessions older than %d days (cleanupPeriodDays); sessions imported into recall stay after that.", cleanupDays())
}
