package copilot

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// event is one line of events.jsonl.
type event struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	AgentID   string          `json:"agentId"`
}

// data is the union of the event payloads recall reads.
type data struct {
	SessionID     string `json:"sessionId"`
	SelectedModel string `json:"selectedModel"`
	NewModel      string `json:"newModel"`
	Context       *struct {
		Cwd    string `json:"cwd"`
		Branch string `json:"branch"`
	} `json:"context"`
	Cwd    string `json:"cwd"`
	Branch string `json:"branch"`
	// user.message, system.notification, assistant.message
	Content         string `json:"content"`
	Source          string `json:"source"`
	Autopilot       bool   `json:"isAutopilotContinuation"`
	Model           string `json:"model"`
	ReasoningText   string `json:"reasoningText"`
	OutputTokens    int64  `json:"outputTokens"`
	ToolRequests    []toolRequest
	ToolCallID      string `json:"toolCallId"`
	ToolName        string `json:"toolName"`
	Success         *bool  `json:"success"`
	Result          *result
	Error           *struct{ Message string }
	Usage           *usage `json:"usage"`
	AgentName       string `json:"agentName"`
	AgentDisplay    string `json:"agentDisplayName"`
	AgentDesc       string `json:"agentDescription"`
	SummaryContent  string `json:"summaryContent"`
	Title           string `json:"title"`
	ParentSessionID string `json:"detachedFromSpawningParentSessionId"`
}

type toolRequest struct {
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
}

type result struct {
	Content         string `json:"content"`
	DetailedContent string `json:"detailedContent"`
}

type usage struct {
	Model       string `json:"model"`
	InputTokens int64  `json:"inputTokens"`
	Output      int64  `json:"outputTokens"`
	CacheRead   int64  `json:"cacheReadTokens"`
	CacheWrite  int64  `json:"cacheWriteTokens"`
}

