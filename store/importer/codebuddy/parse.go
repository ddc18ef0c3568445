package codebuddy

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/claude"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// record is one line: an item of the agent runner or a history record.
type record struct {
	ID           string          `json:"id"`
	Timestamp    int64           `json:"timestamp"` // Unix ms
	Type         string          `json:"type"`
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	RawContent   json.RawMessage `json:"rawContent"`
	ProviderData *providerData   `json:"providerData"`
	SessionID    string          `json:"sessionId"`
	Cwd          string          `json:"cwd"`
	CallID       string          `json:"callId"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments"`
	Output       json.RawMessage `json:"output"`
	Status       string          `json:"status"`
	AITitle      string          `json:"aiTitle"`
	CustomTitle  string          `json:"customTitle"`
	Summary      string          `json:"summary"`
}

// providerData is what CodeBuddy keeps beside an item.
type providerData struct {
	SkipRun bool   `json:"skipRun"` // a record kept for the history, not sent (local command echoes)
	Model   string `json:"model"`
	Usage   *struct {
		InputTokens        int64 `json:"inputTokens"`
		OutputTokens       int64 `json:"outputTokens"`
		InputTokensDetails []struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"inputTokensDetails"`
		OutputTokensDetails []struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"outputTokensDetails"`
	} `json:"usage"`
	ToolResult *struct {
		Error       string `json:"error"`
		RawResponse *struct {
			IsError bool `json:"is_error"`
		} `json:"rawResponse"`
	} `json:"toolResult"`
}

// state is saved with the cursor so a grown transcript continues.
type state struct {
	Session   store.Session     `json:"s"`
	Custom    string            `json:"custom,omitempty"` // custom-title (/rename)
	AI        string            `json:"ai,omitempty"`     // ai-title
	Summary   string            `json:"sum,omitempty"`    // summary
	Reasoning string            `json:"r,omitempty"`      // waits for the reply it belongs to
	Tools     map[string]string `json:"tools,omitempty"`  // callId -> tool name
	Prompts   int               `json:"p,omitempty"`      // user prompts so far
}

type parser struct {
	file   string
	parent string // the session of a sub-agent's transcript
	agent  string // the sub-agent's id
	st     state
	msgs   []store.Message
	last   int // index in msgs of the last assistant row, -1 when none this pass
	lastID string
}

func newParser(file string) *parser {
	p := &parser{file: file, last: -1, st: state{Tools: map[string]string{}}}
	if parent := subagentOf(file); parent != "" {
		p.parent = parent
		p.agent = strings.TrimPrefix(strings.TrimSuffix(filepath.Base(file), ".jsonl"), "agent-")
	}
	return p
}

// Restore loads the state saved at the cursor.
func (p *parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, &p.st); err != nil {
		return err
	}
	if p.st.Tools == nil {
		p.st.Tools = map[string]string{}
	}
	return nil
}

// session makes sure the session exists and widens its times to ts.
func (p *parser) session(r *record, ts time.Time) *store.Session {
	s := &p.st.Session
	if s.ID == "" {
		s.Source = SourceName
		switch {
		case p.parent != "":
			s.ID = claude.ChildID(p.parent, p.agent)
			s.ParentID = p.parent
			s.ModelConfig = textutil.DelegatedFrom(p.parent)
		case r.SessionID != "":
			s.ID = r.SessionID
		default:
			s.ID = strings.TrimSuffix(filepath.Base(p.file), ".jsonl")
		}
	}
	if s.Cwd == "" {
		s.Cwd = r.Cwd
	}
	if !ts.IsZero() {
		if s.StartedAt.IsZero() || ts.Before(s.StartedAt) {
			s.StartedAt = ts
		}
		if ts.After(s.EndedAt) {
			s.EndedAt = ts
		}
	}
	return s
}

func (p *parser) key(r *record, t *importer.Tally, sub string) string {
	id := r.ID
	if id == "" {
		id = fmt.Sprintf("line%d", t.Line)
	}
	return "codebuddy:" + id + ":" + r.Type + sub
}

// Line reads one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	var ts time.Time
	if r.Timestamp > 0 {
		ts = time.UnixMilli(r.Timestamp).UTC()
	}
	switch r.Type {
	case "message":
		s := p.session(&r, ts)
		switch r.Role {
		case "user":
			p.user(&r, ts, t)
		case "assistant":
			p.usage(s, &r)
			text := partsText(r.Content)
			if strings.TrimSpace(text) == "" && r.Status != "completed" {
				t.Skip() // a reply still streaming, or empty
				return nil
			}
			p.assistant(&r, ts, t, store.Message{Content: text})
		default:
			t.Skip() // system and developer messages: the agent's instructions
		}
	case "reasoning":
		p.session(&r, ts)
		if th := partsText(r.RawContent); th != "" {
			p.st.Reasoning = textutil.Join("\n\n", p.st.Reasoning, th)
		} else if th := partsText(r.Content); th != "" {
			p.st.Reasoning = textutil.Join("\n\n", p.st.Reasoning, th)
		} else {
			t.Skip() // encrypted
		}
	case "function_call":
		s := p.session(&r, ts)
		p.usage(s, &r)
		p.st.Tools[r.CallID] = r.Name
		args := r.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		call := textutil.NewToolCall(r.CallID, r.Name, args)
		p.assistant(&r, ts, t, store.Message{ToolCalls: textutil.ToolCallsJSON([]textutil.ToolCall{call})})
	case "function_call_result":
		p.session(&r, ts)
		name := r.Name
		if name == "" {
			name = p.st.Tools[r.CallID]
		}
		delete(p.st.Tools, r.CallID)
		m := store.Message{SessionID: p.st.Session.ID, Role: "tool", Content: textutil.FlattenParts(r.Output), ToolCallID: r.CallID, ToolName: name,
			Timestamp: ts, SourceKey: p.key(&r, t, "")}
		if failed(&r) {
			m.FinishReason = "error"
		}
		p.msgs = append(p.msgs, m)
	case "custom-title":
		p.st.Custom = r.CustomTitle
	case "ai-title":
		p.st.AI = r.AITitle
	case "summary":
		p.st.Summary = r.Summary
	default:
		// file-history-snapshot, topic, goal-result, goal-progress,
		// resend-fork-notice, compaction (encrypted), and newer kinds.
		t.Skip()
	}
	return nil
}

