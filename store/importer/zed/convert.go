package zed

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// thread is the DbThread document (crates/agent/src/db.rs), with the
// fields of the legacy SerializedThread (crates/agent/src/legacy_thread.rs,
// version 0.1.0/0.2.0, or none) it may still be.
type thread struct {
	Title     string            `json:"title"`
	Summary   string            `json:"summary"` // legacy
	Messages  []json.RawMessage `json:"messages"`
	UpdatedAt string            `json:"updated_at"`
	Tokens    tokenUsage        `json:"cumulative_token_usage"`
	Model     *struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
	} `json:"model"`
	Subagent *struct {
		ParentThreadID string `json:"parent_thread_id"`
	} `json:"subagent_context"`
}

// tokenUsage is language_model's TokenUsage.
type tokenUsage struct {
	Input      int64 `json:"input_tokens"`
	Output     int64 `json:"output_tokens"`
	CacheWrite int64 `json:"cache_creation_input_tokens"`
	CacheRead  int64 `json:"cache_read_input_tokens"`
}

// defaultTitle is the title of a thread Zed has not summarized yet
// (agent_ui's DEFAULT_THREAD_TITLE).
const defaultTitle = "New Thread"

// converter turns one thread into rows.
type converter struct {
	id   string
	ts   time.Time
	t    *importer.Tally
	out  []store.Message
	n    int
	sub  bool // a sub-agent's thread: its first prompt is the parent's
	user int  // user messages so far
}

func (c *converter) key() string {
	c.n++
	return fmt.Sprintf("zed:%s:%d", c.id, c.n)
}

func (c *converter) add(m store.Message) {
	m.SessionID, m.Timestamp, m.SourceKey = c.id, c.ts, c.key()
	c.out = append(c.out, m)
}

// convert builds the session and its messages. Zed keeps no time per
// message: every message gets the thread's creation time (its updated_at
// when older rows have none), in order.
func convert(rw row, raw []byte, t *importer.Tally) (export.Conversation, bool) {
	var th thread
	if err := json.Unmarshal(raw, &th); err != nil {
		t.Malformed("thread %s: %s", rw.id, importer.DecodeProblem(err))
		return export.Conversation{}, false
	}
	started, ended := textutil.ParseTime(rw.createdAt), textutil.ParseTime(rw.updatedAt)
	if started.IsZero() {
		started = ended
	}
	sess := store.Session{ID: rw.id, Source: SourceName, StartedAt: started, EndedAt: ended,
		InputTokens: th.Tokens.Input, OutputTokens: th.Tokens.Output, CacheReadTokens: th.Tokens.CacheRead, CacheWriteTokens: th.Tokens.CacheWrite}
	title := rw.summary
	if title == "" {
		title = textutil.Join("", th.Title, th.Summary)
	}
	if title != defaultTitle {
		sess.Title = textutil.Title(title)
	}
	if th.Model != nil {
		sess.Model = th.Model.Model
	}
	// folder_paths: the workspace's folders, sorted, one per line
	// (util::path_list::PathList::serialize); the first is the cwd.
	if paths := strings.Split(rw.folderPaths, "\n"); paths[0] != "" {
		sess.Cwd = paths[0]
	}
	parent := rw.parentID
	if parent == "" && th.Subagent != nil {
		parent = th.Subagent.ParentThreadID
	}
	if parent != "" {
		sess.ParentID = parent
		sess.ModelConfig = textutil.DelegatedFrom(parent)
	}
	c := &converter{id: rw.id, ts: started, t: t, sub: parent != ""}
	for i, m := range th.Messages {
		t.Line = i + 1
		var probe struct {
			Role *string `json:"role"`
		}
		if json.Unmarshal(m, &probe) == nil && probe.Role != nil {
			c.legacyMessage(m) // {role, segments, …}: a thread of Zed's first agent
		} else {
			c.message(m)
		}
	}
	if len(c.out) == 0 {
		t.Skip() // a thread opened and left empty
		return export.Conversation{}, false
	}
	if sess.Title == "" {
		sess.Title = textutil.PromptTitle(c.out)
	}
	return export.Conversation{Session: sess, Messages: c.out}, true
}

