package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// record is the envelope of one transcript line (the fields recall reads).
type record struct {
	Type      string `json:"type"`
	UUID      string `json:"uuid"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	IsMeta    bool   `json:"isMeta"`
	// IsCompactSummary marks the user record holding the summary a
	// compaction wrote ("This session is being continued ...").
	IsCompactSummary bool     `json:"isCompactSummary"`
	IsSidechain      bool     `json:"isSidechain"`
	AgentID          string   `json:"agentId"`
	Cwd              string   `json:"cwd"`
	GitBranch        string   `json:"gitBranch"`
	Message          *message `json:"message"`
	Summary          string   `json:"summary"`
	LeafUUID         string   `json:"leafUuid"`
	CustomTitle      string   `json:"customTitle"`
	AITitle          string   `json:"aiTitle"`
	// Operation and Content are a queue-operation record's: text typed
	// while the agent works is enqueued, then removed (delivered mid-turn),
	// dequeued (sent as the next prompt) or popped back into the input.
	Operation string          `json:"operation"`
	Content   json.RawMessage `json:"content"`
	// Subtype is a system record's kind; "local_command" records hold a
	// slash command typed in the TUI, or its output, in Content (2.1.3xx).
	Subtype string `json:"subtype"`
}

type message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Model      string          `json:"model"`
	Content    json.RawMessage `json:"content"`
	StopReason string          `json:"stop_reason"`
	Usage      *usage          `json:"usage"`
}

type usage struct {
	Input      int64 `json:"input_tokens"`
	CacheWrite int64 `json:"cache_creation_input_tokens"`
	CacheRead  int64 `json:"cache_read_input_tokens"`
	Output     int64 `json:"output_tokens"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// sessState is what the parser keeps per session across imports.
type sessState struct {
	Session store.Session `json:"s"`
	Custom  string        `json:"ct,omitempty"`
	AI      string        `json:"at,omitempty"`
	Summary string        `json:"su,omitempty"`
	// Command is the first slash command of a session that has no prompt
	// yet (Prompted): a session started with a custom command ("/greet
	// Alice") is titled by it rather than left without a name.
	Command  string `json:"cmd,omitempty"`
	Prompted bool   `json:"pr,omitempty"`
	// Agent is a sub-agent's description (agent-<id>.meta.json), its title.
	Agent string `json:"ag,omitempty"`
}

// state is saved with the cursor so a grown file continues where it stopped.
type state struct {
	Sessions []*sessState `json:"ss"`
	// Tools maps tool_use ids still awaiting their result to the tool name.
	Tools map[string]string `json:"tools,omitempty"`
	// Recent are the last assistant message ids: a new line continuing one
	// of them means the reply was split across imports (re-read the file).
	Recent []string `json:"recent,omitempty"`
	// Queue holds the queued texts already imported that a later user
	// record may still repeat (see queue).
	Queue []queued `json:"q,omitempty"`
	// Main is the id of the file's own session: the sessionId of its first
	// record (the file name when that record has none). It is kept so that
	// a file renamed and then grown goes on in the same session.
	Main string `json:"main,omitempty"`
}

// queued is a text typed while the agent worked, imported as a user
// message at its enqueue record, that may still come back as a prompt.
type queued struct {
	Key  string `json:"k"` // the message's SourceKey
	Text string `json:"t"` // the text, whitespace collapsed
}

// maxQueued bounds the queue kept in the state (Claude Code's queue holds a
// few messages; an unmatched enqueue must not grow the state forever).
const maxQueued = 32

// parserVersion changes whenever the same lines produce different rows, so
// that files an older recall imported are read again in full (Version).
// 2: display kinds for text Claude Code writes itself, isMeta records and
// queued steering messages imported.
// 3: 2.1.3xx: local_command system records (slash commands typed in the TUI
// and their output), <local-command-caveat> hidden, a queued text repeated
// by a user record of any kind imported once (task notifications), a text
// typed while a tool ran placed after the tool's result, ToolSearch results
// kept, sessions titled by their first command or sub-agent description.
// 4: a queue-operation "remove" with no enqueue before it (2.1.207's
// steering text) imported.
const parserVersion = 4

// group is one assistant API message, merged from the lines sharing its id.
type group struct {
	msg   int // index into parser.msgs
	sess  *sessState
	use   usage
	calls []textutil.ToolCall
	text  []string
	think []string
}

// parser reads one Claude Code transcript file.
type parser struct {
	source    string // the session source: Claude Code's, or Qoder's
	file      string // path, for the session ids it derives
	line      []byte // the record being parsed, for problem lines
	st        state
	byID      map[string]*sessState
	msgs      []store.Message
	groups    map[string]*group
	order     []*group
	uuids     map[string]string // message uuid -> session id (summary leafUuid targets)
	tails     map[string]string // session id -> uuid of its last message read
	summaries []summary         // summaries whose leaf is not in this file
	restored  bool
	queuedAt  map[string]int // SourceKey of a queued message read this time -> index in msgs
	drop      map[int]bool   // indexes in msgs retracted (a queued text sent again as a prompt)
}

// readKinds are the record types whose fields recall reads; any other is
// bookkeeping, skipped.
var readKinds = map[string]bool{"": true, "user": true, "assistant": true, "summary": true, "custom-title": true,
	"ai-title": true, "queue-operation": true, "system": true}

// summary is a summary record waiting for the session holding its leaf.
type summary struct{ Leaf, Text string }

func newParser(source, file string) *parser {
	return &parser{
		source: source, file: file, st: state{Tools: map[string]string{}}, byID: map[string]*sessState{},
		groups: map[string]*group{}, uuids: map[string]string{}, tails: map[string]string{},
		queuedAt: map[string]int{}, drop: map[int]bool{},
	}
}

// Version is the parser version saved with the import state; a file saved
// by another version is read again in full (importer.Versioned).
func (p *parser) Version() int { return parserVersion }

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
	for _, s := range p.st.Sessions {
		p.byID[s.Session.ID] = s
		// A state saved before Main existed: its main session is the
		// first one without a parent.
		if p.st.Main == "" && s.Session.ParentID == "" {
			p.st.Main = s.Session.ID
		}
	}
	p.restored = true
	return nil
}

