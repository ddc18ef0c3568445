// Package claude imports Claude Code transcripts:
// ~/.claude/projects/<project>/<session>.jsonl, and sub-agent runs in
// <session>/subagents/agent-<id>.jsonl (or flat agent-<id>.jsonl) as child
// sessions of the session that started them.
//
// One assistant reply is often split over several lines sharing a
// message.id; they are merged into one message. tool_use blocks become the
// assistant message's tool calls (OpenAI shape), tool_result blocks become
// role "tool" messages named after their call, thinking becomes reasoning.
// Titles: custom-title, else ai-title, else a summary record attached
// through leafUuid (possibly from another file); an untitled session is
// shown by its first real prompt (the store's list preview).
//
// Text Claude Code writes into user records itself (slash-command
// wrappers, command output, interruption markers, meta records, the
// compaction summary) keeps role "user" with a display kind (kinds.go),
// and messages typed while the agent works are imported from their
// queue-operation records (queue.go). FORMATS.md, "Claude Code", has the
// whole mapping.
package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Claude Code sessions.
const SourceName = "claude-code"

func init() {
	importer.Register(&Source{}, "claude", "claude-code")
	importer.Register(&Source{name: QoderName, env: "QODER_CONFIG_DIR", dir: ".qoder"}, "qodercli", "qoder-cli")
}

// QoderName is the session source of Qoder CLI (@qoder-ai/qodercli), a
// Claude Code work-alike whose own code writes the same transcripts under
// ${QODER_CONFIG_DIR:-~/.qoder}/projects (FORMATS.md, "Qoder CLI").
const QoderName = "qoder"

// Source imports Claude Code transcripts (its zero value) or those of an
// agent writing the same records in a folder of its own (Qoder CLI). It
// remembers summaries across the files of one run.
type Source struct {
	name      string // "" for Claude Code
	env       string // the variable naming the agent's config folder
	dir       string // the config folder below the home folder
	mu        sync.Mutex
	uuids     map[string]string // message uuid -> session, for summaries from other files
	tails     map[string]string // session -> uuid of its last message, from this run
	summaries []summary
}

// Name is "claude-code" (or the other agent's source name).
func (s *Source) Name() string {
	if s.name != "" {
		return s.name
	}
	return SourceName
}

// root is the agent's config folder.
func (s *Source) root() string {
	if s.name != "" {
		return importer.HomeDir(s.env, s.dir)
	}
	return Root()
}

// meta is a state_meta key of this source: Claude Code's keep their names.
func (s *Source) meta(key string) string {
	if s.name != "" {
		return key + "_" + s.name
	}
	return key
}

// Root is ${CLAUDE_CONFIG_DIR:-~/.claude}.
func Root() string {
	return importer.HomeDir("CLAUDE_CONFIG_DIR", ".claude")
}

// DefaultPaths is the projects folder under Root.
func (s *Source) DefaultPaths() []string {
	if r := s.root(); r != "" {
		return []string{filepath.Join(r, "projects")}
	}
	return nil
}

// skipDirs hold side files that are not transcripts.
var skipDirs = map[string]bool{"tool-results": true, "workflows": true, "memory": true}

// Discover finds transcripts under paths (the config root, the projects
// folder, a project folder, or single files), sorted so that a session's
// main file comes before its sub-agent files.
func (s *Source) Discover(paths []string) ([]string, error) {
	var found []string
	out, err := importer.FindFiles(paths, importer.Subfolder("projects"), skipDirs, func(path, name string) {
		if strings.HasSuffix(name, ".jsonl") && name != "journal.jsonl" && name != "history.jsonl" {
			found = append(found, path)
		}
	})
	if err != nil {
		return nil, err
	}
	out = append(out, found...)
	sort.Strings(out) // "<id>.jsonl" sorts before "<id>/subagents/..."
	return out, nil
}

