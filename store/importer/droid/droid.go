// Package droid imports Factory's Droid CLI sessions:
// ~/.factory/sessions/<project path with / as ->/<uuid>.jsonl, with the
// session's token usage and model in <uuid>.settings.json beside it.
//
// The first line is {"type": "session_start", id, title, sessionTitle,
// cwd}; each further {"type": "message", id, timestamp, message: {role,
// content}} carries Anthropic-shaped content blocks (text, thinking,
// tool_use in assistant messages; tool_result in user messages). The file
// is appended to, so it is read incrementally.
package droid

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Droid sessions.
const SourceName = "droid"

func init() { importer.Register(&Source{}, "factory") }

// Source imports Droid session files.
type Source struct{}

// Name is "droid".
func (*Source) Name() string { return SourceName }

// DefaultPaths is ~/.factory/sessions.
func (*Source) DefaultPaths() []string {
	return importer.PathIf(importer.HomeDir("", filepath.Join(".factory", "sessions")))
}

// Discover finds the sessions' .jsonl files under the named folders.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FindMatching(paths, importer.Subfolder("sessions"), nil, func(name string) bool {
		return strings.HasSuffix(name, ".jsonl")
	})
}

// settings is <uuid>.settings.json.
type settings struct {
	Model string `json:"model"`
	Usage struct {
		Input       int64 `json:"inputTokens"`
		Output      int64 `json:"outputTokens"`
		CacheCreate int64 `json:"cacheCreationTokens"`
		CacheRead   int64 `json:"cacheReadTokens"`
		Thinking    int64 `json:"thinkingTokens"`
	} `json:"tokenUsage"`
}

// Import brings one session file up to date, with its settings.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var set settings
	if raw, err := os.ReadFile(strings.TrimSuffix(file, ".jsonl") + ".settings.json"); err == nil {
		_ = json.Unmarshal(raw, &set) // no settings: no tokens, nothing else lost
	}
	id := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	return importer.ImportLines(ctx, st, SourceName, file, func() importer.LineParser {
		return &parser{set: set, state: state{Sess: store.Session{ID: id, Source: SourceName}, Tools: map[string]string{}}}
	})
}

type state struct {
	Sess  store.Session     `json:"s"`
	Tools map[string]string `json:"t,omitempty"` // tool_use id -> name
}

type parser struct {
	set   settings
	state state
	msgs  []store.Message
}

// Restore loads the saved state.
func (p *parser) Restore(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, &p.state); err != nil {
		return err
	}
	if p.state.Tools == nil {
		p.state.Tools = map[string]string{}
	}
	return nil
}

type record struct {
	Type         string          `json:"type"`
	ID           string          `json:"id"`
	Title        string          `json:"title"`
	SessionTitle string          `json:"sessionTitle"`
	Cwd          string          `json:"cwd"`
	Timestamp    string          `json:"timestamp"`
	Message      json.RawMessage `json:"message"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// Line reads one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	switch r.Type {
	case "session_start":
		if r.ID != "" {
			p.state.Sess.ID = r.ID
		}
		title := r.SessionTitle
		if title == "" {
			title = r.Title
		}
		p.state.Sess.Title, p.state.Sess.Cwd = textutil.Title(title), r.Cwd
		return nil
	case "message":
	default:
		t.Skip(r.Type) // todo_state and other bookkeeping
		return nil
	}
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(r.Message, &m); err != nil || m.Role == "" {
		t.Malformed("%s", importer.MissingField("message record's message", "role", r.Message))
		return nil
	}
	ts, _ := time.Parse(time.RFC3339Nano, r.Timestamp)
	if p.state.Sess.StartedAt.IsZero() || (!ts.IsZero() && ts.Before(p.state.Sess.StartedAt)) {
		p.state.Sess.StartedAt = ts
	}
	var blocks []block
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		blocks = []block{{Type: "text", Text: s}}
	} else if err := json.Unmarshal(m.Content, &blocks); err != nil {
		t.Malformed("message %s: content: %s", r.ID, importer.DecodeProblem(err))
		return nil
	}
	var texts, thinking, reminders []string
	var calls []textutil.ToolCall
	var tools []store.Message
	for i, b := range blocks {
		switch b.Type {
		case "text":
			switch {
			case strings.TrimSpace(b.Text) == "":
			case m.Role == "user" && strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>"):
				reminders = append(reminders, b.Text) // the CLI's own context, not typed
			default:
				texts = append(texts, b.Text)
			}
		case "image":
			texts = append(texts, "[image]")
		case "thinking":
			thinking = append(thinking, b.Thinking)
		case "tool_use":
			calls = append(calls, textutil.NewToolCall(b.ID, b.Name, b.Input))
			p.state.Tools[b.ID] = b.Name
		case "tool_result":
			body := textutil.FlattenParts(b.Content)
			if b.IsError {
				body = "error: " + body
			}
			tools = append(tools, store.Message{SessionID: p.state.Sess.ID, Role: "tool", Content: body, ToolCallID: b.ToolUseID,
				ToolName: p.state.Tools[b.ToolUseID], Timestamp: ts, SourceKey: r.ID + "#" + strconv.Itoa(i)})
		default:
			t.Skip(b.Type)
		}
	}
	p.msgs = append(p.msgs, tools...)
	if len(reminders) > 0 {
		p.msgs = append(p.msgs, store.Message{SessionID: p.state.Sess.ID, Role: "user", Content: strings.Join(reminders, "\n\n"),
			DisplayKind: store.DisplayKindAgent, Timestamp: ts, SourceKey: r.ID + "#reminder"})
	}
	if len(texts) == 0 && len(thinking) == 0 && len(calls) == 0 {
		if len(tools) == 0 && len(reminders) == 0 {
			t.Skip("empty messages")
		}
		return nil
	}
	row := store.Message{SessionID: p.state.Sess.ID, Role: m.Role, Content: strings.Join(texts, "\n\n"), Timestamp: ts, SourceKey: r.ID}
	switch m.Role {
	case "assistant":
		row.Reasoning, row.ToolCalls = strings.Join(thinking, "\n\n"), textutil.ToolCallsJSON(calls)
	}
	p.msgs = append(p.msgs, row)
	return nil
}

// Result is the session (with its settings) and the new messages.
func (p *parser) Result() importer.Result {
	s := p.state.Sess
	s.Model = p.set.Model
	s.InputTokens, s.OutputTokens = p.set.Usage.Input, p.set.Usage.Output
	s.CacheReadTokens, s.CacheWriteTokens, s.ReasoningTokens = p.set.Usage.CacheRead, p.set.Usage.CacheCreate, p.set.Usage.Thinking
	if s.StartedAt.IsZero() && len(p.msgs) == 0 {
		return importer.Result{State: p.state}
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: p.msgs, State: p.state}
}
