package dsh

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// header is the log's first line: SessionHeader
// (packages/core/session/src/types.ts) with its type "session".
type header struct {
	Type          string `json:"type"`
	Version       *int   `json:"version"`
	ID            string `json:"id"`
	CreatedAt     int64  `json:"createdAt"` // Unix ms
	Cwd           string `json:"cwd"`
	ParentSession string `json:"parentSession"`
	SeedLength    int64  `json:"seedLength"`
	Origin        string `json:"origin"`
}

// event is one SessionEvent: {type, seq, time (Unix ms), data}; surface
// events (user/message, assistant/message, tool/result) carry surfaceOp,
// "append" or {op: "replace", start, end} (a compaction's summary
// replacing what it folds).
type event struct {
	Type      string          `json:"type"`
	Seq       *int64          `json:"seq"`
	Time      int64           `json:"time"`
	Data      json.RawMessage `json:"data"`
	SurfaceOp json.RawMessage `json:"surfaceOp"`
}

// message is a UserMessage, AssistantMessage or a tool result's message
// (@deepseek-ai/dsh-llm): {id, role, content: [blocks], source: {kind,
// provider, model, callId}}.
type message struct {
	ID      string  `json:"id"`
	Role    string  `json:"role"`
	Content []block `json:"content"`
	Source  struct {
		Kind     string `json:"kind"`
		Provider string `json:"provider"`
		Model    string `json:"model"`
		CallID   string `json:"callId"`
	} `json:"source"`
}

// block is a content block: text {text}, reasoning {text}, image
// {attachment}, tool-call {id, name, arguments (the model's JSON text)},
// tool-result {toolCallId, content: [blocks], isError}.
type block struct {
	Type       string  `json:"type"`
	Text       string  `json:"text"`
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Arguments  string  `json:"arguments"`
	ToolCallID string  `json:"toolCallId"`
	Content    []block `json:"content"`
	IsError    bool    `json:"isError"`
}

// usage is TokenUsage.
type usage struct {
	Input      int64 `json:"inputTokens"`
	Output     int64 `json:"outputTokens"`
	CacheRead  int64 `json:"cacheReadTokens"`
	CacheWrite int64 `json:"cacheWriteTokens"`
	Reasoning  int64 `json:"reasoningTokens"`
}

type parser struct {
	file  string
	h     header
	seen  bool
	title string
	model string
	tok   usage
	msgs  []store.Message
	names map[string]string // tool call id → name
	user  int
	first time.Time
	last  time.Time
	turn  int // index in msgs where the open turn's rows start
}

func newParser(file string) *parser { return &parser{file: file, names: map[string]string{}} }

// Restore is never called: the log is always read whole.
func (p *parser) Restore(json.RawMessage) error { return nil }

func (p *parser) add(m store.Message, e event, part string) {
	m.SessionID = p.h.ID
	m.Timestamp = time.UnixMilli(e.Time).UTC()
	m.SourceKey = fmt.Sprintf("dsh:%s:%d%s", p.h.ID, *e.Seq, part)
	p.msgs = append(p.msgs, m)
}

// Line reads the header or one event.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	if !p.seen {
		if err := json.Unmarshal(text, &p.h); err != nil || p.h.Type != "session" || p.h.ID == "" {
			return fmt.Errorf("%s is not a DeepSeek Harness session log (its first line is no session header)", p.file)
		}
		if p.h.Version != nil && *p.h.Version != 0 {
			return fmt.Errorf("%s: session format version %d (recall reads version 0)", p.file, *p.h.Version)
		}
		p.seen = true
		return nil
	}
	var e event
	if err := json.Unmarshal(text, &e); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if e.Seq == nil {
		// text-chunks, reasoning-chunks, tool-call-chunks: stream chunks
		// packed into one row; the assembled message follows them.
		t.Skip()
		return nil
	}
	ts := time.UnixMilli(e.Time).UTC()
	if e.Time > 0 {
		if p.first.IsZero() {
			p.first = ts
		}
		p.last = ts
	}
	if p.h.SeedLength > 0 && *e.Seq < p.h.SeedLength {
		return nil // inherited from the session it was forked from: that session's rows
	}
	switch e.Type {
	case "turn/start":
		p.turn = len(p.msgs)
	case "user/message":
		var m message
		if err := json.Unmarshal(e.Data, &m); err != nil {
			t.Malformed("user/message: %s", importer.DecodeProblem(err))
			return nil
		}
		p.userMessage(m, e, t)
	case "assistant/message":
		var d struct {
			Message message `json:"message"`
			Usage   *usage  `json:"usage"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Malformed("assistant/message: %s", importer.DecodeProblem(err))
			return nil
		}
		p.assistant(d.Message, d.Usage, e)
	case "tool/result":
		var d struct {
			Message message `json:"message"`
			Error   *struct {
				Name string `json:"name"`
				Code string `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Malformed("tool/result: %s", importer.DecodeProblem(err))
			return nil
		}
		p.toolResult(d.Message, d.Error != nil, e)
	case "turn/end":
		var d struct {
			Reason struct {
				Kind  string `json:"kind"`
				Error *struct {
					Message string `json:"message"`
					Code    string `json:"code"`
				} `json:"error"`
			} `json:"reason"`
		}
		_ = json.Unmarshal(e.Data, &d)
		p.turnEnd(d.Reason.Kind, d.Reason.Error, e)
	case "session/title":
		var d struct {
			Title string `json:"title"`
		}
		if json.Unmarshal(e.Data, &d) == nil && strings.TrimSpace(d.Title) != "" {
			p.title = d.Title
		}
	case "request/header":
		var d struct {
			Header struct {
				Config struct {
					Model string `json:"model"`
				} `json:"config"`
			} `json:"header"`
		}
		if json.Unmarshal(e.Data, &d) == nil && d.Header.Config.Model != "" {
			p.model = d.Header.Config.Model
		}
	default:
		// steps, chunks, tool/call (its call is in the assistant message),
		// request context, approvals, hooks, todos, compaction markers,
		// retries: the log's bookkeeping
		t.Skip()
	}
	return nil
}

