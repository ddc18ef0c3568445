package kimicode

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// record is one line of wire.jsonl: the union of the payloads recall reads.
type record struct {
	Type  string `json:"type"`
	Kind  string `json:"kind"` // "event": a UI copy of durable records
	Time  int64  `json:"time"` // Unix ms
	Model string `json:"model"`
	// context.append_message
	Message *ctxMessage `json:"message"`
	// context.append_loop_event
	Event *loopEvent `json:"event"`
	// usage.record
	Usage *usage `json:"usage"`
	// context.apply_compaction: a string, or a ContextMessage
	Summary        json.RawMessage `json:"summary"`
	ContextSummary string          `json:"contextSummary"`
}

// ctxMessage is a ContextMessage (contextMemory/types.ts).
type ctxMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
	ToolCallID string `json:"toolCallId"`
	ID         string `json:"id"`
	IsError    bool   `json:"isError"`
	Origin     *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
}

// part is a ContentPart: text, think, image_url, audio_url, video_url.
type part struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Think string `json:"think"`
}

// loopEvent is a LoopRecordedEvent (contextMemory/loopEventFold.ts).
type loopEvent struct {
	Type         string          `json:"type"`
	UUID         string          `json:"uuid"`
	StepUUID     string          `json:"stepUuid"`
	Part         part            `json:"part"`
	ToolCallID   string          `json:"toolCallId"`
	Name         string          `json:"name"`
	Args         json.RawMessage `json:"args"`
	FinishReason string          `json:"finishReason"`
	Usage        *usage          `json:"usage"`
	Result       *struct {
		Output  json.RawMessage `json:"output"`
		IsError bool            `json:"isError"`
	} `json:"result"`
}

// usage is a TokenUsage.
type usage struct {
	InputOther         int64 `json:"inputOther"`
	Output             int64 `json:"output"`
	InputCacheRead     int64 `json:"inputCacheRead"`
	InputCacheCreation int64 `json:"inputCacheCreation"`
}

// step is an assistant message being assembled from loop events: Kimi
// Code records a step's parts and calls as they stream, and its end.
type step struct {
	Key     string              `json:"k"`
	Time    int64               `json:"t"`
	Text    []string            `json:"x,omitempty"`
	Think   []string            `json:"r,omitempty"`
	Calls   []textutil.ToolCall `json:"c,omitempty"`
	Results []store.Message     `json:"o,omitempty"`
	// Written is set when an import ended inside the step and stored it as
	// it was: more of it makes the file be read again.
	Written bool `json:"w,omitempty"`
}

// saved is what an import keeps for the next one: the session's running
// totals, the tool names by call id, and a step not ended yet.
type saved struct {
	Model  string            `json:"m,omitempty"`
	First  int64             `json:"f,omitempty"`
	Last   int64             `json:"l,omitempty"`
	Prompt string            `json:"p,omitempty"`
	In     int64             `json:"i,omitempty"`
	Out    int64             `json:"o,omitempty"`
	CacheR int64             `json:"cr,omitempty"`
	CacheW int64             `json:"cw,omitempty"`
	Tools  map[string]string `json:"t,omitempty"`
	Open   *step             `json:"s,omitempty"`
}

type parser struct {
	id, parent string
	meta       state
	st         saved
	msgs       []store.Message
}

func newParser(sess, agent string, meta state) *parser {
	p := &parser{id: sess, meta: meta, st: saved{Tools: map[string]string{}}}
	if isSubAgent(agent, meta) {
		p.id, p.parent = ChildID(sess, agent), sess
	}
	return p
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

func ms(t int64) time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.UnixMilli(t).UTC()
}

