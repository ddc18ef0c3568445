package openhands

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// baseState is what recall reads of base_state.json (ConversationState).
type baseState struct {
	Agent struct {
		LLM struct {
			Model string `json:"model"`
		} `json:"llm"`
	} `json:"agent"`
	Workspace struct {
		WorkingDir string `json:"working_dir"`
	} `json:"workspace"`
	Stats struct {
		Usage map[string]struct {
			Tokens *struct {
				Prompt     int64 `json:"prompt_tokens"`
				Completion int64 `json:"completion_tokens"`
				CacheRead  int64 `json:"cache_read_tokens"`
				CacheWrite int64 `json:"cache_write_tokens"`
				Reasoning  int64 `json:"reasoning_tokens"`
			} `json:"accumulated_token_usage"`
		} `json:"usage_to_metrics"`
	} `json:"stats"`
}

// event is the union of the event kinds recall reads (openhands/sdk/event).
type event struct {
	Kind      string `json:"kind"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Source    string `json:"source"`
	// MessageEvent
	LLMMessage *struct {
		Role      string          `json:"role"`
		Content   json.RawMessage `json:"content"`
		Reasoning string          `json:"reasoning_content"`
		Thinking  []thinking      `json:"thinking_blocks"`
	} `json:"llm_message"`
	Sender string `json:"sender"`
	// ActionEvent
	Thought   json.RawMessage `json:"thought"`
	Reasoning string          `json:"reasoning_content"`
	Thinking  []thinking      `json:"thinking_blocks"`
	ToolName  string          `json:"tool_name"`
	ToolCall  *struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_call"`
	ToolCallID string `json:"tool_call_id"`
	// ObservationEvent, UserRejectObservation, AgentErrorEvent
	Observation *struct {
		Content json.RawMessage `json:"content"`
		IsError bool            `json:"is_error"`
	} `json:"observation"`
	RejectionReason string `json:"rejection_reason"`
	Error           string `json:"error"`
	// Condensation, CondensationSummaryEvent
	Summary string `json:"summary"`
}

type thinking struct {
	Type     string `json:"type"`
	Thinking string `json:"thinking"`
}

type parser struct {
	sess  store.Session
	files []string
	tools map[string]string
	msgs  []store.Message
	title string
}

func newParser(id, parent string, bs baseState, files []string) *parser {
	s := store.Session{ID: id, Source: SourceName, Model: bs.Agent.LLM.Model, Cwd: bs.Workspace.WorkingDir, ParentID: parent}
	for _, m := range bs.Stats.Usage {
		if m.Tokens != nil {
			s.InputTokens += m.Tokens.Prompt
			s.OutputTokens += m.Tokens.Completion
			s.CacheReadTokens += m.Tokens.CacheRead
			s.CacheWriteTokens += m.Tokens.CacheWrite
			s.ReasoningTokens += m.Tokens.Reasoning
		}
	}
	if parent != "" {
		s.ModelConfig = textutil.DelegatedFrom(parent)
	}
	return &parser{sess: s, files: files, tools: map[string]string{}}
}

// Restore is never called: a conversation is always read in full.
func (p *parser) Restore(json.RawMessage) error { return nil }

// where names the event file of line n (1-based), for problems.
func (p *parser) where(n int) string {
	if n >= 1 && n <= len(p.files) {
		return filepath.Base(p.files[n-1])
	}
	return "event"
}

// Line reads one event.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var e event
	if err := json.Unmarshal(text, &e); err != nil {
		t.Malformed("%s: %s", p.where(t.Line), importer.DecodeProblem(err))
		return nil
	}
	ts := textutil.ParseLocalTime(e.Timestamp)
	if !ts.IsZero() {
		if p.sess.StartedAt.IsZero() || ts.Before(p.sess.StartedAt) {
			p.sess.StartedAt = ts
		}
		if ts.After(p.sess.EndedAt) {
			p.sess.EndedAt = ts
		}
	}
	row := store.Message{SessionID: p.sess.ID, Timestamp: ts, SourceKey: e.ID}
	switch e.Kind {
	case "MessageEvent":
		if e.LLMMessage == nil {
			t.Malformed("%s: %s", p.where(t.Line), importer.MissingField("MessageEvent", "llm_message", text))
			return nil
		}
		row.Role, row.Content = e.LLMMessage.Role, textutil.FlattenParts(e.LLMMessage.Content)
		switch row.Role {
		case "user":
			if e.Source != "user" || (e.Sender != "" && p.sess.ParentID != "") {
				row.DisplayKind = store.DisplayKindAgent // a delegating agent's task, not typed
			}
			if p.title == "" {
				p.title = row.Content
			}
		case "assistant":
			row.Reasoning = reasoning(e.LLMMessage.Reasoning, e.LLMMessage.Thinking)
		default:
			t.Skip()
			return nil
		}
	case "ActionEvent":
		row.Role, row.Content, row.Reasoning = "assistant", textutil.FlattenParts(e.Thought), reasoning(e.Reasoning, e.Thinking)
		if e.ToolCall != nil {
			name := e.ToolCall.Name
			if name == "" {
				name = e.ToolName
			}
			row.ToolCalls = textutil.ToolCallsJSON([]textutil.ToolCall{textutil.NewToolCall(e.ToolCall.ID, name, e.ToolCall.Arguments)})
			p.tools[e.ToolCall.ID] = name
		}
	case "ObservationEvent", "UserRejectObservation", "AgentErrorEvent":
		row.Role, row.ToolCallID, row.ToolName = "tool", e.ToolCallID, e.ToolName
		if row.ToolName == "" {
			row.ToolName = p.tools[e.ToolCallID]
		}
		switch {
		case e.Observation != nil:
			row.Content = textutil.FlattenParts(e.Observation.Content)
			if e.Observation.IsError {
				row.FinishReason = "error"
			}
		case e.Kind == "UserRejectObservation":
			row.Content, row.FinishReason = "rejected: "+e.RejectionReason, "error"
		default:
			row.Content, row.FinishReason = e.Error, "error"
		}
	case "Condensation", "CondensationSummaryEvent":
		if strings.TrimSpace(e.Summary) == "" {
			t.Skip()
			return nil
		}
		row.Role, row.Content, row.DisplayKind = "user", e.Summary, store.DisplayKindCompaction
	default:
		// SystemPromptEvent, ConversationStateUpdateEvent, PauseEvent,
		// TokenEvent, hook and streaming events, ...
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

// reasoning is an event's reasoning text, else its thinking blocks.
func reasoning(text string, blocks []thinking) string {
	if text != "" {
		return text
	}
	var out []string
	for _, b := range blocks {
		if b.Thinking != "" {
			out = append(out, b.Thinking)
		}
	}
	return strings.Join(out, "\n\n")
}

// Result is the conversation with its messages; its title is the first
// prompt, as the CLI's conversation list shows it.
func (p *parser) Result() importer.Result {
	p.sess.Title = textutil.Title(p.title)
	if len(p.msgs) == 0 {
		return importer.Result{}
	}
	return importer.Result{Sessions: []store.Session{p.sess}, Overwrite: true, Messages: p.msgs}
}