// text joins a message's text blocks (an image is [image]).
func text(blocks []block) string {
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

// userMessage: a prompt the person typed (source kind user), text dsh
// injected (file-change notices, AGENTS.md, skills, goal rounds: display
// kind agent), or a compaction's summary replacing what it folds (display
// kind compaction).
func (p *parser) userMessage(m message, e event, t *importer.Tally) {
	body := text(m.Content)
	if strings.TrimSpace(body) == "" {
		t.Skip()
		return
	}
	kind := ""
	switch {
	case len(e.SurfaceOp) > 0 && e.SurfaceOp[0] == '{':
		kind = store.DisplayKindCompaction
	case m.Source.Kind != "" && m.Source.Kind != "user":
		kind = store.DisplayKindAgent
	}
	if kind == "" {
		if p.h.Origin == "subagent" && p.user == 0 {
			kind = store.DisplayKindAgent // a sub-agent's task, written by its parent
		}
		p.user++
	}
	p.add(store.Message{Role: "user", Content: body, DisplayKind: kind}, e, "")
}

// assistant adds one step's assembled message: text, reasoning, tool
// calls, its output tokens; usage adds to the session's tokens.
func (p *parser) assistant(m message, u *usage, e event) {
	var texts, thoughts []string
	var calls []textutil.ToolCall
	for _, b := range m.Content {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "reasoning":
			thoughts = append(thoughts, b.Text)
		case "tool-call":
			args := json.RawMessage(b.Arguments)
			if !json.Valid(args) {
				args, _ = json.Marshal(b.Arguments) // cut off while it streamed: kept as text
			}
			calls = append(calls, textutil.NewToolCall(b.ID, b.Name, args))
			p.names[b.ID] = b.Name
		}
	}
	if m.Source.Model != "" {
		p.model = m.Source.Model
	}
	row := store.Message{Role: "assistant", Content: strings.TrimSpace(strings.Join(texts, "")),
		Reasoning: strings.TrimSpace(strings.Join(thoughts, "\n\n")), ToolCalls: textutil.ToolCallsJSON(calls)}
	if u != nil {
		p.tok.Input += u.Input
		p.tok.Output += u.Output
		p.tok.CacheRead += u.CacheRead
		p.tok.CacheWrite += u.CacheWrite
		p.tok.Reasoning += u.Reasoning
		row.TokenCount = int(u.Output)
	}
	if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
		return
	}
	p.add(row, e, "")
}

// toolResult adds the tool row of a result: its one tool-result block.
func (p *parser) toolResult(m message, failed bool, e event) {
	for i, b := range m.Content {
		if b.Type != "tool-result" {
			continue
		}
		id := b.ToolCallID
		if id == "" {
			id = m.Source.CallID
		}
		row := store.Message{Role: "tool", Content: text(b.Content), ToolCallID: id, ToolName: p.names[id]}
		if failed || b.IsError {
			row.FinishReason = "error"
		}
		part := ""
		if i > 0 {
			part = fmt.Sprintf(".%d", i)
		}
		p.add(row, e, part)
	}
}

// turnEnd marks how a turn ended: a failed one gets an assistant row
// "error: …"; one the person (or its parent) cancelled or that dsh found
// cut off by a crash has its last row's finish reason canceled; one that
// hit the output limit, length.
func (p *parser) turnEnd(kind string, failure *struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}, e event) {
	switch kind {
	case "error":
		msg := "error"
		if failure != nil && failure.Message != "" {
			msg = "error: " + failure.Message
		}
		p.add(store.Message{Role: "assistant", Content: msg, FinishReason: "error"}, e, "")
	case "aborted", "interrupted", "max-tokens":
		if n := len(p.msgs); n > p.turn && p.msgs[n-1].Role == "assistant" {
			p.msgs[n-1].FinishReason = map[string]string{"aborted": "canceled", "interrupted": "canceled", "max-tokens": "length"}[kind]
		}
	}
}

func (p *parser) Result() importer.Result {
	if p.h.ID == "" {
		return importer.Result{}
	}
	s := store.Session{ID: p.h.ID, Source: SourceName, Cwd: p.h.Cwd, Model: p.model, Title: textutil.Title(p.title),
		InputTokens: p.tok.Input, OutputTokens: p.tok.Output, CacheReadTokens: p.tok.CacheRead, CacheWriteTokens: p.tok.CacheWrite,
		ReasoningTokens: p.tok.Reasoning, StartedAt: p.first, EndedAt: p.last}
	if p.h.CreatedAt > 0 {
		s.StartedAt = time.UnixMilli(p.h.CreatedAt).UTC()
	}
	if s.EndedAt.Before(s.StartedAt) {
		s.EndedAt = s.StartedAt
	}
	if p.h.ParentSession != "" {
		s.ParentID = p.h.ParentSession // a sub-agent's parent, or the session a fork was seeded from
		if p.h.Origin == "subagent" {
			s.ModelConfig = textutil.DelegatedFrom(p.h.ParentSession)
		}
	}
	if s.Title == "" {
		for _, m := range p.msgs {
			// the first prompt; a sub-agent's is the task it was given
			if m.Role == "user" && (m.DisplayKind == "" || p.h.Origin == "subagent" && m.DisplayKind == store.DisplayKindAgent) {
				s.Title = textutil.Title(m.Content)
				break
			}
		}
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: p.msgs}
}