// message reads one crate::Message: {"User": UserMessage},
// {"Agent": AgentMessage} or "Resume".
func (c *converter) message(raw json.RawMessage) {
	var m struct {
		User *struct {
			Content []map[string]json.RawMessage `json:"content"`
		} `json:"User"`
		Agent *struct {
			Content     []map[string]json.RawMessage `json:"content"`
			ToolResults map[string]json.RawMessage   `json:"tool_results"`
		} `json:"Agent"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		// "Resume" (a string: Zed asked the model to go on after an
		// interruption) and anything newer.
		var s string
		if json.Unmarshal(raw, &s) != nil {
			c.t.Malformed("%s", importer.DecodeProblem(err))
			return
		}
		c.t.Skip()
		return
	}
	switch {
	case m.User != nil:
		c.userMessage(m.User.Content)
	case m.Agent != nil:
		c.agentMessage(m.Agent.Content, m.Agent.ToolResults, raw)
	default:
		c.t.Skip()
	}
}

// userMessage: Text is what the person typed; a Mention (an @-file,
// symbol, thread, URL…) is named where it stood as @<target>, and what it
// attached (the file's text) is a second row of display kind agent; an
// Image is [image].
func (c *converter) userMessage(content []map[string]json.RawMessage) {
	var typed, attached []string
	for _, part := range content {
		switch {
		case part["Text"] != nil:
			var s string
			_ = json.Unmarshal(part["Text"], &s)
			typed = append(typed, s)
		case part["Mention"] != nil:
			var mn struct {
				URI     map[string]json.RawMessage `json:"uri"`
				Content string                     `json:"content"`
			}
			_ = json.Unmarshal(part["Mention"], &mn)
			typed = append(typed, "@"+mentionTarget(mn.URI))
			if strings.TrimSpace(mn.Content) != "" {
				attached = append(attached, mn.Content)
			}
		case part["Image"] != nil:
			typed = append(typed, "[image]")
		}
	}
	// The parts are the prompt as typed, a mention where it stood.
	text := strings.TrimSpace(strings.Join(typed, ""))
	if text == "" && len(attached) == 0 {
		c.t.Skip()
		return
	}
	kind := ""
	if c.sub && c.user == 0 {
		kind = store.DisplayKindAgent // the task the parent agent gave
	}
	c.user++
	if text != "" {
		c.add(store.Message{Role: "user", Content: text, DisplayKind: kind})
	}
	if len(attached) > 0 {
		c.add(store.Message{Role: "user", Content: strings.Join(attached, "\n\n"), DisplayKind: store.DisplayKindAgent})
	}
}

// mentionTarget names what a MentionUri points at ({"File":
// {"abs_path": …}}, {"Symbol": {"abs_path", "name", "line_range"}},
// {"Thread": {"id", "name"}}, {"Fetch": {"url"}}, …): its name, path or
// URL, else the variant.
func mentionTarget(uri map[string]json.RawMessage) string {
	for variant, raw := range uri {
		var f map[string]json.RawMessage
		if json.Unmarshal(raw, &f) != nil {
			return variant
		}
		for _, k := range []string{"name", "abs_path", "path", "url"} {
			var s string
			if json.Unmarshal(f[k], &s) == nil && s != "" {
				return s
			}
		}
		return variant
	}
	return "mention"
}

// agentMessage: Text is the reply, Thinking its reasoning (RedactedThinking
// has none to read), ToolUse a tool call; tool_results, keyed by the call,
// follow as tool rows in the calls' order.
func (c *converter) agentMessage(content []map[string]json.RawMessage, results map[string]json.RawMessage, raw json.RawMessage) {
	var texts, thoughts []string
	var calls []textutil.ToolCall
	var order []string
	for _, part := range content {
		switch {
		case part["Text"] != nil:
			var s string
			_ = json.Unmarshal(part["Text"], &s)
			texts = append(texts, s)
		case part["Thinking"] != nil:
			var th struct {
				Text string `json:"text"`
			}
			_ = json.Unmarshal(part["Thinking"], &th)
			thoughts = append(thoughts, th.Text)
		case part["ToolUse"] != nil:
			var tu struct {
				ID       string          `json:"id"`
				Name     string          `json:"name"`
				Input    json.RawMessage `json:"input"`
				RawInput string          `json:"raw_input"`
			}
			_ = json.Unmarshal(part["ToolUse"], &tu)
			args := tu.Input
			if len(args) == 0 || string(args) == "null" {
				args, _ = json.Marshal(tu.RawInput) // a call cut off while its input streamed
			}
			calls = append(calls, textutil.NewToolCall(tu.ID, tu.Name, args))
			order = append(order, tu.ID)
		}
	}
	m := store.Message{Role: "assistant", Content: strings.TrimSpace(strings.Join(texts, "")), Reasoning: strings.TrimSpace(strings.Join(thoughts, "\n\n")),
		ToolCalls: textutil.ToolCallsJSON(calls)}
	if m.Content != "" || m.Reasoning != "" || m.ToolCalls != "" {
		c.add(m)
	}
	c.toolResults(results, order, raw)
}

// toolResult is language_model's LanguageModelToolResult.
type toolResult struct {
	ToolUseID string          `json:"tool_use_id"`
	ToolName  string          `json:"tool_name"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
	Output    json.RawMessage `json:"output"`
}

// toolResults adds a tool row per result: those of the calls in order,
// then any other (serde_json keeps an IndexMap's order in the text, Go's
// map does not).
func (c *converter) toolResults(results map[string]json.RawMessage, order []string, raw json.RawMessage) {
	if len(results) == 0 {
		return
	}
	done := map[string]bool{}
	add := func(id string) {
		r, ok := results[id]
		if !ok || done[id] {
			return
		}
		done[id] = true
		var tr toolResult
		if err := json.Unmarshal(r, &tr); err != nil {
			c.t.Malformed("tool result %s: %s", id, importer.DecodeProblem(err))
			return
		}
		if tr.ToolUseID == "" {
			tr.ToolUseID = id
		}
		m := store.Message{Role: "tool", Content: resultText(tr.Content), ToolCallID: tr.ToolUseID, ToolName: tr.ToolName}
		if tr.IsError {
			m.FinishReason = "error"
		}
		c.add(m)
	}
	for _, id := range order {
		add(id)
	}
	var rest []string
	for id := range results {
		if !done[id] {
			rest = append(rest, id)
		}
	}
	// The rest in the order the document has them.
	sort.Slice(rest, func(i, j int) bool {
		return strings.Index(string(raw), `"`+rest[i]+`":`) < strings.Index(string(raw), `"`+rest[j]+`":`)
	})
	for _, id := range rest {
		add(id)
	}
}

// resultText reads a tool result's content in each shape Zed has written:
// a list of parts (the current LanguageModelToolResult), one part, or a
// string; a part is {"Text": s}, {"type": "text", "text": s}, {"text": s}
// or an image.
func resultText(raw json.RawMessage) string {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var list []json.RawMessage
	if raw[0] == '[' && json.Unmarshal(raw, &list) == nil {
		var parts []string
		for _, p := range list {
			if s := resultText(p); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return string(raw)
	}
	for k, v := range obj {
		switch strings.ToLower(k) {
		case "text":
			if json.Unmarshal(v, &s) == nil {
				return s
			}
		case "image", "source":
			return "[image]"
		}
	}
	return string(raw)
}

// legacyMessage reads a SerializedMessage of the older thread format:
// {id, role, segments: [{type: text|thinking, text}], tool_uses: [{id,
// name, input}], tool_results: [{tool_use_id, is_error, content, output}],
// context} (0.2.0; 0.1.0 put the results on the next user message; before
// that, text instead of segments).
func (c *converter) legacyMessage(raw json.RawMessage) {
	var m struct {
		Role     string `json:"role"`
		Text     string `json:"text"`
		Context  string `json:"context"`
		Hidden   bool   `json:"is_hidden"`
		Segments []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"segments"`
		ToolUses []struct {
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"tool_uses"`
		ToolResults []toolResult `json:"tool_results"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Malformed("%s", importer.DecodeProblem(err))
		return
	}
	var texts, thoughts []string
	if m.Text != "" {
		texts = append(texts, m.Text)
	}
	for _, s := range m.Segments {
		switch s.Type {
		case "text":
			texts = append(texts, s.Text)
		case "thinking":
			thoughts = append(thoughts, s.Text)
		}
	}
	names := map[string]string{}
	var calls []textutil.ToolCall
	for _, u := range m.ToolUses {
		calls = append(calls, textutil.NewToolCall(u.ID, u.Name, u.Input))
		names[u.ID] = u.Name
	}
	text := strings.TrimSpace(strings.Join(texts, ""))
	switch m.Role {
	case "user":
		if text != "" {
			kind := ""
			if m.Hidden {
				kind = store.DisplayKindAgent
			}
			c.add(store.Message{Role: "user", Content: text, DisplayKind: kind})
		}
		if strings.TrimSpace(m.Context) != "" {
			c.add(store.Message{Role: "user", Content: m.Context, DisplayKind: store.DisplayKindAgent})
		}
	case "assistant":
		if a := (store.Message{Role: "assistant", Content: text, Reasoning: strings.TrimSpace(strings.Join(thoughts, "\n\n")), ToolCalls: textutil.ToolCallsJSON(calls)}); a.Content != "" || a.Reasoning != "" || a.ToolCalls != "" {
			c.add(a)
		}
	default:
		c.t.Skip()
		return
	}
	for _, r := range m.ToolResults {
		tm := store.Message{Role: "tool", Content: resultText(r.Content), ToolCallID: r.ToolUseID, ToolName: textutil.Join("", r.ToolName, names[r.ToolUseID])}
		if r.IsError {
			tm.FinishReason = "error"
		}
		c.add(tm)
	}
}