// agentFromPath is the agent id of a sub-agent transcript (agent-<id>.jsonl), else "".
func (p *parser) agentFromPath() string {
	base := strings.TrimSuffix(filepath.Base(p.file), ".jsonl")
	if strings.HasPrefix(base, "agent-") {
		return strings.TrimPrefix(base, "agent-")
	}
	return ""
}

// mainID is the id of the file's main session. It comes from the records
// (sessionId), not the file name, so that a transcript renamed or moved
// keeps its session; the file name is the fallback for a file whose first
// record names none. One file is one session even when later records carry
// another sessionId (a resumed conversation's lines): per-record ids would
// spread one file over sessions other files also write.
//
// A file still named as Claude Code names it (<uuid>.jsonl) keeps that
// name as its id, as before: a resumed conversation's file may open with
// another session's id, and taking it would merge two files' sessions.
func (p *parser) mainID(r *record) string {
	if p.st.Main == "" {
		base := strings.TrimSuffix(filepath.Base(p.file), ".jsonl")
		p.st.Main = r.SessionID
		if p.st.Main == "" || textutil.IsUUID(base) {
			p.st.Main = base
		}
	}
	return p.st.Main
}

// sessionFor returns the session a record belongs to: the file's main
// session, or a child session for sub-agent (sidechain) records.
func (p *parser) sessionFor(r *record, ts time.Time) *sessState {
	agent := p.agentFromPath()
	var id, parent string
	switch {
	case agent != "":
		parent = r.SessionID
		if filepath.Base(filepath.Dir(p.file)) == "subagents" {
			parent = filepath.Base(filepath.Dir(filepath.Dir(p.file)))
		}
		id = ChildID(parent, agent)
	case r.IsSidechain:
		parent = p.mainID(r)
		a := r.AgentID
		if a == "" {
			a = "sidechain"
		}
		id = ChildID(parent, a)
	default:
		id = p.mainID(r)
	}
	if s, ok := p.byID[id]; ok {
		return s
	}
	s := &sessState{Session: store.Session{ID: id, Source: p.source, ParentID: parent, StartedAt: ts}}
	if agent != "" {
		s.Agent = agentDescription(p.file)
	}
	if parent != "" {
		raw, _ := json.Marshal(map[string]string{"_delegate_from": parent})
		s.Session.ModelConfig = string(raw)
	}
	p.byID[id] = s
	p.st.Sessions = append(p.st.Sessions, s)
	return s
}

