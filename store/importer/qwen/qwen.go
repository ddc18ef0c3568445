// Package qwen imports Qwen Code chat recordings.
//
// Qwen Code (a fork of Gemini CLI) appends one JSON record per line to
// <runtime>/projects/<sanitized cwd>/chats/<sessionId>.jsonl since 0.1x
// (earlier releases kept the same records under ~/.qwen/tmp/<sha256 of the
// project root>/chats/), and a sub-agent's run to
// projects/<...>/subagents/<sessionId>/agent-<agentId>.jsonl with an
// agent-<agentId>.meta.json beside it; a run becomes a child session of the
// session that started it. Records are only appended, so files are imported
// incrementally. The runtime folder is $QWEN_RUNTIME_DIR, else $QWEN_HOME,
// else ~/.qwen.
package qwen

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// SourceName is the session source of imported Qwen Code sessions.
const SourceName = "qwen-code"

func init() { importer.Register(&Source{}, "qwen") }

// Source imports Qwen Code recordings. Its zero value is ready.
type Source struct{}

// Name is "qwen-code".
func (s *Source) Name() string { return SourceName }

// DefaultPaths are $QWEN_RUNTIME_DIR (where projects/ lives when set) and
// $QWEN_HOME or ~/.qwen.
func (s *Source) DefaultPaths() []string {
	var out []string
	if d := os.Getenv("QWEN_RUNTIME_DIR"); d != "" {
		out = append(out, d)
	}
	if d := importer.HomeDir("QWEN_HOME", ".qwen"); d != "" {
		out = append(out, d)
	}
	return out
}

// skip are folders under the Qwen root that never hold recordings.
var skip = map[string]bool{"extensions": true, "extension-store": true, "memories": true, "memory": true, "usage": true, "skills": true, "node_modules": true}

// Discover finds chat recordings (…/chats/*.jsonl, not the .ledger.jsonl
// bookkeeping) and sub-agent runs (…/subagents/<session>/agent-*.jsonl)
// under paths: every main recording before the sub-agent runs.
func (s *Source) Discover(paths []string) ([]string, error) {
	var mains, subs []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, _ string) {
		switch kind(path) {
		case kindMain:
			mains = append(mains, path)
		case kindSub:
			subs = append(subs, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(mains)
	sort.Strings(subs)
	out := append(named, mains...)
	return dedupe(append(out, subs...)), nil
}

func dedupe(files []string) []string {
	seen := map[string]bool{}
	out := files[:0]
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

const (
	kindNone = iota
	kindMain
	kindSub
)

// kind classifies a path by where Qwen Code puts recordings.
func kind(path string) int {
	name := filepath.Base(path)
	dir := filepath.Dir(path)
	switch {
	case !strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".ledger.jsonl"):
		return kindNone
	case filepath.Base(dir) == "chats":
		return kindMain
	case strings.HasPrefix(name, "agent-") && filepath.Base(filepath.Dir(dir)) == "subagents":
		return kindSub
	}
	return kindNone
}

// Group keeps a sub-agent run with the recording of its session.
func (s *Source) Group(file string) string {
	if kind(file) == kindSub {
		sess := filepath.Dir(file)
		project := filepath.Dir(filepath.Dir(sess))
		return filepath.Join(project, "chats", filepath.Base(sess)+".jsonl")
	}
	return file
}

// Import brings one recording up to date.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	info := fileInfo{path: file}
	if kind(file) == kindSub {
		info.parent = filepath.Base(filepath.Dir(file))
		info.meta = readAgentMeta(strings.TrimSuffix(file, ".jsonl") + ".meta.json")
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser { return newParser(info) })
}

// agentMeta is the part of agent-<id>.meta.json recall reads.
type agentMeta struct {
	AgentID     string `json:"agentId"`
	AgentType   string `json:"agentType"`
	Description string `json:"description"`
	ToolUseID   string `json:"toolUseId"`
	Model       string `json:"model"`
}

// readAgentMeta reads a sub-agent's meta file; a missing or broken one
// only costs the run its title.
func readAgentMeta(path string) agentMeta {
	var m agentMeta
	if raw, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

// ChildID is the session id of a sub-agent run of parent.
func ChildID(parent, agent string) string { return parent + "-agent-" + agent }
