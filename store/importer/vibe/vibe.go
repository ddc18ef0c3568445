// Package vibe imports Mistral Vibe sessions (mistralai/mistral-vibe).
//
// Vibe's SessionLogger keeps each session in
// ${VIBE_HOME:-~/.vibe}/logs/session/<prefix>_<YYYYmmdd_HHMMSS>_<first 8 of the id>/:
// messages.jsonl, to which the new messages of every turn are appended as
// LLMMessage.model_dump(exclude_none=True) (role, content, injected,
// reasoning_content, tool_calls, name, tool_call_id, message_id), and
// meta.json, rewritten whole after them (session_id, parent_session_id,
// start_time, end_time, git_branch, environment.working_directory, title,
// stats, config). A sub-agent run by the task tool is a session of its own
// in <session folder>/agents/<agent>_<time>_<id>/. Messages carry no time:
// each gets its session's start.
package vibe

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Vibe sessions.
const SourceName = "mistral-vibe"

func init() { importer.Register(&Source{}, "vibe") }

// Source imports Vibe session folders. Its zero value is ready.
type Source struct{}

// Name is "mistral-vibe".
func (*Source) Name() string { return SourceName }

// DefaultPaths is $VIBE_HOME/logs/session, else ~/.vibe/logs/session
// (SESSION_LOG_DIR in vibe/core/paths/_vibe_home.py).
func (*Source) DefaultPaths() []string {
	home := importer.HomeDir("VIBE_HOME", ".vibe")
	if home == "" {
		return nil
	}
	return []string{filepath.Join(home, "logs", "session")}
}

// Discover finds every messages.jsonl under paths, a session before its
// sub-agents (their folders are inside it).
func (*Source) Discover(paths []string) ([]string, error) {
	var found []string
	named, err := importer.FindFiles(paths, nil, nil, func(path, name string) {
		if name == "messages.jsonl" && importer.IsFile(filepath.Join(filepath.Dir(path), "meta.json")) {
			found = append(found, path)
		}
	})
	sort.Strings(found) // a parent's folder sorts before the agents/ inside it
	return append(named, found...), err
}

// Group keeps a session with its sub-agents' runs.
func (*Source) Group(file string) string {
	dir := filepath.Dir(file)
	if filepath.Base(filepath.Dir(dir)) == "agents" {
		return filepath.Dir(filepath.Dir(dir))
	}
	return dir
}

// meta is meta.json (SessionMetadata plus what save_interaction adds).
type meta struct {
	SessionID   string            `json:"session_id"`
	Parent      string            `json:"parent_session_id"`
	Start       string            `json:"start_time"`
	End         string            `json:"end_time"`
	GitBranch   string            `json:"git_branch"`
	Environment map[string]string `json:"environment"`
	Title       string            `json:"title"`
	Stats       struct {
		Prompt     int64 `json:"session_prompt_tokens"`
		Completion int64 `json:"session_completion_tokens"`
	} `json:"stats"`
	Config struct {
		Active string `json:"active_model"`
		Models []struct {
			Name  string `json:"name"`
			Alias string `json:"alias"`
		} `json:"models"`
	} `json:"config"`
}

// model is the name of the active model alias.
func (m meta) model() string {
	for _, x := range m.Config.Models {
		if x.Alias == m.Config.Active && x.Name != "" {
			return x.Name
		}
	}
	return m.Config.Active
}

// Import brings one session's messages.jsonl up to date, with its meta.json.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	dir := filepath.Dir(file)
	var m meta
	if raw, err := os.ReadFile(filepath.Join(dir, "meta.json")); err == nil {
		_ = json.Unmarshal(raw, &m) // a torn meta.json (rewritten by a rename) leaves the messages
	}
	sess := store.Session{ID: m.SessionID, Source: SourceName, Title: textutil.Title(m.Title), ParentID: m.Parent,
		StartedAt: textutil.ParseLocalTime(m.Start), EndedAt: textutil.ParseLocalTime(m.End), Cwd: m.Environment["working_directory"], GitBranch: m.GitBranch,
		Model: m.model(), InputTokens: m.Stats.Prompt, OutputTokens: m.Stats.Completion}
	if sess.ID == "" {
		sess.ID = filepath.Base(dir)
	}
	if filepath.Base(filepath.Dir(dir)) == "agents" && m.Parent != "" {
		sess.ModelConfig = textutil.DelegatedFrom(m.Parent)
	}
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &parser{sess: sess, tools: map[string]string{}}
	})
}

type parser struct {
	sess  store.Session
	tools map[string]string // call id -> tool name, kept between imports
	msgs  []store.Message
}

// Restore loads the tool names of calls made before the cursor.
func (p *parser) Restore(raw json.RawMessage) error { return json.Unmarshal(raw, &p.tools) }

// message is one LLMMessage dump.
type message struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Injected  bool            `json:"injected"`
	Reasoning json.RawMessage `json:"reasoning_content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	Name       string `json:"name"`
	ToolCallID string `json:"tool_call_id"`
	MessageID  string `json:"message_id"`
}

// toolError is how Vibe wraps a failed tool's text (TOOL_ERROR_TAG).
const toolError = "<tool_error>"

// Line reads one message.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var m message
	if err := json.Unmarshal(text, &m); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if m.Role == "" {
		t.Malformed("%s", importer.MissingField("message", "role", text))
		return nil
	}
	key := m.MessageID
	if key == "" {
		key = "L" + strconv.Itoa(t.Line)
	}
	row := store.Message{SessionID: p.sess.ID, Role: m.Role, Content: textutil.FlattenParts(m.Content), Timestamp: p.sess.StartedAt, SourceKey: key}
	switch m.Role {
	case "user":
		if m.Injected {
			row.DisplayKind = store.DisplayKindAgent // compaction context, hook and loop text Vibe sends as the user
			if strings.HasPrefix(row.Content, "You are continuing a trajectory after a context compaction.") {
				row.DisplayKind = store.DisplayKindCompaction
			}
		} else if p.sess.ModelConfig != "" && t.Line == 1 {
			row.DisplayKind = store.DisplayKindAgent // a sub-agent's task, written by the parent agent
		}
	case "assistant":
		var calls []textutil.ToolCall
		for _, c := range m.ToolCalls {
			calls = append(calls, textutil.NewToolCall(c.ID, c.Function.Name, c.Function.Arguments))
			p.tools[c.ID] = c.Function.Name
		}
		row.Reasoning, row.ToolCalls = textutil.FlattenParts(m.Reasoning), textutil.ToolCallsJSON(calls)
	case "tool":
		row.ToolCallID, row.ToolName = m.ToolCallID, firstOf(m.Name, p.tools[m.ToolCallID])
		row.SourceKey = m.ToolCallID + "#result"
		if strings.HasPrefix(row.Content, toolError) {
			row.FinishReason = "error"
		}
	default:
		t.Skip()
		return nil
	}
	if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
		t.Skip()
		return nil
	}
	p.msgs = append(p.msgs, row)
	return nil
}

// Result is the session (its meta.json as read now) and the new messages.
func (p *parser) Result() importer.Result {
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{p.sess}, Overwrite: true, Messages: msgs, State: p.tools}
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
