package grokbuild

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// envelope is one line of updates.jsonl (SessionUpdateEnvelope).
type envelope struct {
	Timestamp int64  `json:"timestamp"`
	Method    string `json:"method"`
	Params    *struct {
		Update json.RawMessage `json:"update"`
	} `json:"params"`
}

// update is the union of the ACP and xAI session updates recall reads.
type update struct {
	Kind    string          `json:"sessionUpdate"`
	Content json.RawMessage `json:"content"`
	Meta    *struct {
		HostTurn bool `json:"hostTurn"`
	} `json:"_meta"`
	// tool_call, tool_call_update
	ToolCallID string          `json:"toolCallId"`
	Title      string          `json:"title"`
	Status     string          `json:"status"`
	RawInput   json.RawMessage `json:"rawInput"`
	RawOutput  json.RawMessage `json:"rawOutput"`
	// turn_completed
	StopReason string `json:"stop_reason"`
	Usage      *struct {
		Input     int64 `json:"inputTokens"`
		Output    int64 `json:"outputTokens"`
		CacheRead int64 `json:"cachedReadTokens"`
		CacheNew  int64 `json:"cacheCreationTokens"`
		Reasoning int64 `json:"reasoningTokens"`
	} `json:"usage"`
}

// pending is a message being joined from chunks.
type pending struct {
	Role  string              `json:"r"`
	Key   string              `json:"k"`
	Time  int64               `json:"t"`
	Text  string              `json:"x,omitempty"`
	Think string              `json:"h,omitempty"`
	Calls []textutil.ToolCall `json:"c,omitempty"`
	Host  bool                `json:"o,omitempty"`
	// Written is set when an import stopped with the message still open
	// and stored it as it was: more of it makes the file be read again.
	Written bool `json:"w,omitempty"`
}

// saved is what an import keeps for the next one.
type saved struct {
	Open  *pending          `json:"p,omitempty"`
	Tools map[string]string `json:"t,omitempty"` // call id -> name
	Done  map[string]bool   `json:"d,omitempty"` // results written
	In    int64             `json:"i,omitempty"`
	Out   int64             `json:"o,omitempty"`
	CR    int64             `json:"cr,omitempty"`
	CW    int64             `json:"cw,omitempty"`
	RT    int64             `json:"rt,omitempty"`
	Rows  int               `json:"n,omitempty"` // messages written so far
}

type parser struct {
	sess store.Session
	st   saved
	msgs []store.Message
}

// Restore loads the saved state.
func (p *parser) Restore(raw json.RawMessage) error {
	if err := json.Unmarshal(raw, &p.st); err != nil {
		return err
	}
	if p.st.Tools == nil {
		p.st.Tools = map[string]string{}
	}
	return nil
}

// Line reads one envelope.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var e envelope
	if err := json.Unmarshal(text, &e); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	raw := text // a legacy line is the bare update
	if e.Params != nil && e.Params.Update != nil {
		raw = e.Params.Update
	}
	var u update
	if err := json.Unmarshal(raw, &u); err != nil || u.Kind == "" {
		t.Malformed("%s", importer.MissingField("session update", "sessionUpdate", raw))
		return nil
	}
	key := "L" + strconv.Itoa(t.Line)
	switch u.Kind {
	case "user_message_chunk":
		host := u.Meta != nil && u.Meta.HostTurn
		if o := p.st.Open; o == nil || o.Role != "user" || o.Host != host {
			p.flush()
			p.st.Open = &pending{Role: "user", Key: key, Time: e.Timestamp, Host: host}
		} else if o.Written {
			return importer.ErrRestart
		}
		p.st.Open.Text += chunkText(u.Content)
	case "agent_message_chunk", "agent_thought_chunk":
		o := p.agent(key, e.Timestamp)
		if o.Written {
			return importer.ErrRestart
		}
		if u.Kind == "agent_message_chunk" {
			o.Text += chunkText(u.Content)
		} else {
			o.Think += chunkText(u.Content)
		}
	case "tool_call":
		o := p.agent(key, e.Timestamp)
		if o.Written {
			return importer.ErrRestart
		}
		o.Calls = append(o.Calls, textutil.NewToolCall(u.ToolCallID, u.Title, u.RawInput))
		p.st.Tools[u.ToolCallID] = u.Title
	case "tool_call_update":
		if u.Status != "completed" && u.Status != "failed" {
			t.Skip() // progress
			return nil
		}
		if p.st.Done[u.ToolCallID] {
			t.Skip()
			return nil
		}
		p.flush()
		if p.st.Done == nil {
			p.st.Done = map[string]bool{}
		}
		p.st.Done[u.ToolCallID] = true
		row := store.Message{SessionID: p.sess.ID, Role: "tool", Content: toolText(u), ToolCallID: u.ToolCallID,
			ToolName: p.st.Tools[u.ToolCallID], Timestamp: unix(e.Timestamp), SourceKey: u.ToolCallID + "#result"}
		if u.Status == "failed" {
			row.FinishReason = "error"
		}
		p.st.Rows++
		p.msgs = append(p.msgs, row)
	case "turn_completed":
		if p.st.Open != nil && p.st.Open.Role == "assistant" && u.StopReason != "" {
			p.flushWith(u.StopReason)
		} else {
			p.flush()
		}
		if u.Usage != nil {
			p.st.In += u.Usage.Input
			p.st.Out += u.Usage.Output
			p.st.CR += u.Usage.CacheRead
			p.st.CW += u.Usage.CacheNew
			p.st.RT += u.Usage.Reasoning
		}
		t.Skip()
	case "compaction_checkpoint", "rewind_marker":
		// A boundary: what came before stays imported (it was said).
		p.flush()
		t.Skip()
	default:
		t.Skip() // plan, task and sub-agent progress, diff review, retries, ...
	}
	return nil
}

