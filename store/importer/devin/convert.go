package devin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// chatMessage is a node's chat_message: {role: system|user|assistant|tool,
// content, thinking {thinking, signature}, tool_calls [{id, name,
// arguments, index}], tool_call_id, metadata {is_user_input, request_id,
// finish_reason, created_at, generation_model, metrics {input_tokens,
// output_tokens, cache_read_tokens, cache_creation_tokens}}}.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Thinking   json.RawMessage `json:"thinking"`
	ToolCalls  []toolCall      `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Metadata   struct {
		IsUserInput  *bool  `json:"is_user_input"`
		FinishReason string `json:"finish_reason"`
		CreatedAt    string `json:"created_at"`
		Model        string `json:"generation_model"`
		Metrics      *struct {
			Input      int64 `json:"input_tokens"` // without the cache reads
			Output     int64 `json:"output_tokens"`
			CacheRead  int64 `json:"cache_read_tokens"`
			CacheWrite int64 `json:"cache_creation_tokens"`
		} `json:"metrics"`
	} `json:"metadata"`
}

type toolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Function  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// exitLine is how a shell tool's output ends: "Exit code: N".
var exitLine = regexp.MustCompile(`(?i)\bExit code:\s*(-?\d+)`)

// thinkingText reads a reply's thinking: {thinking, signature} or a string.
func thinkingText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var th struct {
		Thinking string `json:"thinking"`
	}
	_ = json.Unmarshal(raw, &th)
	return th.Thinking
}

// convert builds the session from its live chain.
func convert(s sessionRow, walk []nodeRow, t *importer.Tally) (export.Conversation, bool) {
	sess := store.Session{ID: s.id, Source: SourceName, Cwd: s.cwd, Model: s.model, Archived: s.hidden}
	var msgs []store.Message
	names := map[string]string{}
	var clock time.Time
	if s.created > 0 {
		clock = time.Unix(s.created, 0).UTC()
	}
	for i, n := range walk {
		t.Line = i + 1
		var m chatMessage
		if err := json.Unmarshal(n.raw, &m); err != nil {
			t.Malformed("node %d: %s", n.id, importer.DecodeProblem(err))
			continue
		}
		switch {
		case textutil.ParseTime(m.Metadata.CreatedAt).After(time.Time{}):
			clock = textutil.ParseTime(m.Metadata.CreatedAt).UTC()
		case n.created > 0:
			clock = time.Unix(n.created, 0).UTC()
		}
		row := store.Message{SessionID: s.id, Timestamp: clock, SourceKey: fmt.Sprintf("devin:%s:%d", s.id, n.id)}
		text := strings.TrimSpace(textutil.FlattenParts(m.Content))
		if string(m.Content) == "null" {
			text = ""
		}
		switch m.Role {
		case "user":
			if text == "" {
				t.Skip()
				continue
			}
			row.Role, row.Content = "user", text
			if m.Metadata.IsUserInput != nil && !*m.Metadata.IsUserInput {
				row.DisplayKind = store.DisplayKindAgent // text the CLI threads back to the model
			}
		case "assistant", "agent":
			var calls []textutil.ToolCall
			for _, c := range m.ToolCalls {
				name, args := c.Name, c.Arguments
				if c.Function != nil {
					name, args = c.Function.Name, c.Function.Arguments
				}
				var str string
				if json.Unmarshal(args, &str) == nil && json.Valid([]byte(str)) {
					args = json.RawMessage(str) // arguments as JSON text
				}
				if len(args) == 0 {
					args = json.RawMessage(`{}`)
				}
				calls = append(calls, textutil.NewToolCall(c.ID, name, args))
				names[c.ID] = name
			}
			row.Role, row.Content, row.Reasoning, row.ToolCalls = "assistant", text, strings.TrimSpace(thinkingText(m.Thinking)), textutil.ToolCallsJSON(calls)
			if m.Metadata.FinishReason == "error" {
				row.FinishReason = "error"
			}
			if mt := m.Metadata.Metrics; mt != nil {
				sess.InputTokens += mt.Input
				sess.OutputTokens += mt.Output
				sess.CacheReadTokens += mt.CacheRead
				sess.CacheWriteTokens += mt.CacheWrite
				row.TokenCount = int(mt.Output)
			}
			if m.Metadata.Model != "" && sess.Model == "" {
				sess.Model = m.Metadata.Model
			}
			if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
				t.Skip()
				continue
			}
		case "tool":
			row.Role, row.Content, row.ToolCallID, row.ToolName = "tool", text, m.ToolCallID, names[m.ToolCallID]
			if f := exitLine.FindStringSubmatch(text); f != nil {
				if code, err := strconv.Atoi(f[1]); err == nil && code != 0 {
					row.FinishReason = "error"
				}
			}
		default:
			// system: the prompt context the CLI rebuilds every turn
			t.Skip()
			continue
		}
		msgs = append(msgs, row)
	}
	if len(msgs) == 0 {
		t.Skip()
		return export.Conversation{}, false
	}
	sess.StartedAt, sess.EndedAt = msgs[0].Timestamp, msgs[len(msgs)-1].Timestamp
	if s.created > 0 {
		sess.StartedAt = time.Unix(s.created, 0).UTC()
	}
	if last := time.Unix(s.last, 0).UTC(); s.last > 0 && last.After(sess.EndedAt) {
		sess.EndedAt = last
	}
	sess.Title = textutil.Title(s.title)
	if sess.Title == "" {
		sess.Title = textutil.PromptTitle(msgs)
	}
	return export.Conversation{Session: sess, Messages: msgs}, true
}
