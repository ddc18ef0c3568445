// Package roo imports Roo Code tasks (RooCodeInc/Roo-Code): the VS Code
// extension's globalStorage (rooveterinaryinc.roo-cline) and the Roo Code
// CLI's (~/.vscode-mock/global-storage, the extension run in a VS Code
// shim), each task a folder tasks/<id>/ holding api_conversation_history.json
// (the messages sent to the model, rewritten whole) and, since Roo Code's
// TaskHistoryStore, history_item.json (title, workspace, token totals, the
// parent of a sub-task).
//
// Roo Code is a fork of Cline and keeps Cline's task format, so the
// messages are read by the cline source's reader (cline.ImportTask); this
// package finds the tasks and says what history_item.json knows of them.
package roo

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/cline"
)

// SourceName is the session source of imported Roo Code tasks.
const SourceName = "roo-code"

// Extension is Roo Code's VS Code extension id, the name of its
// globalStorage folder.
const Extension = "rooveterinaryinc.roo-cline"

func init() { importer.Register(&Source{}, "roo", "roocode", "roo-cline") }

// Source imports Roo Code tasks. Its zero value is ready.
type Source struct{}

// Name is "roo-code".
func (*Source) Name() string { return SourceName }

// CLIStorage is where the Roo Code CLI keeps its tasks: the VS Code shim's
// global storage (apps/cli/src/lib/task-history/index.ts).
func CLIStorage() string {
	return importer.HomeDir("", filepath.Join(".vscode-mock", "global-storage"))
}

// DefaultPaths are the extension's globalStorage in every VS Code family
// editor that has it, and the CLI's storage when it holds tasks.
func (*Source) DefaultPaths() []string {
	out := importer.EditorGlobalStorage(Extension)
	if d := CLIStorage(); d != "" && importer.IsDir(filepath.Join(d, "tasks")) {
		out = append(out, d)
	}
	return out
}

// historyFile is the task file Roo Code writes; legacyHistory is the name
// Cline used before, which Roo Code still reads when the first is missing
// (src/core/task-persistence/apiMessages.ts).
const (
	historyFile   = "api_conversation_history.json"
	legacyHistory = "claude_messages.json"
)

// isTask reports whether path is tasks/<id>/<history file>.
func isTask(path string) bool {
	name := filepath.Base(path)
	if name != historyFile && name != legacyHistory {
		return false
	}
	if filepath.Base(filepath.Dir(filepath.Dir(path))) != "tasks" {
		return false
	}
	return name == historyFile || !importer.IsFile(filepath.Join(filepath.Dir(path), historyFile))
}

var skip = map[string]bool{"settings": true, "cache": true, "checkpoints": true, "node_modules": true}

// Discover finds the tasks under paths (a globalStorage folder, its tasks
// folder, one task's folder or file).
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, importer.Subfolder("tasks"), skip, func(path, _ string) {
		if isTask(path) {
			found = append(found, path)
		}
	})
	sort.Strings(found)
	return append(named, found...), err
}

// Import brings one task up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return cline.ImportTask(ctx, st, SourceName, file, describe)
}

// historyItem is Roo Code's HistoryItem (packages/types/src/history.ts),
// the fields recall reads.
type historyItem struct {
	ID           string  `json:"id"`
	ParentTaskID string  `json:"parentTaskId"`
	TS           int64   `json:"ts"`
	Task         string  `json:"task"`
	TokensIn     int64   `json:"tokensIn"`
	TokensOut    int64   `json:"tokensOut"`
	CacheWrites  int64   `json:"cacheWrites"`
	CacheReads   int64   `json:"cacheReads"`
	TotalCost    float64 `json:"totalCost"`
	Workspace    string  `json:"workspace"`
}

// describe reads the task's history_item.json; a task without one (written
// before Roo Code kept it) is known by its folder's name alone.
func describe(file string) cline.TaskMeta {
	dir := filepath.Dir(file)
	m := cline.TaskMeta{ID: filepath.Base(dir)}
	raw, err := os.ReadFile(filepath.Join(dir, "history_item.json"))
	if err != nil {
		return m
	}
	var h historyItem
	if json.Unmarshal(raw, &h) != nil {
		return m
	}
	if h.ID != "" {
		m.ID = h.ID
	}
	m.Parent, m.Title, m.Cwd = h.ParentTaskID, h.Task, h.Workspace
	m.InputTokens, m.OutputTokens, m.CacheReadTokens, m.CacheWriteTokens, m.Cost = h.TokensIn, h.TokensOut, h.CacheReads, h.CacheWrites, h.TotalCost
	if h.TS > 0 {
		m.Ended = time.UnixMilli(h.TS).UTC()
	}
	return m
}
