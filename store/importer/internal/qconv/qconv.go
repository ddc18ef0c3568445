// Package qconv converts the ConversationState that Amazon Q Developer CLI
// (aws/amazon-q-developer-cli, crates/chat-cli/src/cli/chat/conversation.rs)
// keeps as JSON in its data.sqlite3, and that Kiro CLI, its successor,
// keeps in the same shape: a history of {user, assistant,
// request_metadata} entries whose content variants are serde's externally
// tagged enums ({"Prompt": {...}}, {"ToolUse": {...}}).
package qconv

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// State is what recall reads of a ConversationState.
type State struct {
	ConversationID string  `json:"conversation_id"`
	History        []Entry `json:"history"`
	Model          string  `json:"model"`
	ModelInfo      *struct {
		ModelID   string `json:"model_id"`
		ModelName string `json:"model_name"`
	} `json:"model_info"`
	// LatestSummary is (summary text, RequestMetadata) after a /compact.
	LatestSummary []json.RawMessage `json:"latest_summary"`
}

// Entry is a HistoryEntry.
type Entry struct {
	User      *userMessage               `json:"user"`
	Assistant map[string]json.RawMessage `json:"assistant"`
	Meta      *struct {
		Start int64  `json:"request_start_timestamp_ms"`
		End   int64  `json:"stream_end_timestamp_ms"`
		Model string `json:"model_id"`
	} `json:"request_metadata"`
}

type userMessage struct {
	Content    map[string]json.RawMessage `json:"content"`
	Timestamp  string                     `json:"timestamp"`
	EnvContext struct {
		EnvState *struct {
			Cwd string `json:"current_working_directory"`
		} `json:"env_state"`
	} `json:"env_context"`
}

type toolResult struct {
	ID      string                       `json:"tool_use_id"`
	Content []map[string]json.RawMessage `json:"content"`
	Status  string                       `json:"status"`
}

type assistantBody struct {
	MessageID string `json:"message_id"`
	Content   string `json:"content"`
	ToolUses  []struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"tool_uses"`
}

// Model is the conversation's model id.
func (s State) ModelID() string {
	if s.ModelInfo != nil && s.ModelInfo.ModelID != "" {
		return s.ModelInfo.ModelID
	}
	return s.Model
}

// Convert turns a conversation into rows of session id; start is the time
// given to a message whose entry carries none. It also returns the first
// prompt (a title), the first working directory the CLI recorded and the
// times of the first and last entries.
func Convert(sessID string, s State, start time.Time, t *importer.Tally) (msgs []store.Message, firstPrompt, cwd string, first, last time.Time) {
	tools := map[string]string{}
	at := start
	for i, e := range s.History {
		t.Line = i + 1
		if e.Meta != nil && e.Meta.Start > 0 {
			at = time.UnixMilli(e.Meta.Start).UTC()
		}
		if e.User != nil {
			if ts := textutil.ParseTime(e.User.Timestamp); !ts.IsZero() {
				at = ts
			}
			if cwd == "" && e.User.EnvContext.EnvState != nil {
				cwd = e.User.EnvContext.EnvState.Cwd
			}
			for kind, raw := range e.User.Content {
				var body struct {
					Prompt  *string      `json:"prompt"`
					Results []toolResult `json:"tool_use_results"`
				}
				if err := json.Unmarshal(raw, &body); err != nil {
					t.Malformed("history entry %d: user content %s: %s", i, kind, importer.DecodeProblem(err))
					continue
				}
				for j, r := range body.Results {
					row := store.Message{SessionID: sessID, Role: "tool", Content: resultText(r.Content), ToolCallID: r.ID, ToolName: tools[r.ID],
						Timestamp: at, SourceKey: fmt.Sprintf("%d#result%d", i, j)}
					if strings.EqualFold(r.Status, "error") {
						row.FinishReason = "error"
					}
					if kind == "CancelledToolUses" {
						row.Content, row.FinishReason = textutil.Join("\n", "cancelled", row.Content), "error"
					}
					msgs = append(msgs, row)
				}
				if body.Prompt != nil && strings.TrimSpace(*body.Prompt) != "" {
					if firstPrompt == "" {
						firstPrompt = *body.Prompt
					}
					msgs = append(msgs, store.Message{SessionID: sessID, Role: "user", Content: *body.Prompt, Timestamp: at, SourceKey: fmt.Sprintf("%d#user", i)})
				}
			}
			if first.IsZero() {
				first = at
			}
		}
		for kind, raw := range e.Assistant {
			var a assistantBody
			if err := json.Unmarshal(raw, &a); err != nil {
				t.Malformed("history entry %d: assistant %s: %s", i, kind, importer.DecodeProblem(err))
				continue
			}
			var calls []textutil.ToolCall
			for _, u := range a.ToolUses {
				calls = append(calls, textutil.NewToolCall(u.ID, u.Name, u.Args))
				tools[u.ID] = u.Name
			}
			ts := at
			if e.Meta != nil && e.Meta.End > 0 {
				ts = time.UnixMilli(e.Meta.End).UTC()
			}
			if a.Content == "" && len(calls) == 0 {
				t.Skip()
				continue
			}
			msgs = append(msgs, store.Message{SessionID: sessID, Role: "assistant", Content: a.Content, ToolCalls: textutil.ToolCallsJSON(calls),
				Timestamp: ts, SourceKey: fmt.Sprintf("%d#assistant", i)})
			last = ts
		}
		if !at.IsZero() && at.After(last) {
			last = at
		}
	}
	if len(s.LatestSummary) > 0 {
		var sum string
		if json.Unmarshal(s.LatestSummary[0], &sum) == nil && strings.TrimSpace(sum) != "" {
			msgs = append(msgs, store.Message{SessionID: sessID, Role: "user", Content: sum, DisplayKind: store.DisplayKindCompaction,
				Timestamp: last, SourceKey: "summary"})
		}
	}
	return msgs, firstPrompt, cwd, first, last
}

// resultText joins a tool result's blocks: {"Text": "..."} as it is,
// {"Json": value} as JSON text.
func resultText(blocks []map[string]json.RawMessage) string {
	var out []string
	for _, b := range blocks {
		for kind, raw := range b {
			if kind == "Text" {
				var s string
				if json.Unmarshal(raw, &s) == nil {
					out = append(out, s)
					continue
				}
			}
			out = append(out, textutil.ArgsText(raw))
		}
	}
	return strings.Join(out, "\n")
}