// Line reads one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if r.Kind == "event" {
		t.Skip() // agent.message.appended and the like: the UI's copy
		return nil
	}
	if r.Time != 0 {
		if p.st.First == 0 || r.Time < p.st.First {
			p.st.First = r.Time
		}
		p.st.Last = max(p.st.Last, r.Time)
	}
	key := fmt.Sprintf("L%d", t.Line)
	switch r.Type {
	case "context.append_message":
		if r.Message == nil {
			t.Malformed("%s", importer.MissingField("context.append_message record", "message", text))
			return nil
		}
		p.endStep()
		p.message(*r.Message, r.Time, key, t)
	case "context.append_loop_event":
		if r.Event == nil {
			t.Malformed("%s", importer.MissingField("context.append_loop_event record", "event", text))
			return nil
		}
		if o := p.st.Open; o != nil && o.Written && r.Event.Type != "step.begin" {
			return importer.ErrRestart // the stored step goes on: read the file again
		}
		p.loop(*r.Event, r.Time, key, t)
	case "context.apply_compaction":
		p.endStep()
		p.compaction(r, key, t)
	case "usage.record":
		if r.Usage != nil {
			p.st.In += r.Usage.InputOther
			p.st.Out += r.Usage.Output
			p.st.CacheR += r.Usage.InputCacheRead
			p.st.CacheW += r.Usage.InputCacheCreation
		}
		t.Skip()
	case "llm.request":
		if r.Model != "" {
			p.st.Model = r.Model // the model actually called, not its alias
		}
		t.Skip()
	default:
		// metadata, profile.bind, turn.prompt (its text is the next
		// append_message), turn.ended, tools snapshots, permissions, ...
		t.Skip()
	}
	return nil
}

// message turns a ContextMessage into a row.
func (p *parser) message(m ctxMessage, at int64, key string, t *importer.Tally) {
	text, think := flatten(m.Content)
	if m.ID != "" {
		key = m.ID
	}
	row := store.Message{SessionID: p.id, Role: m.Role, Content: text, Timestamp: ms(at), SourceKey: key}
	origin := ""
	if m.Origin != nil {
		origin = m.Origin.Kind
	}
	switch m.Role {
	case "user":
		switch origin {
		case "", "user", "retry":
			if p.st.Prompt == "" && p.parent == "" {
				p.st.Prompt = text
			}
		case "shell_command", "plugin_command", "skill_activation":
			row.DisplayKind = store.DisplayKindCommand
		case "compaction_summary":
			row.DisplayKind = store.DisplayKindCompaction
		default:
			// injection (system reminders), system_trigger (a sub-agent's
			// task), task and cron notifications, hook results: Kimi
			// Code's own text sent as the user.
			row.DisplayKind = store.DisplayKindAgent
		}
		if p.parent != "" && p.st.Prompt == "" && origin == "system_trigger" {
			p.st.Prompt = text
		}
	case "assistant":
		var calls []textutil.ToolCall
		for _, c := range m.ToolCalls {
			calls = append(calls, textutil.NewToolCall(c.ID, c.Name, c.Arguments))
			p.st.Tools[c.ID] = c.Name
		}
		row.Reasoning, row.ToolCalls = think, textutil.ToolCallsJSON(calls)
	case "tool":
		row.ToolCallID, row.ToolName = m.ToolCallID, p.st.Tools[m.ToolCallID]
		if m.IsError {
			row.FinishReason = "error"
		}
	default:
		t.Skip() // system
		return
	}
	if row.Content == "" && row.Reasoning == "" && row.ToolCalls == "" {
		t.Skip()
		return
	}
	p.msgs = append(p.msgs, row)
}

// loop folds one loop event into the open step.
func (p *parser) loop(e loopEvent, at int64, key string, t *importer.Tally) {
	switch e.Type {
	case "step.begin":
		p.endStep()
		k := e.UUID
		if k == "" {
			k = key
		}
		p.st.Open = &step{Key: k, Time: at}
		return
	case "step.end":
		if p.st.Open != nil && e.Usage != nil {
			p.endStepWith(e.FinishReason, int(e.Usage.Output))
		} else {
			p.endStepWith(e.FinishReason, 0)
		}
		return
	}
	s := p.openStep(at, key)
	switch e.Type {
	case "content.part":
		switch e.Part.Type {
		case "text":
			if strings.TrimSpace(e.Part.Text) != "" {
				s.Text = append(s.Text, e.Part.Text)
			}
		case "think":
			if strings.TrimSpace(e.Part.Think) != "" {
				s.Think = append(s.Think, e.Part.Think)
			}
		case "image_url", "audio_url", "video_url":
			s.Text = append(s.Text, "["+strings.TrimSuffix(e.Part.Type, "_url")+"]")
		}
	case "tool.call":
		s.Calls = append(s.Calls, textutil.NewToolCall(e.ToolCallID, e.Name, e.Args))
		p.st.Tools[e.ToolCallID] = e.Name
	case "tool.result":
		row := store.Message{SessionID: p.id, Role: "tool", ToolCallID: e.ToolCallID, ToolName: p.st.Tools[e.ToolCallID],
			Timestamp: ms(at), SourceKey: e.ToolCallID + "#result"}
		if e.Result != nil {
			row.Content, _ = flatten(e.Result.Output)
			if e.Result.IsError {
				row.FinishReason = "error"
			}
		}
		s.Results = append(s.Results, row)
	default:
		t.Skip()
	}
}

