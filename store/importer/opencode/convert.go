package opencode

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// info is a message record (the message table's data, or a storage/message
// file) without its parts.
type info struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionID"`
	Role       string `json:"role"`
	ParentID   string `json:"parentID"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
	Model      struct {
		ProviderID string `json:"providerID"`
		ModelID    string `json:"modelID"`
	} `json:"model"`
	Agent string `json:"agent"`
	Time  struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
	Tokens *tokens `json:"tokens"`
	Cost   float64 `json:"cost"`
	Finish string  `json:"finish"`
	Path   struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Summary json.RawMessage `json:"summary"`
	Error   *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

type tokens struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

// part is one part record.
type part struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Ignored   bool   `json:"ignored"`
	Tool      string `json:"tool"`
	CallID    string `json:"callID"`
	State     struct {
		Status string          `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
		Error  string          `json:"error"`
		Title  string          `json:"title"`
	} `json:"state"`
	Filename string `json:"filename"`
	URL      string `json:"url"`
	Mime     string `json:"mime"`
	// subtask parts (a /command run as a sub-agent)
	Prompt      string `json:"prompt"`
	Description string `json:"description"`
	Agent       string `json:"agent"`
	Name        string `json:"name"`
}

// message is a message record with its parts, in order.
type message struct {
	info  info
	parts []part
}

// convert turns one OpenCode message into recall messages: a user message
// (its typed text; text OpenCode added itself, marked), or an assistant
// message with its text, reasoning and tool calls followed by one tool
// message per call with its output or error. skipped counts the parts
// that carry nothing to search (step markers, snapshots, patches).
func convert(session string, m message, prefix string) (out []store.Message, skipped int) {
	ts := msTime(m.info.Time.Created)
	key := prefix + m.info.ID
	switch m.info.Role {
	case "user":
		var typed []string
		for _, p := range m.parts {
			switch p.Type {
			case "text":
				if p.Ignored || strings.TrimSpace(p.Text) == "" {
					skipped++
					continue
				}
				if p.Synthetic {
					// Text OpenCode wrote into the person's turn (a file's
					// contents read for an @mention, a mode switch notice).
					out = append(out, store.Message{SessionID: session, Role: "user", Content: p.Text, Timestamp: ts,
						SourceKey: prefix + p.ID, DisplayKind: store.DisplayKindAgent})
					continue
				}
				typed = append(typed, p.Text)
			case "file":
				typed = append(typed, "[file: "+textutil.Join(" ", p.Filename, p.Mime)+"]")
			case "agent":
				typed = append(typed, "@"+p.Name)
			case "subtask":
				out = append(out, store.Message{SessionID: session, Role: "user",
					Content: textutil.Join("\n", "/"+p.Agent+" "+p.Description, p.Prompt), Timestamp: ts,
					SourceKey: prefix + p.ID, DisplayKind: store.DisplayKindCommand})
			case "compaction":
				out = append(out, store.Message{SessionID: session, Role: "user", Content: "[compaction]", Timestamp: ts,
					SourceKey: prefix + p.ID, DisplayKind: store.DisplayKindCompaction})
			default:
				skipped++
			}
		}
		if len(typed) > 0 {
			u := store.Message{SessionID: session, Role: "user", Content: strings.Join(typed, "\n\n"), Timestamp: ts, SourceKey: key}
			out = append([]store.Message{u}, out...)
		}
	case "assistant":
		a := store.Message{SessionID: session, Role: "assistant", Timestamp: ts, SourceKey: key,
			FinishReason: m.info.Finish}
		if m.info.Tokens != nil {
			a.TokenCount = int(m.info.Tokens.Output)
		}
		var text, reasoning []string
		var calls []textutil.ToolCall
		var results []store.Message
		for _, p := range m.parts {
			switch p.Type {
			case "text":
				if strings.TrimSpace(p.Text) != "" {
					text = append(text, p.Text)
				}
			case "reasoning":
				if strings.TrimSpace(p.Text) != "" {
					reasoning = append(reasoning, p.Text)
				}
			case "tool":
				calls = append(calls, textutil.NewToolCall(p.CallID, p.Tool, p.State.Input))
				r := store.Message{SessionID: session, Role: "tool", ToolCallID: p.CallID, ToolName: p.Tool,
					Timestamp: ts, SourceKey: prefix + p.ID}
				switch p.State.Status {
				case "completed":
					r.Content = p.State.Output
				case "error":
					r.Content = "Error: " + p.State.Error
				default: // pending or running when OpenCode stopped
					r.Content = "[" + p.State.Status + "]"
				}
				results = append(results, r)
			case "file":
				text = append(text, "[file: "+textutil.Join(" ", p.Filename, p.Mime)+"]")
			default:
				skipped++
			}
		}
		if m.info.Error != nil && len(text) == 0 && len(calls) == 0 {
			// A turn that failed (provider error, aborted) shows why.
			text = append(text, fmt.Sprintf("[%s] %s", m.info.Error.Name, m.info.Error.Data.Message))
		}
		a.Content = strings.Join(text, "\n\n")
		a.Reasoning = strings.Join(reasoning, "\n\n")
		a.ToolCalls = textutil.ToolCallsJSON(calls)
		if a.Content == "" && a.Reasoning == "" && a.ToolCalls == "" {
			return out, skipped + 1
		}
		out = append(out, a)
		out = append(out, results...)
	default:
		skipped++
	}
	return out, skipped
}

func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// cleanTitle drops the placeholder titles OpenCode gives a session before
// its title is generated ("New session - <date>", "Child session - <date>").
func cleanTitle(t string) string {
	if strings.HasPrefix(t, "New session - ") || strings.HasPrefix(t, "Child session - ") {
		return ""
	}
	return textutil.Title(t)
}

// modelName reads the session's model column ({"id","providerID"}) or
// falls back to the last assistant message's.
func modelName(raw string, msgs []message) string {
	var m struct {
		ID         string `json:"id"`
		ProviderID string `json:"providerID"`
	}
	if raw != "" && json.Unmarshal([]byte(raw), &m) == nil && m.ID != "" {
		return m.ID
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if id := msgs[i].info.ModelID; id != "" {
			return id
		}
		if id := msgs[i].info.Model.ModelID; id != "" {
			return id
		}
	}
	return ""
}