// agentDescription is the description Claude Code gave a sub-agent run
// (the Agent tool's "description"), from the agent-<id>.meta.json it writes
// next to agent-<id>.jsonl; "" when there is none.
func agentDescription(file string) string {
	raw, err := os.ReadFile(strings.TrimSuffix(file, ".jsonl") + ".meta.json")
	if err != nil {
		return ""
	}
	var meta struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(raw, &meta) != nil {
		return ""
	}
	return strings.TrimSpace(meta.Description)
}

// ChildID is the session id recall gives a sub-agent run of parent.
func ChildID(parent, agent string) string { return parent + "-agent-" + agent }

// Line parses one transcript record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		var kind struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(text, &kind) == nil && !readKinds[kind.Type] {
			// Bookkeeping recall does not read, whatever its fields hold
			// (Qoder's active-leaf dates itself in milliseconds).
			t.Skip()
			return nil
		}
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	p.line = text
	switch r.Type {
	case "user", "assistant":
	case "summary":
		if r.Summary != "" && r.LeafUUID != "" {
			if sid, ok := p.uuids[r.LeafUUID]; ok {
				p.byID[sid].Summary = r.Summary
			} else if p.restored {
				return importer.ErrRestart // the leaf may be in the part read before
			} else {
				p.summaries = append(p.summaries, summary{Leaf: r.LeafUUID, Text: r.Summary})
			}
		}
		return nil
	case "custom-title", "ai-title":
		if len(p.st.Sessions) == 0 && r.SessionID == "" {
			t.Skip("title records")
			return nil
		}
		s := p.sessionFor(&r, time.Time{})
		if r.CustomTitle != "" {
			s.Custom = r.CustomTitle
		}
		if r.AITitle != "" {
			s.AI = r.AITitle
		}
		return nil
	case "queue-operation":
		return p.queue(&r, t)
	case "system":
		if r.Subtype == "local_command" {
			return p.localCommand(&r, t)
		}
		t.Skip("system")
		return nil
	case "":
		t.Malformed("record without a type")
		return nil
	default:
		// Bookkeeping (file-history-snapshot, progress, system, attachment,
		// last-prompt, ...) and record types recall does not know yet:
		// counted, never fatal.
		t.Skip(r.Type)
		return nil
	}
	if r.Message == nil {
		t.Malformed("%s record without a message", r.Type)
		return nil
	}
	ts, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		t.Malformed("bad timestamp %q", r.Timestamp)
		return nil
	}
	s := p.sessionFor(&r, ts)
	if s.Session.StartedAt.IsZero() || ts.Before(s.Session.StartedAt) {
		s.Session.StartedAt = ts
	}
	if ts.After(s.Session.EndedAt) {
		s.Session.EndedAt = ts
	}
	if s.Session.Cwd == "" {
		s.Session.Cwd = r.Cwd
	}
	if s.Session.GitBranch == "" && r.GitBranch != "HEAD" {
		s.Session.GitBranch = r.GitBranch
	}
	if r.UUID != "" {
		p.uuids[r.UUID] = s.Session.ID
		p.tails[s.Session.ID] = r.UUID
	}
	if r.Type == "assistant" {
		return p.assistant(&r, s, ts, t)
	}
	return p.user(&r, s, ts, t)
}

func (p *parser) user(r *record, s *sessState, ts time.Time, t *importer.Tally) error {
	raw := r.Message.Content
	var blocks []block
	if len(raw) == 0 {
		var rec struct{ Message json.RawMessage }
		_ = json.Unmarshal(p.line, &rec)
		t.Malformed("%s", importer.MissingField("user record's message", "content", rec.Message))
		return nil
	}
	if raw[0] == '[' {
		if err := json.Unmarshal(raw, &blocks); err != nil {
			t.Malformed("bad user content: %s", importer.DecodeProblem(err))
			return nil
		}
	} else {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			t.Malformed("bad user content: %s", importer.DecodeProblem(err))
			return nil
		}
		blocks = []block{{Type: "text", Text: text}}
	}
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		case "image":
			texts = append(texts, "[image]")
		case "tool_result":
			name := p.st.Tools[b.ToolUseID]
			delete(p.st.Tools, b.ToolUseID)
			content := textutil.FlattenParts(b.Content)
			if strings.TrimSpace(content) == "" {
				content = toolReferences(b.Content)
			}
			p.msgs = append(p.msgs, store.Message{
				SessionID: s.Session.ID, Role: "tool", Content: content, ToolCallID: b.ToolUseID,
				ToolName: name, Timestamp: ts, SourceKey: key(r.UUID, "result", b.ToolUseID),
			})
		}
	}
	if len(texts) == 0 {
		return nil
	}
	text := strings.Join(texts, "\n\n")
	content, kind, keep := classify(text, r.IsMeta, r.IsCompactSummary)
	// A queued text that comes back as a user record is imported once,
	// here: a prompt, a command, or a background task's <task-notification>
	// (2.1.3xx writes it through the queue and again as a user record).
	if err := p.unqueue(false, collapse(text)); err != nil {
		return err
	}
	if content != text {
		if err := p.unqueue(false, collapse(content)); err != nil {
			return err
		}
	}
	if !keep {
		t.Skip("empty command output")
		return nil
	}
	p.addUser(s, store.Message{
		SessionID: s.Session.ID, Role: "user", Content: content, DisplayKind: kind,
		Timestamp: ts, SourceKey: key(r.UUID, "user", ""),
	})
	return nil
}

