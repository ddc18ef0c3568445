package codex

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// line is one rollout line: {"timestamp", "type", "payload"}.
type line struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// meta is the session_meta payload (SessionMeta flattened with git).
type meta struct {
	ID           string          `json:"id"`
	ForkedFromID string          `json:"forked_from_id"`
	Timestamp    string          `json:"timestamp"`
	Cwd          string          `json:"cwd"`
	Originator   string          `json:"originator"`
	Source       json.RawMessage `json:"source"`
	Model        string          `json:"model"`
	Git          *struct {
		Branch string `json:"branch"`
	} `json:"git"`
}

// item is a response_item payload (the union of the kinds recall reads).
type item struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Summary []textPart      `json:"summary"`
	Name    string          `json:"name"`
	// Namespace is the server of an MCP tool (0.171: "mcp__recall" with
	// name "session_search"); recall stores the two as one tool name.
	Namespace string          `json:"namespace"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	ID        string          `json:"id"`             // web_search_call, image_generation_call
	Revised   string          `json:"revised_prompt"` // image_generation_call
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// event is an event_msg payload.
type event struct {
	Type       string `json:"type"`
	Message    string `json:"message"`
	ThreadName string `json:"thread_name"`
	Info       *struct {
		Total usage `json:"total_token_usage"`
		Last  usage `json:"last_token_usage"`
	} `json:"info"`
}

// usage is a token_count's token figures.
type usage struct {
	Input     int64 `json:"input_tokens"`
	Cached    int64 `json:"cached_input_tokens"`
	Output    int64 `json:"output_tokens"`
	Reasoning int64 `json:"reasoning_output_tokens"`
}

// state is saved with the cursor so a grown rollout continues.
type state struct {
	Session store.Session     `json:"s"`
	Tools   map[string]string `json:"tools,omitempty"` // call_id -> tool name, awaiting output
	// Echo holds, per role, the recent texts (hash and record kind, "item"
	// or "event") still waiting for their twin: Codex writes the same words
	// once as a response_item and once as an event_msg, and the twin is
	// dropped. A text only matches a twin of the other kind, so a user who
	// types "yes" in two turns gets two messages.
	Echo map[string][]echo `json:"echo,omitempty"`
	// Reasoning waits for the assistant message it belongs to.
	Reasoning string `json:"reasoning,omitempty"`
	// Fork is set for a rollout forked from another (forked_from_id): its
	// token_count totals are the thread's, the parent's included, so Base
	// (the total before its first request, known once Based) is taken off.
	Fork  bool  `json:"fork,omitempty"`
	Based bool  `json:"based,omitempty"`
	Base  usage `json:"base,omitempty"`
}

// maxEcho bounds the texts per role waiting for a twin.
const maxEcho = 8

// echo is a text that may still see its twin from the other record kind.
type echo struct {
	Hash string `json:"h"`
	Kind string `json:"k"`
}

// parser reads one Codex rollout.
type parser struct {
	file   string
	source string // the session source: codex, or a fork writing the same rollouts
	st     state
	msgs   []store.Message
}

// parserVersion changes whenever the same lines produce different rows, so
// that rollouts an older recall imported are read again in full (their old
// rows replaced, not doubled).
// 1: web_search_call and image_generation_call items imported as tool
// calls; reasoning content in clear text kept.
// 2: 0.171: a fork's tokens are its own, not the thread total with its
// parent's; an MCP call's namespace kept in the tool name.
const parserVersion = 2

// Version is the parser version saved with the import state
// (importer.Versioned).
func (p *parser) Version() int { return parserVersion }

func newParser(file, source string) *parser {
	return &parser{file: file, source: source, st: state{Tools: map[string]string{}, Echo: map[string][]echo{}}}
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
	if p.st.Echo == nil {
		p.st.Echo = map[string][]echo{}
	}
	return nil
}

func (p *parser) ensureSession(ts time.Time) {
	s := &p.st.Session
	if s.ID == "" {
		// The conversation id of rollout-<date>-<uuid>.jsonl.
		s.ID = textutil.IDFromName(p.file)
		s.Source = p.source
	}
	if !ts.IsZero() {
		if s.StartedAt.IsZero() || ts.Before(s.StartedAt) {
			s.StartedAt = ts
		}
		if ts.After(s.EndedAt) {
			s.EndedAt = ts
		}
	}
}

// Line parses one rollout line.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var l line
	if err := json.Unmarshal(text, &l); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	var ts time.Time
	if l.Timestamp != "" {
		var err error
		if ts, err = time.Parse(time.RFC3339Nano, l.Timestamp); err != nil {
			t.Malformed("bad timestamp %q", l.Timestamp)
			return nil
		}
	}
	switch l.Type {
	case "session_meta", "response_item", "event_msg", "turn_context":
		if len(l.Payload) == 0 {
			t.Malformed("%s", importer.MissingField(l.Type+" line", "payload", text))
			return nil
		}
	}
	switch l.Type {
	case "session_meta":
		var m meta
		if err := json.Unmarshal(l.Payload, &m); err != nil {
			t.Malformed("bad session_meta: %s", importer.DecodeProblem(err))
			return nil
		}
		p.meta(m, ts)
	case "response_item":
		var it item
		if err := json.Unmarshal(l.Payload, &it); err != nil {
			t.Malformed("bad response_item: %s", importer.DecodeProblem(err))
			return nil
		}
		if it.Type == "message" && it.Content == nil {
			t.Malformed("%s", importer.MissingField("response_item message", "content", l.Payload))
			return nil
		}
		p.ensureSession(ts)
		p.item(it, ts, t)
	case "event_msg":
		var ev event
		if err := json.Unmarshal(l.Payload, &ev); err != nil {
			t.Malformed("bad event_msg: %s", importer.DecodeProblem(err))
			return nil
		}
		if (ev.Type == "user_message" || ev.Type == "agent_message") && !hasKey(l.Payload, "message") {
			t.Malformed("%s", importer.MissingField("event_msg "+ev.Type, "message", l.Payload))
			return nil
		}
		p.ensureSession(ts)
		p.event(ev, ts, t)
	case "turn_context":
		var tc struct {
			Model string `json:"model"`
			Cwd   string `json:"cwd"`
		}
		if err := json.Unmarshal(l.Payload, &tc); err != nil {
			t.Malformed("bad turn_context: %s", importer.DecodeProblem(err))
			return nil
		}
		p.ensureSession(ts)
		if tc.Model != "" {
			p.st.Session.Model = tc.Model
		}
		if p.st.Session.Cwd == "" {
			p.st.Session.Cwd = tc.Cwd
		}
	case "":
		t.Malformed("line without a type")
	default:
		t.Skip(l.Type) // compacted, ghost_snapshot, rollout_reference, newer kinds
	}
	return nil
}

// hasKey reports whether the JSON object raw has key (a text event without
// its "message" is a problem, an empty message is not).
func hasKey(raw json.RawMessage, key string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}

func (p *parser) meta(m meta, ts time.Time) {
	s := &p.st.Session
	if m.ID != "" && s.ID == "" {
		s.ID = m.ID
		s.Source = p.source
	}
	if mt, err := time.Parse(time.RFC3339Nano, m.Timestamp); err == nil {
		ts = mt
	}
	p.ensureSession(ts)
	if s.Cwd == "" {
		s.Cwd = m.Cwd
	}
	if m.Git != nil && s.GitBranch == "" {
		s.GitBranch = m.Git.Branch
	}
	if m.Model != "" && s.Model == "" {
		s.Model = m.Model
	}
	parent := m.ForkedFromID
	if m.ForkedFromID != "" && m.ForkedFromID != s.ID {
		p.st.Fork = true
	}
	marker := "_branched_from"
	var src struct {
		Subagent *struct {
			ThreadSpawn *struct {
				ParentThreadID string `json:"parent_thread_id"`
			} `json:"thread_spawn"`
		} `json:"subagent"`
	}
	if len(m.Source) > 0 && m.Source[0] == '{' && json.Unmarshal(m.Source, &src) == nil &&
		src.Subagent != nil && src.Subagent.ThreadSpawn != nil && src.Subagent.ThreadSpawn.ParentThreadID != "" {
		parent = src.Subagent.ThreadSpawn.ParentThreadID
		marker = "_delegate_from"
	}
	if parent != "" && parent != s.ID && s.ParentID == "" {
		s.ParentID = parent
		raw, _ := json.Marshal(map[string]string{marker: parent})
		s.ModelConfig = string(raw)
	}
}

// userPrefix is Codex's USER_MESSAGE_BEGIN marker, stripped as its own search does.
const userPrefix = "## My request for Codex:"

// injected reports text Codex adds to the user's turn itself: AGENTS.md,
// <environment_context>, <user_instructions> and similar tagged blocks.
var injectedTag = regexp.MustCompile(`^<([a-z_ ]+)[^>]*>[\s\S]*</([a-z_ ]+)>$`)

func injected(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "# AGENTS.md") || strings.HasPrefix(s, "<INSTRUCTIONS>") || injectedTag.MatchString(s)
}

func (p *parser) item(it item, ts time.Time, t *importer.Tally) {
	switch it.Type {
	case "message":
		var parts []textPart
		if len(it.Content) > 0 && it.Content[0] == '[' {
			_ = json.Unmarshal(it.Content, &parts)
		}
		var texts []string
		for _, pt := range parts {
			switch {
			case pt.Text != "":
				texts = append(texts, pt.Text)
			case strings.Contains(pt.Type, "image"):
				texts = append(texts, "[image]")
			}
		}
		text := strings.Join(texts, "\n\n")
		switch it.Role {
		case "user":
			if injected(text) {
				t.Skip("injected context")
				return
			}
			p.text("user", "item", text, ts, t)
		case "assistant":
			p.text("assistant", "item", text, ts, t)
		default:
			t.Skip(it.Role + " instructions") // developer and system instructions
		}
	case "reasoning":
		var texts []string
		for _, s := range it.Summary {
			if s.Text != "" {
				texts = append(texts, s.Text)
			}
		}
		// The reasoning itself, when the rollout has it in clear text
		// (content: [{type: "reasoning_text", text}]), after its summary.
		var parts []textPart
		if len(it.Content) > 0 && it.Content[0] == '[' && json.Unmarshal(it.Content, &parts) == nil {
			for _, pt := range parts {
				if pt.Text != "" && (pt.Type == "reasoning_text" || pt.Type == "text") {
					texts = append(texts, pt.Text)
				}
			}
		}
		p.st.Reasoning = textutil.Join("\n\n", p.st.Reasoning, strings.Join(texts, "\n\n"))
	case "function_call", "custom_tool_call", "local_shell_call":
		name, args := it.Name, it.Arguments
		if it.Namespace != "" && name != "" && !strings.HasPrefix(name, it.Namespace) {
			name = it.Namespace + "__" + name // mcp__recall__session_search, as Claude Code names it
		}
		switch it.Type {
		case "custom_tool_call":
			args = it.Input
		case "local_shell_call":
			if name == "" {
				name = "local_shell"
			}
			args = it.Action
		}
		p.st.Tools[it.CallID] = name
		call := textutil.NewToolCall(it.CallID, name, args)
		p.add(store.Message{
			Role: "assistant", ToolCalls: textutil.ToolCallsJSON([]textutil.ToolCall{call}),
			Timestamp: ts, Reasoning: p.takeReasoning(), FinishReason: "tool_calls",
		}, t)
	case "function_call_output", "custom_tool_call_output":
		name := p.st.Tools[it.CallID]
		delete(p.st.Tools, it.CallID)
		p.add(store.Message{Role: "tool", Content: outputText(it.Output), ToolCallID: it.CallID, ToolName: name, Timestamp: ts}, t)
	case "web_search_call":
		// The model's own search (no output item: what it found is in its
		// next message). The action, {type: search, query} or open_page /
		// find_in_page with a url, is the call's arguments, so the query
		// is searchable and reads as "web_search docker dns".
		if len(it.Action) == 0 || string(it.Action) == "null" {
			t.Skip("web searches without a query")
			return
		}
		call := textutil.NewToolCall(callID(it), "web_search", it.Action)
		p.add(store.Message{Role: "assistant", ToolCalls: textutil.ToolCallsJSON([]textutil.ToolCall{call}),
			Timestamp: ts, Reasoning: p.takeReasoning(), FinishReason: "tool_calls"}, t)
	case "image_generation_call":
		args, _ := json.Marshal(map[string]string{"prompt": it.Revised})
		call := textutil.NewToolCall(callID(it), "image_generation", args)
		p.add(store.Message{Role: "assistant", ToolCalls: textutil.ToolCallsJSON([]textutil.ToolCall{call}),
			Timestamp: ts, Reasoning: p.takeReasoning(), FinishReason: "tool_calls"}, t)
		p.add(store.Message{Role: "tool", Content: "[image]", ToolCallID: call.ID, ToolName: "image_generation", Timestamp: ts}, t)
	default:
		t.Skip(it.Type) // compaction (encrypted), ghost_snapshot, other
	}
}

// callID is an item's call id, else its own id (web searches and image
// generations have no call_id).
func callID(it item) string {
	if it.CallID != "" {
		return it.CallID
	}
	return it.ID
}

func (p *parser) event(ev event, ts time.Time, t *importer.Tally) {
	switch ev.Type {
	case "user_message":
		p.text("user", "event", ev.Message, ts, t)
	case "agent_message":
		p.text("assistant", "event", ev.Message, ts, t)
	case "thread_name_updated":
		if ev.ThreadName != "" {
			p.st.Session.Title = textutil.Title(ev.ThreadName)
		}
	case "token_count":
		if ev.Info != nil {
			s := &p.st.Session
			tot := ev.Info.Total
			if p.st.Fork {
				if !p.st.Based {
					last := ev.Info.Last
					p.st.Base = usage{tot.Input - last.Input, tot.Cached - last.Cached, tot.Output - last.Output, tot.Reasoning - last.Reasoning}
					p.st.Based = true
				}
				b := p.st.Base
				tot = usage{tot.Input - b.Input, tot.Cached - b.Cached, tot.Output - b.Output, tot.Reasoning - b.Reasoning}
			}
			s.InputTokens, s.CacheReadTokens = tot.Input, tot.Cached
			s.OutputTokens, s.ReasoningTokens = tot.Output, tot.Reasoning
		}
	default:
		t.Skip(ev.Type) // reasoning deltas, turn markers, exec events
	}
}

// text adds a user or assistant message unless it is the twin (from the
// other record kind) of the text just added for the same role.
func (p *parser) text(role, kind, text string, ts time.Time, t *importer.Tally) {
	if role == "user" {
		text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), userPrefix))
	}
	if strings.TrimSpace(text) == "" {
		t.Skip("empty messages")
		return
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(text)))
	h := hex.EncodeToString(sum[:8])
	waiting := p.st.Echo[role]
	for i, e := range waiting {
		if e.Hash == h && e.Kind != kind {
			p.st.Echo[role] = append(waiting[:i:i], waiting[i+1:]...) // the twin: stored once
			return
		}
	}
	waiting = append(waiting, echo{Hash: h, Kind: kind})
	if len(waiting) > maxEcho {
		waiting = waiting[len(waiting)-maxEcho:]
	}
	p.st.Echo[role] = waiting
	m := store.Message{Role: role, Content: text, Timestamp: ts}
	if role == "assistant" {
		m.Reasoning = p.takeReasoning()
	}
	p.add(m, t)
}

func (p *parser) takeReasoning() string {
	r := p.st.Reasoning
	p.st.Reasoning = ""
	return r
}

func (p *parser) add(m store.Message, t *importer.Tally) {
	m.SessionID = p.st.Session.ID
	m.SourceKey = "codex:" + strconv.Itoa(t.Line) + ":" + strconv.Itoa(p.lineSeq(t.Line))
	if m.Timestamp.IsZero() {
		m.Timestamp = p.st.Session.EndedAt
	}
	p.msgs = append(p.msgs, m)
}

// lineSeq numbers the messages one line produced (a legacy line can
// produce several).
func (p *parser) lineSeq(line int) int {
	n := 0
	for i := len(p.msgs) - 1; i >= 0; i-- {
		if !strings.HasPrefix(p.msgs[i].SourceKey, "codex:"+strconv.Itoa(line)+":") {
			break
		}
		n++
	}
	return n
}

// outputText unwraps function output: a plain string, a JSON-encoded
// {"output": ...} envelope, or content parts.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		var env struct {
			Output *string `json:"output"`
		}
		if strings.HasPrefix(strings.TrimSpace(s), "{") && json.Unmarshal([]byte(s), &env) == nil && env.Output != nil {
			return *env.Output
		}
		return s
	}
	var env struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Content) > 0 {
		return textutil.FlattenParts(env.Content)
	}
	return textutil.FlattenParts(raw)
}

// Result returns the session with its current metadata and the messages.
func (p *parser) Result() importer.Result {
	var sessions []store.Session
	if p.st.Session.ID != "" {
		sessions = []store.Session{p.st.Session}
	}
	for i := range p.msgs {
		p.msgs[i].SessionID = p.st.Session.ID
	}
	return importer.Result{Sessions: sessions, Overwrite: true, Messages: p.msgs, State: &p.st}
}