// openStep is the step being assembled, begun for an event that came
// without its step.begin.
func (p *parser) openStep(at int64, key string) *step {
	if p.st.Open == nil {
		p.st.Open = &step{Key: key, Time: at}
	}
	return p.st.Open
}

func (p *parser) endStep() { p.endStepWith("", 0) }

// endStepWith writes the open step: its assistant row, then the results
// of its calls.
func (p *parser) endStepWith(finish string, tokens int) {
	s := p.st.Open
	if s == nil {
		return
	}
	p.st.Open = nil
	if s.Written {
		return // stored by the last import, whole as it turned out
	}
	if len(s.Text) > 0 || len(s.Think) > 0 || len(s.Calls) > 0 {
		p.msgs = append(p.msgs, store.Message{SessionID: p.id, Role: "assistant", Content: strings.Join(s.Text, "\n\n"),
			Reasoning: strings.Join(s.Think, "\n\n"), ToolCalls: textutil.ToolCallsJSON(s.Calls), Timestamp: ms(s.Time),
			FinishReason: finish, TokenCount: tokens, SourceKey: s.Key})
	}
	p.msgs = append(p.msgs, s.Results...)
}

// compaction keeps the summary Kimi Code replaced the history with.
func (p *parser) compaction(r record, key string, t *importer.Tally) {
	text := r.ContextSummary
	var s string
	var m ctxMessage
	switch {
	case json.Unmarshal(r.Summary, &s) == nil && s != "":
		text = s
	case json.Unmarshal(r.Summary, &m) == nil && m.Content != nil:
		text, _ = flatten(m.Content)
	}
	if strings.TrimSpace(text) == "" {
		t.Skip()
		return
	}
	p.msgs = append(p.msgs, store.Message{SessionID: p.id, Role: "user", Content: text, DisplayKind: store.DisplayKindCompaction,
		Timestamp: ms(r.Time), SourceKey: key})
}

// flatten is a ContentPart list (or a plain string) as text, with the
// think parts apart.
func flatten(raw json.RawMessage) (text, think string) {
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		return textutil.FlattenParts(raw), ""
	}
	var texts, thinks []string
	for _, pt := range parts {
		switch pt.Type {
		case "text":
			if pt.Text != "" {
				texts = append(texts, pt.Text)
			}
		case "think":
			if pt.Think != "" {
				thinks = append(thinks, pt.Think)
			}
		case "image_url", "audio_url", "video_url":
			texts = append(texts, "["+strings.TrimSuffix(pt.Type, "_url")+"]")
		}
	}
	return strings.Join(texts, "\n\n"), strings.Join(thinks, "\n\n")
}

// Result is the session with its metadata and the new messages.
func (p *parser) Result() importer.Result {
	s := store.Session{ID: p.id, Source: SourceName, Model: p.st.Model, Cwd: p.meta.Cwd,
		StartedAt: ms(p.st.First), EndedAt: ms(p.st.Last), Archived: p.meta.Archived,
		InputTokens: p.st.In, OutputTokens: p.st.Out, CacheReadTokens: p.st.CacheR, CacheWriteTokens: p.st.CacheW}
	if p.parent == "" {
		s.Title = textutil.Title(p.meta.Title)
		if p.meta.CreatedAt != 0 {
			s.StartedAt = ms(p.meta.CreatedAt)
		}
	} else {
		s.ParentID = p.parent
		s.ModelConfig = textutil.DelegatedFrom(p.parent)
	}
	if s.Title == "" {
		s.Title = textutil.Title(p.st.Prompt)
	}
	if o := p.st.Open; o != nil && !o.Written {
		// The file ends inside a step (Kimi Code still streaming, or
		// stopped): store it now; more of it later reads the file again.
		p.endStep()
		o.Written = true
		p.st.Open = o
	}
	msgs := p.msgs
	p.msgs = nil
	if len(msgs) == 0 && p.st.Prompt == "" && p.st.Open == nil {
		return importer.Result{State: &p.st}
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}