// addUser appends a user-role row and notes what names its session: its
// first slash command until a prompt arrives.
func (p *parser) addUser(s *sessState, m store.Message) {
	switch m.DisplayKind {
	case "":
		s.Prompted = true
	case store.DisplayKindCommand:
		if s.Command == "" {
			s.Command = m.Content
		}
	}
	p.msgs = append(p.msgs, m)
}

// localCommand imports a system record of subtype local_command: a slash
// command typed in the TUI (<command-name>/context</command-name>) or its
// output (<local-command-stdout>Session renamed to ...</...>), read like
// the user records older versions wrote for them.
func (p *parser) localCommand(r *record, t *importer.Tally) error {
	var text string
	if err := json.Unmarshal(r.Content, &text); err != nil || strings.TrimSpace(text) == "" {
		t.Skip("empty messages")
		return nil
	}
	ts, err := time.Parse(time.RFC3339Nano, r.Timestamp)
	if err != nil {
		t.Malformed("bad timestamp %q", r.Timestamp)
		return nil
	}
	content, kind, keep := classify(text, false, false)
	if !keep {
		t.Skip("empty command output")
		return nil
	}
	if kind == "" {
		kind = store.DisplayKindAgent // never the person's prompt: the program wrote this record
	}
	s := p.sessionFor(r, ts)
	if s.Session.StartedAt.IsZero() || ts.Before(s.Session.StartedAt) {
		s.Session.StartedAt = ts
	}
	if ts.After(s.Session.EndedAt) {
		s.Session.EndedAt = ts
	}
	if r.UUID != "" {
		p.uuids[r.UUID] = s.Session.ID
		p.tails[s.Session.ID] = r.UUID
	}
	p.addUser(s, store.Message{
		SessionID: s.Session.ID, Role: "user", Content: content, DisplayKind: kind,
		Timestamp: ts, SourceKey: key(r.UUID, "user", ""),
	})
	return nil
}

func (p *parser) assistant(r *record, s *sessState, ts time.Time, t *importer.Tally) error {
	m := r.Message
	var blocks []block
	if len(m.Content) > 0 && m.Content[0] == '[' {
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			t.Malformed("bad assistant content: %s", importer.DecodeProblem(err))
			return nil
		}
	} else if len(m.Content) > 0 {
		var text string
		if err := json.Unmarshal(m.Content, &text); err != nil {
			t.Malformed("bad assistant content: %s", importer.DecodeProblem(err))
			return nil
		}
		blocks = []block{{Type: "text", Text: text}}
	}
	id := m.ID
	if id == "" {
		id = r.UUID
	}
	g, ok := p.groups[id]
	if !ok {
		for _, rid := range p.st.Recent {
			if rid == id {
				return importer.ErrRestart // its first lines were imported last time
			}
		}
		g = &group{msg: len(p.msgs), sess: s}
		p.groups[id] = g
		p.order = append(p.order, g)
		p.msgs = append(p.msgs, store.Message{SessionID: s.Session.ID, Role: "assistant", Timestamp: ts, SourceKey: key(id, "assistant", "")})
		p.st.Recent = append(p.st.Recent, id)
		if len(p.st.Recent) > 8 {
			p.st.Recent = p.st.Recent[len(p.st.Recent)-8:]
		}
	}
	for _, b := range blocks {
		switch b.Type {
		case "text":
			if b.Text != "" {
				g.text = append(g.text, b.Text)
			}
		case "thinking":
			if b.Thinking != "" {
				g.think = append(g.think, b.Thinking)
			}
		case "tool_use":
			g.calls = append(g.calls, textutil.NewToolCall(b.ID, b.Name, b.Input))
			p.st.Tools[b.ID] = b.Name
		}
	}
	msg := &p.msgs[g.msg]
	msg.Content = strings.Join(g.text, "\n\n")
	msg.Reasoning = strings.Join(g.think, "\n\n")
	msg.ToolCalls = textutil.ToolCallsJSON(g.calls)
	if m.StopReason != "" {
		msg.FinishReason = m.StopReason
	}
	if m.Usage != nil {
		g.use = *m.Usage
		msg.TokenCount = int(m.Usage.Output)
	}
	if m.Model != "" && !strings.HasPrefix(m.Model, "<") {
		s.Session.Model = m.Model
	}
	return nil
}