// sessMeta is what recall keeps of one session (the file's, or a
// sub-agent's) between imports.
type sessMeta struct {
	Title      string `json:"title,omitempty"`
	Model      string `json:"model,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	Branch     string `json:"branch,omitempty"`
	Parent     string `json:"parent,omitempty"`
	First      string `json:"first,omitempty"`
	Last       string `json:"last,omitempty"`
	In         int64  `json:"in,omitempty"`
	Out        int64  `json:"out,omitempty"`
	CacheRead  int64  `json:"cr,omitempty"`
	CacheWrite int64  `json:"cw,omitempty"`
}

// state is saved with the cursor so a grown file continues.
type state struct {
	SessionID string               `json:"sid"`
	Main      sessMeta             `json:"main"`
	Agents    map[string]*sessMeta `json:"agents,omitempty"`
	Tools     map[string]string    `json:"tools,omitempty"` // call id -> tool name, until the call completes
}

type parser struct {
	file string
	ws   workspace
	st   state
	msgs []store.Message
}

func newParser(file string, ws workspace) *parser {
	sid := ws.ID
	if sid == "" {
		sid = filepath.Base(filepath.Dir(file)) // session-state/<sessionId>/events.jsonl
	}
	return &parser{file: file, ws: ws, st: state{SessionID: sid}}
}

// Restore loads the state saved at the cursor.
func (p *parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, &p.st)
}

// ChildID is the session id of a sub-agent run inside session parent.
func ChildID(parent, agent string) string { return parent + "-agent-" + agent }

// meta is the session an event belongs to, created for a new agent.
func (p *parser) meta(agent string) (string, *sessMeta) {
	if agent == "" {
		return p.st.SessionID, &p.st.Main
	}
	if p.st.Agents == nil {
		p.st.Agents = map[string]*sessMeta{}
	}
	m := p.st.Agents[agent]
	if m == nil {
		m = &sessMeta{Cwd: p.st.Main.Cwd, Model: p.st.Main.Model}
		p.st.Agents[agent] = m
	}
	return ChildID(p.st.SessionID, agent), m
}

// Line reads one event.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var ev event
	if err := json.Unmarshal(text, &ev); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if ev.Type == "" {
		t.Malformed("%s", importer.MissingField("event", "type", text))
		return nil
	}
	var d data
	if len(ev.Data) > 0 && ev.Data[0] == '{' {
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Malformed("bad %s data: %s", ev.Type, importer.DecodeProblem(err))
			return nil
		}
	}
	sid, m := p.meta(ev.AgentID)
	if ev.Timestamp != "" {
		if m.First == "" {
			m.First = ev.Timestamp
		}
		m.Last = ev.Timestamp
	}
	ts := textutil.ParseTime(ev.Timestamp)
	key := "copilot:" + ev.ID
	switch ev.Type {
	case "session.start", "session.resume":
		if ev.Type == "session.start" && d.SessionID != "" && len(p.msgs) == 0 {
			p.st.SessionID = d.SessionID
		}
		if d.SelectedModel != "" {
			m.Model = d.SelectedModel
		}
		if c := d.Context; c != nil {
			m.Cwd, m.Branch = firstOf(c.Cwd, m.Cwd), firstOf(c.Branch, m.Branch)
		}
		if d.ParentSessionID != "" {
			m.Parent = d.ParentSessionID
		}
	case "session.context_changed":
		m.Cwd, m.Branch = firstOf(d.Cwd, m.Cwd), firstOf(d.Branch, m.Branch)
	case "session.model_change":
		m.Model = firstOf(d.NewModel, m.Model)
	case "session.title_changed":
		m.Title = textutil.Title(d.Title)
	case "subagent.started":
		m.Title = textutil.Title(firstOf(d.AgentDesc, d.AgentDisplay, d.AgentName))
		m.Model = firstOf(d.Model, m.Model)
	case "session.usage_record":
		if u := d.Usage; u != nil {
			m.In += u.InputTokens
			m.Out += u.Output
			m.CacheRead += u.CacheRead
			m.CacheWrite += u.CacheWrite
		}
	case "user.message":
		kind := ""
		if ev.AgentID != "" || d.Source != "" || d.Autopilot {
			// A parent agent's prompt to a sub-agent (source agent-<id>), a
			// skill's hidden injection (skill-<name>), an autopilot
			// continuation: Copilot wrote these, not the person.
			kind = store.DisplayKindAgent
		}
		p.add(store.Message{SessionID: sid, Role: "user", Content: d.Content, Timestamp: ts, SourceKey: key, DisplayKind: kind})
	case "system.notification":
		p.add(store.Message{SessionID: sid, Role: "user", Content: d.Content, Timestamp: ts, SourceKey: key, DisplayKind: store.DisplayKindAgent})
	case "session.compaction_complete":
		p.add(store.Message{SessionID: sid, Role: "user", Content: d.SummaryContent, Timestamp: ts, SourceKey: key, DisplayKind: store.DisplayKindCompaction})
	case "assistant.message":
		m.Model = firstOf(d.Model, m.Model)
		var calls []textutil.ToolCall
		for _, tr := range d.ToolRequests {
			calls = append(calls, textutil.NewToolCall(tr.ToolCallID, tr.Name, tr.Arguments))
			if p.st.Tools == nil {
				p.st.Tools = map[string]string{}
			}
			p.st.Tools[tr.ToolCallID] = tr.Name
		}
		msg := store.Message{SessionID: sid, Role: "assistant", Content: d.Content, Reasoning: d.ReasoningText,
			ToolCalls: textutil.ToolCallsJSON(calls), TokenCount: int(d.OutputTokens), Timestamp: ts, SourceKey: key}
		if strings.TrimSpace(msg.Content) != "" || msg.ToolCalls != "" || strings.TrimSpace(msg.Reasoning) != "" {
			p.msgs = append(p.msgs, msg)
		}
	case "tool.execution_start":
		if d.ToolCallID != "" && d.ToolName != "" {
			if p.st.Tools == nil {
				p.st.Tools = map[string]string{}
			}
			p.st.Tools[d.ToolCallID] = d.ToolName
		}
	case "tool.execution_complete":
		msg := store.Message{SessionID: sid, Role: "tool", ToolCallID: d.ToolCallID, ToolName: p.st.Tools[d.ToolCallID], Timestamp: ts, SourceKey: key}
		delete(p.st.Tools, d.ToolCallID)
		if r := d.Result; r != nil {
			msg.Content = firstOf(r.Content, r.DetailedContent)
		}
		if d.Success != nil && !*d.Success {
			msg.FinishReason = "error"
			if d.Error != nil && msg.Content == "" {
				msg.Content = d.Error.Message
			}
		}
		p.msgs = append(p.msgs, msg)
	default:
		t.Skip(ev.Type) // turn bookkeeping, the system prompt, usage telemetry, hooks, permissions, ...
	}
	return nil
}

// add keeps a user-side message that has text.
func (p *parser) add(m store.Message) {
	if strings.TrimSpace(m.Content) != "" {
		p.msgs = append(p.msgs, m)
	}
}

// Result is the file's session and its sub-agents' with their full current
// metadata, and the new messages.
func (p *parser) Result() importer.Result {
	main := p.session(p.st.SessionID, &p.st.Main)
	if main.Title == "" {
		main.Title = textutil.Title(p.ws.Name)
	}
	if main.Cwd == "" {
		main.Cwd = p.ws.Cwd
	}
	sessions := []store.Session{main}
	agents := make([]string, 0, len(p.st.Agents))
	for a := range p.st.Agents {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		s := p.session(ChildID(p.st.SessionID, a), p.st.Agents[a])
		s.ParentID = p.st.SessionID
		raw, _ := json.Marshal(map[string]string{"_delegate_from": p.st.SessionID})
		s.ModelConfig = string(raw)
		sessions = append(sessions, s)
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: sessions, Overwrite: true, Messages: msgs, State: &p.st}
}

func (p *parser) session(id string, m *sessMeta) store.Session {
	return store.Session{
		ID: id, Source: SourceName, Model: m.Model, Title: m.Title, ParentID: m.Parent,
		StartedAt: textutil.ParseTime(m.First), EndedAt: textutil.ParseTime(m.Last),
		InputTokens: m.In, OutputTokens: m.Out, CacheReadTokens: m.CacheRead, CacheWriteTokens: m.CacheWrite,
		Cwd: m.Cwd, GitBranch: m.Branch,
	}
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
