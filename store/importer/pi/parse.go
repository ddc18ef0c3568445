package pi

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// entry is one line of a session file.
type entry struct {
	Type          string          `json:"type"`
	ID            string          `json:"id"`
	ParentID      *string         `json:"parentId"`
	Timestamp     string          `json:"timestamp"`
	Version       int             `json:"version"`
	Cwd           string          `json:"cwd"`
	ParentSession string          `json:"parentSession"`
	Message       *agentMessage   `json:"message"`
	ModelID       string          `json:"modelId"`
	Model         string          `json:"model"` // Oh My Pi's model_change: "provider/model"
	Title         string          `json:"title"` // Oh My Pi's title record
	Name          string          `json:"name"`
	Summary       string          `json:"summary"`
	Content       json.RawMessage `json:"content"`
	Display       *bool           `json:"display"`
}

// agentMessage is the union of Pi's message roles.
type agentMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	// Attribution is Oh My Pi's: "user" for what the person typed; any
	// other value is text the agent put into the turn.
	Attribution  string `json:"attribution"`
	Timestamp    int64  `json:"timestamp"`
	Model        string `json:"model"`
	StopReason   string `json:"stopReason"`
	ErrorMessage string `json:"errorMessage"`
	Usage        *struct {
		Input      int64 `json:"input"`
		Output     int64 `json:"output"`
		CacheRead  int64 `json:"cacheRead"`
		CacheWrite int64 `json:"cacheWrite"`
		Cost       struct {
			Total float64 `json:"total"`
		} `json:"cost"`
	} `json:"usage"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	IsError    bool   `json:"isError"`
	Command    string `json:"command"`
	Output     string `json:"output"`
	ExitCode   *int   `json:"exitCode"`
	Display    *bool  `json:"display"`
	Summary    string `json:"summary"`
}

// block is one content block of an assistant message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// state is what the parser keeps between imports of a growing file.
type state struct {
	Session  store.Session   `json:"s"`
	Branches []store.Session `json:"b,omitempty"`
	// Lines are the session ids of the file's lines of descent: [0] is
	// the session, the others its branches.
	Lines []string `json:"l"`
	// Tree maps an entry id to line<<1 | 1 when it already has a child.
	Tree map[string]int `json:"t"`
	// Forked is the header's time in a fork: entries older than it are
	// the origin's, copied.
	Forked time.Time `json:"f,omitempty"`
	// Title is Oh My Pi's title record, which may come before the header.
	Title string `json:"ti,omitempty"`
}

type parser struct {
	source, file string
	st           state
	msgs         []store.Message
}

// parserVersion changes whenever the same lines make different sessions,
// so files an older recall imported are read again.
// 1: forks and branches are marked _branched_from (listed on their own).
const parserVersion = 1

// Version is the parser version saved with the import state
// (importer.Versioned).
func (p *parser) Version() int { return parserVersion }

// branchedFrom is the model_config of a fork or branch of parent: a
// conversation of its own, listed as Pi's /resume lists a fork (as a
// Hermes /branch or a Codex fork), its shared start reached through the
// lineage.
func branchedFrom(parent string) string {
	raw, _ := json.Marshal(map[string]string{"_branched_from": parent})
	return string(raw)
}

func newParser(source, file string) *parser {
	return &parser{source: source, file: file, st: state{Tree: map[string]int{}}}
}

// Restore loads the state saved at the cursor.
func (p *parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, &p.st); err != nil {
		return err
	}
	if p.st.Tree == nil {
		p.st.Tree = map[string]int{}
	}
	return nil
}

func (p *parser) ensureSession(ts time.Time) {
	if p.st.Session.ID != "" {
		return
	}
	p.st.Session = store.Session{ID: textutil.IDFromName(p.file), Source: p.source, StartedAt: ts}
	p.st.Lines = []string{p.st.Session.ID}
}

// Line handles one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var e entry
	if err := json.Unmarshal(text, &e); err != nil {
		t.Malformed("not a JSON record: %v", err)
		return nil
	}
	ts := textutil.ParseTime(e.Timestamp)
	if e.Type == "title" {
		// Oh My Pi's first line, rewritten in place (padded) as the title
		// changes: the file is then read again from the start.
		if t := strings.TrimSpace(e.Title); t != "" {
			p.st.Title = textutil.Title(t)
			p.st.Session.Title = p.st.Title
		}
		t.Skip("metadata records")
		return nil
	}
	if e.Type == "session" {
		if p.st.Session.ID == "" {
			id := e.ID
			if id == "" {
				id = textutil.IDFromName(p.file)
			}
			p.st.Session = store.Session{ID: id, Source: p.source, StartedAt: ts, Cwd: e.Cwd, Title: p.st.Title}
			p.st.Lines = []string{id}
			if e.ParentSession != "" {
				p.st.Session.ParentID = textutil.IDFromName(e.ParentSession)
				p.st.Session.ModelConfig = branchedFrom(p.st.Session.ParentID)
				p.st.Forked = ts
			}
		}
		t.Skip("metadata records")
		return nil
	}
	p.ensureSession(ts)
	line := p.place(e, ts)
	session := p.st.Lines[line]
	if !p.st.Forked.IsZero() && !ts.IsZero() && ts.Before(p.st.Forked) {
		t.Skip("copies from the forked session") // copied from the origin, imported there
		return nil
	}
	key := p.source + ":" + p.st.Session.ID + ":" + e.ID
	if e.ID == "" {
		key = fmt.Sprintf("%s:%s:L%d", p.source, p.st.Session.ID, t.Line)
	}
	switch e.Type {
	case "message":
		if e.Message == nil {
			t.Malformed("message record without a message")
			return nil
		}
		if msgTS := e.Message.Timestamp; ts.IsZero() && msgTS > 0 {
			ts = time.UnixMilli(msgTS)
		}
		p.message(session, key, e.Message, ts, t)
	case "model_change":
		if e.ModelID != "" {
			p.st.Session.Model = e.ModelID
		} else if e.Model != "" {
			p.st.Session.Model = e.Model
		}
		t.Skip("metadata records")
	case "session_info":
		if n := strings.TrimSpace(e.Name); n != "" {
			p.st.Session.Title = textutil.Title(n)
		}
		t.Skip("metadata records")
	case "compaction", "branch_summary":
		p.add(store.Message{SessionID: session, Role: "user", Content: e.Summary, Timestamp: ts, SourceKey: key,
			DisplayKind: store.DisplayKindCompaction}, t)
	case "custom_message":
		kind := store.DisplayKindAgent
		if e.Display != nil && !*e.Display {
			kind = store.DisplayKindHidden
		}
		p.add(store.Message{SessionID: session, Role: "user", Content: textutil.FlattenParts(e.Content), Timestamp: ts,
			SourceKey: key, DisplayKind: kind}, t)
	default: // thinking_level_change, label, custom (extension state) and types to come
		t.Skip(e.Type)
	}
	return nil
}

// place puts an entry in the tree and returns its line of descent: its
// parent's, unless the parent already has a child, in which case the entry
// starts a branch.
func (p *parser) place(e entry, ts time.Time) int {
	parent := ""
	if e.ParentID != nil {
		parent = *e.ParentID
	} else if e.ID == "" {
		return 0 // a version 1 file: one line
	}
	line := 0
	if v, ok := p.st.Tree[parent]; ok || parent == "" {
		if v&1 == 0 {
			line = v >> 1
			p.st.Tree[parent] = v | 1
		} else {
			line = len(p.st.Lines)
			id := p.st.Session.ID + "@" + e.ID
			p.st.Lines = append(p.st.Lines, id)
			p.st.Branches = append(p.st.Branches, store.Session{ID: id, Source: p.source, ParentID: p.st.Lines[v>>1],
				ModelConfig: branchedFrom(p.st.Lines[v>>1]), StartedAt: ts, Cwd: p.st.Session.Cwd})
		}
	}
	if e.ID != "" {
		p.st.Tree[e.ID] = line << 1
	}
	return line
}

func (p *parser) message(session, key string, m *agentMessage, ts time.Time, t *importer.Tally) {
	base := store.Message{SessionID: session, Timestamp: ts, SourceKey: key}
	switch m.Role {
	case "user":
		base.Role, base.Content = "user", textutil.FlattenParts(m.Content)
		if m.Attribution != "" && m.Attribution != "user" {
			base.DisplayKind = store.DisplayKindAgent
		}
		p.add(base, t)
	case "assistant":
		var blocks []block
		if len(m.Content) > 0 && m.Content[0] == '[' {
			if err := json.Unmarshal(m.Content, &blocks); err != nil {
				t.Malformed("assistant content: %v", err)
				return
			}
		} else if s := textutil.FlattenParts(m.Content); s != "" {
			blocks = []block{{Type: "text", Text: s}}
		}
		var text, thinking []string
		var calls []textutil.ToolCall
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) != "" {
					text = append(text, b.Text)
				}
			case "thinking":
				if strings.TrimSpace(b.Thinking) != "" {
					thinking = append(thinking, b.Thinking)
				}
			case "toolCall":
				calls = append(calls, textutil.NewToolCall(b.ID, b.Name, b.Arguments))
			}
		}
		if len(text) == 0 && len(calls) == 0 && m.ErrorMessage != "" {
			text = append(text, "["+m.StopReason+"] "+m.ErrorMessage)
		}
		base.Role, base.Content = "assistant", strings.Join(text, "\n\n")
		base.Reasoning, base.ToolCalls, base.FinishReason = strings.Join(thinking, "\n\n"), textutil.ToolCallsJSON(calls), m.StopReason
		if u := m.Usage; u != nil {
			base.TokenCount = int(u.Output)
			s := &p.st.Session
			s.InputTokens += u.Input
			s.OutputTokens += u.Output
			s.CacheReadTokens += u.CacheRead
			s.CacheWriteTokens += u.CacheWrite
			s.EstimatedCostUSD += u.Cost.Total
		}
		if m.Model != "" {
			p.st.Session.Model = m.Model
		}
		if base.Content == "" && base.Reasoning == "" && base.ToolCalls == "" {
			t.Skip("empty messages") // an empty reply (aborted before any output)
			return
		}
		p.add(base, t)
	case "toolResult":
		base.Role, base.Content, base.ToolCallID, base.ToolName = "tool", textutil.FlattenParts(m.Content), m.ToolCallID, m.ToolName
		if m.IsError && !strings.HasPrefix(base.Content, "Error") {
			base.Content = "Error: " + base.Content
		}
		p.add(base, t)
	case "bashExecution":
		// A shell command the person ran with ! in Pi's editor, and its output.
		base.Role, base.Content, base.DisplayKind = "user", "! "+m.Command, store.DisplayKindCommand
		p.add(base, t)
		if strings.TrimSpace(m.Output) != "" {
			out := base
			out.Content, out.DisplayKind, out.SourceKey = m.Output, store.DisplayKindAgent, key+":out"
			p.add(out, t)
		}
	case "custom", "hookMessage":
		kind := store.DisplayKindAgent
		if m.Display != nil && !*m.Display {
			kind = store.DisplayKindHidden
		}
		base.Role, base.Content, base.DisplayKind = "user", textutil.FlattenParts(m.Content), kind
		p.add(base, t)
	case "branchSummary", "compactionSummary":
		base.Role, base.Content, base.DisplayKind = "user", m.Summary, store.DisplayKindCompaction
		p.add(base, t)
	default:
		t.Skip(m.Role)
	}
}

func (p *parser) add(m store.Message, t *importer.Tally) {
	if strings.TrimSpace(m.Content) == "" && m.ToolCalls == "" && m.Reasoning == "" && m.Role != "tool" {
		t.Skip("empty messages")
		return
	}
	p.msgs = append(p.msgs, m)
}

// Result returns the session and its branches with their current metadata
// and the new messages.
func (p *parser) Result() importer.Result {
	var sessions []store.Session
	if p.st.Session.ID != "" {
		sessions = append(sessions, p.st.Session)
		for _, b := range p.st.Branches {
			b.Model = p.st.Session.Model
			sessions = append(sessions, b)
		}
	}
	return importer.Result{Sessions: sessions, Overwrite: true, Messages: p.msgs, State: &p.st}
}