// Result returns the sessions with their totals and titles, and the messages.
func (p *parser) Result() importer.Result {
	for _, g := range p.order {
		ss := &g.sess.Session
		ss.InputTokens += g.use.Input
		ss.OutputTokens += g.use.Output
		ss.CacheReadTokens += g.use.CacheRead
		ss.CacheWriteTokens += g.use.CacheWrite
	}
	p.order = nil // counted once even if Result is called again
	if len(p.drop) > 0 {
		kept := p.msgs[:0:0]
		for i, m := range p.msgs {
			if !p.drop[i] {
				kept = append(kept, m)
			}
		}
		p.msgs, p.drop, p.queuedAt = kept, map[int]bool{}, map[string]int{}
	}
	p.msgs = afterToolResults(p.msgs)
	var sessions []store.Session
	for _, s := range p.st.Sessions {
		title := firstNonEmpty(s.Custom, s.AI, s.Summary, s.Agent)
		if title == "" && !s.Prompted {
			title = s.Command
		}
		s.Session.Title = textutil.Title(title)
		sessions = append(sessions, s.Session)
	}
	// A session row is only worth creating once it has a message or a title.
	seen := map[string]bool{}
	for _, m := range p.msgs {
		seen[m.SessionID] = true
	}
	out := sessions[:0]
	for _, s := range sessions {
		if seen[s.ID] || s.Title != "" || p.restored {
			out = append(out, s)
		}
	}
	return importer.Result{Sessions: out, Overwrite: true, Messages: p.msgs, State: &p.st}
}

// afterToolResults moves a text typed while a tool ran (a queued message,
// imported at its enqueue record) after the results of that tool that
// follow it, so the tool's output is never shown under the person's words.
func afterToolResults(msgs []store.Message) []store.Message {
	for i := 0; i < len(msgs); i++ {
		if !queuedKey(msgs[i].SourceKey) {
			continue
		}
		sid := msgs[i].SessionID
		j := i
		for j < len(msgs) && queuedKey(msgs[j].SourceKey) && msgs[j].SessionID == sid {
			j++
		}
		k := j
		for k < len(msgs) && msgs[k].Role == "tool" && msgs[k].SessionID == sid {
			k++
		}
		if k > j {
			moved := append(append([]store.Message{}, msgs[j:k]...), msgs[i:j]...)
			copy(msgs[i:k], moved)
		}
		i = k - 1
	}
	return msgs
}

func queuedKey(k string) bool { return strings.Contains(k, ":queued:") }

// toolReferences is the text of a tool result made of tool_reference
// blocks (ToolSearch loading deferred tools): the tools' names.
func toolReferences(raw json.RawMessage) string {
	var refs []struct {
		Type     string `json:"type"`
		ToolName string `json:"tool_name"`
	}
	if json.Unmarshal(raw, &refs) != nil {
		return ""
	}
	var names []string
	for _, r := range refs {
		if r.Type == "tool_reference" && r.ToolName != "" {
			names = append(names, r.ToolName)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "Loaded tools: " + strings.Join(names, ", ")
}

// key is the message's identity in the source: stable under appends, so a
// repeated insert is skipped.
func key(id, kind, sub string) string {
	if sub != "" {
		return "claude:" + id + ":" + kind + ":" + sub
	}
	return "claude:" + id + ":" + kind
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}