// agent is the open assistant message, begun if the open one is not.
func (p *parser) agent(key string, ts int64) *pending {
	if o := p.st.Open; o == nil || o.Role != "assistant" {
		p.flush()
		p.st.Open = &pending{Role: "assistant", Key: key, Time: ts}
	}
	return p.st.Open
}

func (p *parser) flush() { p.flushWith("") }

// flushWith writes the open message.
func (p *parser) flushWith(finish string) {
	o := p.st.Open
	if o == nil {
		return
	}
	p.st.Open = nil
	if o.Written {
		return // stored by the last import, whole as it turned out
	}
	row := store.Message{SessionID: p.sess.ID, Role: o.Role, Content: o.Text, Timestamp: unix(o.Time), SourceKey: o.Key}
	if o.Role == "assistant" {
		row.Reasoning, row.ToolCalls, row.FinishReason = o.Think, textutil.ToolCallsJSON(o.Calls), finish
	} else if o.Host || p.sess.ModelConfig != "" && p.st.Rows == 0 {
		// Grok's own turn (a reminder, a notification), or a sub-agent's task.
		row.DisplayKind = store.DisplayKindAgent
	}
	if strings.TrimSpace(row.Content) == "" && row.Reasoning == "" && row.ToolCalls == "" {
		return
	}
	p.st.Rows++
	p.msgs = append(p.msgs, row)
}

// chunkText is a ContentBlock's text; an image is "[image]".
func chunkText(raw json.RawMessage) string {
	var b struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	if b.Type == "image" {
		return "[image]"
	}
	return b.Text
}

// toolText is a completed tool call's text content, else its raw output
// (extract_tool_result_text).
func toolText(u update) string {
	var parts []struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	var texts []string
	if json.Unmarshal(u.Content, &parts) == nil {
		for _, c := range parts {
			if c.Type == "content" {
				if s := chunkText(c.Content); s != "" && s != "[image]" {
					texts = append(texts, s)
				}
			}
		}
	}
	if len(texts) > 0 {
		return strings.Join(texts, "")
	}
	if len(u.RawOutput) > 0 && string(u.RawOutput) != "null" {
		return textutil.FlattenParts(u.RawOutput)
	}
	return ""
}

func unix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

// Result is the session with its summary and the new messages.
func (p *parser) Result() importer.Result {
	s := p.sess
	s.InputTokens, s.OutputTokens, s.CacheReadTokens, s.CacheWriteTokens, s.ReasoningTokens = p.st.In, p.st.Out, p.st.CR, p.st.CW, p.st.RT
	if o := p.st.Open; o != nil && !o.Written {
		// The file ends inside a message (Grok still writing, or stopped):
		// store it now; more of it later reads the file again.
		p.flush()
		o.Written = true
		p.st.Open = o
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}