// failed reports a tool result that says its tool failed: CodeBuddy writes
// status "completed" and puts the failure in providerData.toolResult.
func failed(r *record) bool {
	if r.Status == "failed" || r.Status == "incomplete" {
		return true
	}
	tr := r.ProviderData
	if tr == nil || tr.ToolResult == nil {
		return false
	}
	return tr.ToolResult.Error != "" || (tr.ToolResult.RawResponse != nil && tr.ToolResult.RawResponse.IsError)
}

// usage adds a model response's tokens (providerData.usage rides on the
// last item of each response) to the session, and names its model.
func (p *parser) usage(s *store.Session, r *record) {
	pd := r.ProviderData
	if pd == nil {
		return
	}
	if pd.Model != "" {
		s.Model = pd.Model
	}
	if u := pd.Usage; u != nil {
		s.InputTokens += u.InputTokens
		s.OutputTokens += u.OutputTokens
		for _, d := range u.InputTokensDetails {
			s.CacheReadTokens += d.CachedTokens
		}
		for _, d := range u.OutputTokensDetails {
			s.ReasoningTokens += d.ReasoningTokens
		}
	}
}

// assistant adds a reply's text or tool call. The text and the calls of
// one model response are items with the same id: a call joins the row of
// the response it came with (when both were read in this pass).
func (p *parser) assistant(r *record, ts time.Time, t *importer.Tally, m store.Message) {
	if pd := r.ProviderData; pd != nil && pd.Usage != nil {
		m.TokenCount = int(pd.Usage.OutputTokens)
	}
	if p.last >= 0 && r.ID != "" && r.ID == p.lastID {
		prev := &p.msgs[p.last]
		prev.Content = textutil.Join("\n\n", prev.Content, m.Content)
		prev.ToolCalls = mergeCalls(prev.ToolCalls, m.ToolCalls)
		prev.TokenCount += m.TokenCount
		return
	}
	m.SessionID, m.Role, m.Timestamp, m.SourceKey = p.st.Session.ID, "assistant", ts, p.key(r, t, "")
	m.Reasoning, p.st.Reasoning = p.st.Reasoning, ""
	p.msgs = append(p.msgs, m)
	p.last, p.lastID = len(p.msgs)-1, r.ID
}

// mergeCalls joins two tool_calls JSON lists.
func mergeCalls(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	var x, y []textutil.ToolCall
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a
	}
	return textutil.ToolCallsJSON(append(x, y...))
}

// user adds what a user message holds: each text part classified by
// Claude Code's rules (a slash command, its output, the local-command
// caveat, interruptions); a <system-reminder> part and what CodeBuddy kept
// without sending it (providerData.skipRun) are its own. In a sub-agent's
// transcript the first prompt is the task the parent gave.
func (p *parser) user(r *record, ts time.Time, t *importer.Tally) {
	p.last = -1
	meta := r.ProviderData != nil && r.ProviderData.SkipRun
	n := 0
	for _, part := range parts(r.Content) {
		text := part.Text
		if strings.Contains(part.Type, "image") {
			text = "[image]"
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		content, kind, keep := claude.Classify(text, meta)
		if !keep {
			t.Skip()
			continue
		}
		if kind == "" && strings.HasPrefix(strings.TrimSpace(text), "<system-reminder>") {
			kind = store.DisplayKindAgent
		}
		if kind == "" {
			if p.parent != "" && p.st.Prompts == 0 {
				kind = store.DisplayKindAgent
			}
			p.st.Prompts++
		}
		n++
		sub := ""
		if n > 1 {
			sub = fmt.Sprintf(":%d", n)
		}
		p.msgs = append(p.msgs, store.Message{SessionID: p.st.Session.ID, Role: "user", Content: content, DisplayKind: kind, Timestamp: ts, SourceKey: p.key(r, t, sub)})
	}
	if n == 0 {
		t.Skip()
	}
}

// part is a content part: input_text, output_text, text, reasoning_text,
// input_image.
type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// parts reads content that is a list of parts or a string.
func parts(raw json.RawMessage) []part {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return []part{{Type: "text", Text: s}}
	}
	var ps []part
	_ = json.Unmarshal(raw, &ps)
	return ps
}

// partsText joins the text parts.
func partsText(raw json.RawMessage) string {
	var out []string
	for _, p := range parts(raw) {
		if strings.TrimSpace(p.Text) != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n\n")
}

// Result is the session and what this pass read.
func (p *parser) Result() importer.Result {
	s := p.st.Session
	if s.ID == "" {
		return importer.Result{State: p.st}
	}
	for _, t := range []string{p.st.Custom, p.st.AI, p.st.Summary} {
		if t != "" {
			s.Title = textutil.Title(t)
			break
		}
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: p.msgs, State: p.st}
}
