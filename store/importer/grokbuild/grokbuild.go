// Package grokbuild imports Grok Build sessions (xai-org/grok-build, xAI's
// coding agent; not the community "grok-cli").
//
// A session is ${GROK_HOME:-~/.grok}/sessions/<URL-encoded cwd>/<session id>/
// with summary.json (info{id, cwd}, generated_title, session_summary,
// created_at, updated_at, current_model_id, parent_session_id,
// session_kind, head_branch) and updates.jsonl, the append-only log of
// ACP session updates that drives /resume: one
// {"timestamp" (Unix s), "method": "session/update" | "_x.ai/session/update",
// "params": {"sessionId", "update": {"sessionUpdate": kind, ...}}} per line.
// Messages arrive as chunks; they are joined the way Grok's own chat
// history reducer does (session/storage/mod.rs): a user turn ends when
// the agent speaks, an agent message when a tool result or the next user
// chunk arrives. Files are read incrementally, an unfinished message kept
// with the cursor.
package grokbuild

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"sort"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Grok Build sessions.
const SourceName = "grok-build"

func init() { importer.Register(&Source{}, "grok") }

// Source imports Grok Build sessions. Its zero value is ready.
type Source struct{}

// Name is "grok-build".
func (*Source) Name() string { return SourceName }

// DefaultPaths is $GROK_HOME/sessions, else ~/.grok/sessions.
func (*Source) DefaultPaths() []string {
	home := importer.HomeDir("GROK_HOME", ".grok")
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, "sessions")}
}

// skip are a session's folders that hold no updates.jsonl of a session.
var skip = map[string]bool{"compaction_checkpoints": true, "prompts": true, "subagents": true}

// Discover finds every updates.jsonl under paths.
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, skip, func(path, name string) {
		if name == "updates.jsonl" {
			found = append(found, path)
		}
	})
	sort.Strings(found)
	return append(named, found...), err
}

// summary is summary.json (session/persistence.rs Summary).
type summary struct {
	Info struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	} `json:"info"`
	SessionSummary string `json:"session_summary"`
	GeneratedTitle string `json:"generated_title"`
	CreatedAt      string `json:"created_at"`
	UpdatedAt      string `json:"updated_at"`
	Model          string `json:"current_model_id"`
	Parent         string `json:"parent_session_id"`
	Kind           string `json:"session_kind"`
	Branch         string `json:"head_branch"`
}

// Import brings one session's updates.jsonl up to date, with its summary.json.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := filepath.Dir(file)
	var sm summary
	if raw, err := os.ReadFile(filepath.Join(dir, "summary.json")); err == nil {
		_ = json.Unmarshal(raw, &sm) // written atomically; a missing one leaves the updates
	}
	sess := store.Session{ID: sm.Info.ID, Source: SourceName, Model: sm.Model, ParentID: sm.Parent, Cwd: sm.Info.Cwd, GitBranch: sm.Branch,
		StartedAt: textutil.ParseTime(sm.CreatedAt), EndedAt: textutil.ParseTime(sm.UpdatedAt)}
	sess.Title = textutil.Title(sm.GeneratedTitle)
	if sess.Title == "" {
		sess.Title = textutil.Title(sm.SessionSummary)
	}
	if sess.ID == "" {
		sess.ID = filepath.Base(dir)
	}
	if sess.Cwd == "" {
		// The group folder is the URL-encoded cwd (a long one is hashed, its
		// path in .cwd).
		group := filepath.Dir(dir)
		if raw, err := os.ReadFile(filepath.Join(group, ".cwd")); err == nil {
			sess.Cwd = string(raw)
		} else if c, err := url.PathUnescape(filepath.Base(group)); err == nil && filepath.IsAbs(c) {
			sess.Cwd = c
		}
	}
	if sm.Kind == "subagent" && sm.Parent != "" {
		sess.ModelConfig = textutil.DelegatedFrom(sm.Parent)
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &parser{sess: sess, st: saved{Tools: map[string]string{}}}
	})
}
