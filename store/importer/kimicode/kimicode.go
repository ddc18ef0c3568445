// Package kimicode imports Kimi Code sessions (MoonshotAI/kimi-code, the
// TypeScript CLI that replaced the Python kimi-cli).
//
// A session is the folder
// ${KIMI_CODE_HOME:-~/.kimi-code}/sessions/<workDirKey>/<sessionId>/ with
// state.json (id, cwd, title, createdAt/updatedAt in ms, the agents) and one
// agents/<agentId>/wire.jsonl per agent: "main", and one per sub-agent
// ("agent-0", ...). A wire file opens with {"type": "metadata",
// "protocol_version"} and then holds one durable record {"type", ...payload,
// "time"} per line (packages/agent-core-v2/docs/wire-manifest.d.ts lists
// the 55 kinds); the records the UI also gets ({"kind": "event"}) repeat
// what the durable ones hold and are skipped. Files are only appended to,
// so they are read incrementally.
package kimicode

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

// SourceName is the session source of imported Kimi Code sessions.
const SourceName = "kimi-code"

func init() { importer.Register(&Source{}, "kimi") }

// Source imports Kimi Code wire files. Its zero value is ready.
type Source struct{}

// Name is "kimi-code".
func (*Source) Name() string { return SourceName }

// DefaultPaths is $KIMI_CODE_HOME, else ~/.kimi-code.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("KIMI_CODE_HOME", ".kimi-code"))
}

// skip are folders of the Kimi Code home that never hold sessions.
var skip = map[string]bool{"logs": true, "cache": true, "updates": true, "blobs": true, "plugins": true, "skills": true,
	"notify": true, "tasks": true, "cron": true, ".index-dirty": true}

// Discover finds agents/<agentId>/wire.jsonl under paths (the Kimi Code
// home, its sessions folder, one session, or files), each session's main
// agent before its sub-agents.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		if name == "wire.jsonl" && filepath.Base(filepath.Dir(filepath.Dir(path))) == "agents" {
			found = append(found, path)
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(found, func(i, j int) bool {
		si, sj := sessionDir(found[i]), sessionDir(found[j])
		if si != sj {
			return si < sj
		}
		mi, mj := agentOf(found[i]) == "main", agentOf(found[j]) == "main"
		if mi != mj {
			return mi
		}
		return found[i] < found[j]
	})
	return append(named, found...), nil
}

// Group keeps a session's agents together (the main agent names none of
// its sub-agents' files, but they are one conversation).
func (*Source) Group(file string) string { return sessionDir(file) }

// sessionDir is <sessionId>/ of .../<sessionId>/agents/<agentId>/wire.jsonl.
func sessionDir(file string) string { return filepath.Dir(filepath.Dir(filepath.Dir(file))) }

// agentOf is the <agentId> folder holding a wire file.
func agentOf(file string) string { return filepath.Base(filepath.Dir(file)) }

// state is state.json: the session's metadata (sessionMetadataService.ts).
type state struct {
	ID          string `json:"id"`
	Cwd         string `json:"cwd"`
	WorkDir     string `json:"workDir"` // before version 2
	Title       string `json:"title"`
	CustomTitle string `json:"customTitle"` // before version 2
	CreatedAt   int64  `json:"createdAt"`
	UpdatedAt   int64  `json:"updatedAt"`
	Archived    bool   `json:"archived"`
	Agents      map[string]struct {
		Type          string            `json:"type"`
		ParentAgentID string            `json:"parentAgentId"`
		Labels        map[string]string `json:"labels"`
	} `json:"agents"`
}

func readState(dir string) state {
	var s state
	if raw, err := os.ReadFile(filepath.Join(dir, "state.json")); err == nil {
		_ = json.Unmarshal(raw, &s) // a missing or torn state.json leaves the wire's own facts
	}
	if s.Cwd == "" {
		s.Cwd = s.WorkDir
	}
	if s.Title == "" {
		s.Title = s.CustomTitle
	}
	return s
}

// ChildID is the session id recall gives a sub-agent's run: Kimi Code
// knows it only as an agent of its session.
func ChildID(session, agent string) string { return session + "-" + agent }

// Import brings one agent's wire.jsonl up to date, with its session's state.json.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := sessionDir(file)
	meta := readState(dir)
	sess := meta.ID
	if sess == "" {
		sess = filepath.Base(dir)
	}
	agent := agentOf(file)
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return newParser(sess, agent, meta)
	})
}

// isSubAgent reports whether agent is a sub-agent of the session: any
// agent but the main one, which state.json calls "main".
func isSubAgent(agent string, meta state) bool {
	if a, ok := meta.Agents[agent]; ok {
		return a.Type != "main"
	}
	return agent != "main" && !strings.EqualFold(agent, "main")
}