// Import brings one transcript up to date.
func (s *Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var last *parser
	rep, err := importer.ImportLines(ctx, st, s.Name(), file, func() importer.LineParser {
		last = newParser(s.Name(), file)
		return last
	})
	if err != nil || last == nil {
		return rep, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uuids == nil {
		s.uuids = map[string]string{}
	}
	if s.tails == nil {
		s.tails = map[string]string{}
	}
	for u, sid := range last.uuids {
		s.uuids[u] = sid
	}
	for sid, u := range last.tails {
		s.tails[sid] = u
	}
	s.summaries = append(s.summaries, last.summaries...)
	return rep, nil
}

// Summaries name their session by the uuid of its last message (leafUuid),
// often in a file imported in an earlier run (recall watch imports one
// changed file at a time). recall therefore remembers, in state_meta, the
// last message uuid of every Claude Code session and the summaries whose
// leaf it has not seen yet.
const (
	metaTails   = "recall_claude_tails"     // JSON {session id: last message uuid}
	metaPending = "recall_claude_summaries" // JSON [{Leaf, Text}] still unresolved
	maxPending  = 1000
)

// Finish titles, from summaries found in other files (this run's or an
// earlier one's), the untitled sessions holding their leaf message.
func (s *Source) Finish(ctx context.Context, st *store.Store) (importer.Report, error) {
	s.mu.Lock()
	sums, uuids, tails := s.summaries, s.uuids, s.tails
	s.summaries, s.uuids, s.tails = nil, nil, nil
	s.mu.Unlock()
	var rep importer.Report
	if len(sums) == 0 && len(tails) == 0 {
		return rep, nil
	}
	titles := map[string]string{}
	err := st.Write(ctx, func(tx *store.Tx) error {
		clear(titles)
		known := map[string]string{}
		if raw, ok, err := tx.Meta(s.meta(metaTails)); err != nil {
			return err
		} else if ok {
			_ = json.Unmarshal([]byte(raw), &known)
		}
		var pending []summary
		if raw, ok, err := tx.Meta(s.meta(metaPending)); err != nil {
			return err
		} else if ok {
			_ = json.Unmarshal([]byte(raw), &pending)
		}
		for sid, u := range tails {
			known[sid] = u
		}
		leaves := make(map[string]string, len(known))
		for sid, u := range known {
			leaves[u] = sid
		}
		var still []summary
		seen := map[string]bool{}
		for _, sm := range append(pending, sums...) {
			sid, ok := uuids[sm.Leaf]
			if !ok {
				sid, ok = leaves[sm.Leaf]
			}
			if ok {
				titles[sid] = sm.Text
			} else if !seen[sm.Leaf] {
				seen[sm.Leaf] = true
				still = append(still, sm)
			}
		}
		if len(still) > maxPending {
			still = still[len(still)-maxPending:]
		}
		raw, err := json.Marshal(known)
		if err != nil {
			return err
		}
		if err := tx.SetMeta(s.meta(metaTails), string(raw)); err != nil {
			return err
		}
		if still == nil {
			still = []summary{}
		}
		raw, err = json.Marshal(still)
		if err != nil {
			return err
		}
		return tx.SetMeta(s.meta(metaPending), string(raw))
	})
	if err != nil {
		return rep, fmt.Errorf("remember Claude Code summaries: %w", err)
	}
	for sid, title := range titles {
		sess, err := st.SessionOf(ctx, SourceName, sid)
		if err != nil {
			continue // the session was not imported (empty file)
		}
		if sess.Title != "" {
			continue // custom-title and ai-title outrank summaries
		}
		sess.Title = textutil.Title(title)
		if err := st.Write(ctx, func(tx *store.Tx) error { return tx.UpdateSession(sess) }); err != nil {
			return rep, fmt.Errorf("title session %s: %w", sid, err)
		}
		rep.Sessions++
	}
	return rep, nil
}

// RetentionNotice warns that Claude Code deletes old transcripts
// (cleanupPeriodDays in settings.json, default 30) when its folder exists.
func (s *Source) RetentionNotice() string {
	if s.name != "" {
		return ""
	}
	root := Root()
	if root == "" || !importer.IsDir(root) {
		return ""
	}
	days := 30
	if raw, err := os.ReadFile(filepath.Join(root, "settings.json")); err == nil {
		var cfg struct {
			CleanupPeriodDays *int `json:"cleanupPeriodDays"`
		}
		if json.Unmarshal(raw, &cfg) == nil && cfg.CleanupPeriodDays != nil {
			days = *cfg.CleanupPeriodDays
		}
	}
	return fmt.Sprintf("Claude Code deletes transcripts older than %d days (cleanupPeriodDays); sessions imported into recall stay after that.", days)
}
