package cline

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// message is one Anthropic-shaped message as Cline stores it.
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	TS      int64           `json:"ts"`
	// IsSummary marks the summary Roo Code writes when it condenses a
	// task (src/core/condense/index.ts), sent as a user message.
	IsSummary bool `json:"isSummary"`
	ModelInfo *struct {
		ID      string `json:"id"`
		ModelID string `json:"modelId"`
	} `json:"modelInfo"`
	Metrics *struct {
		InputTokens      int64 `json:"inputTokens"`
		OutputTokens     int64 `json:"outputTokens"`
		CacheReadTokens  int64 `json:"cacheReadTokens"`
		CacheWriteTokens int64 `json:"cacheWriteTokens"`
		Tokens           *struct {
			Prompt     int64 `json:"prompt"`
			Completion int64 `json:"completion"`
			Cached     int64 `json:"cached"`
		} `json:"tokens"`
	} `json:"metrics"`
}

// block is one content block.
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

type parser struct {
	file    string
	m       meta
	msgs    []store.Message
	n       int
	pending map[string]string // tool_use id -> name
	xml     []xmlCall         // task format: calls waiting for their result
	in, out int64
	cr, cw  int64
	first   time.Time
	last    time.Time
	typed   int // user messages typed so far (a sub-task's first is its parent's)
}

type xmlCall struct{ id, name string }

func newParser(file string) *parser { return &parser{file: file, pending: map[string]string{}} }

// Restore is never called: the file is always read whole.
func (p *parser) Restore(json.RawMessage) error { return nil }

// Line reads the meta line or one message.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var line struct {
		Meta *meta            `json:"meta"`
		M    *json.RawMessage `json:"m"`
	}
	if err := json.Unmarshal(text, &line); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if line.Meta != nil {
		p.m = *line.Meta
		return nil
	}
	if line.M == nil {
		t.Skip("records without a message")
		return nil
	}
	p.n++
	var msg message
	if err := json.Unmarshal(*line.M, &msg); err != nil {
		t.Malformed("message %d: %s", p.n, importer.DecodeProblem(err))
		return nil
	}
	ts := time.Time{}
	if msg.TS > 0 {
		ts = time.UnixMilli(msg.TS).UTC()
		if p.first.IsZero() {
			p.first = ts
		}
		p.last = ts
	}
	key := fmt.Sprintf("%s:%s:%d", p.source(), p.m.ID, p.n)
	switch msg.Role {
	case "assistant":
		p.assistant(msg, ts, key)
	case "user":
		p.user(msg, ts, key)
	default:
		t.Skip(msg.Role + " messages")
	}
	return nil
}

// blocks reads content that is a string or a list of blocks.
func blocks(raw json.RawMessage) []block {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []block{{Type: "text", Text: s}}
		}
		return nil
	}
	var bs []block
	_ = json.Unmarshal(raw, &bs)
	return bs
}

func (p *parser) assistant(msg message, ts time.Time, key string) {
	if mi := msg.ModelInfo; mi != nil {
		if id := textutil.Join("", mi.ID, mi.ModelID); id != "" {
			p.m.Model = id
		}
	}
	m := store.Message{SessionID: p.m.ID, Role: "assistant", Timestamp: ts, SourceKey: key}
	if mt := msg.Metrics; mt != nil {
		in, out, cr, cw := mt.InputTokens, mt.OutputTokens, mt.CacheReadTokens, mt.CacheWriteTokens
		if tk := mt.Tokens; tk != nil {
			in, out, cr = tk.Prompt, tk.Completion, tk.Cached
		}
		p.in, p.out, p.cr, p.cw = p.in+in, p.out+out, p.cr+cr, p.cw+cw
		m.TokenCount = int(out)
	}
	var texts, thoughts []string
	var calls []textutil.ToolCall
	for _, b := range blocks(msg.Content) {
		switch b.Type {
		case "text":
			if p.m.Task {
				text, thought := thinkingTags(b.Text)
				if thought != "" {
					thoughts = append(thoughts, thought)
				}
				text, xc := p.xmlCalls(text, len(calls))
				texts = append(texts, text)
				calls = append(calls, xc...)
			} else {
				texts = append(texts, b.Text)
			}
		case "thinking", "reasoning", "redacted_thinking":
			thoughts = append(thoughts, textutil.Join("", b.Thinking, b.Text))
		case "tool_use":
			p.pending[b.ID] = b.Name
			if answer, ok := completion(b); ok {
				// A native attempt_completion (Roo Code) carries the
				// answer, as its XML form does.
				texts = append(texts, answer)
				continue
			}
			calls = append(calls, textutil.NewToolCall(b.ID, b.Name, b.Input))
		}
	}
	m.Content = strings.TrimSpace(textutil.Join("\n\n", texts...))
	m.Reasoning = textutil.Join("\n\n", thoughts...)
	m.ToolCalls = textutil.ToolCallsJSON(calls)
	if m.Content != "" || m.ToolCalls != "" || m.Reasoning != "" {
		p.msgs = append(p.msgs, m)
	}
}

// thinkingRE is the task format's reasoning, written in the reply's text
// by models that had no thinking of their own.
var thinkingRE = regexp.MustCompile(`(?s)<thinking>(.*?)</thinking>`)

// thinkingTags takes the <thinking> parts out of a task-format reply.
func thinkingTags(text string) (rest, thought string) {
	var parts []string
	for _, mm := range thinkingRE.FindAllStringSubmatch(text, -1) {
		parts = append(parts, strings.TrimSpace(mm[1]))
	}
	if len(parts) == 0 {
		return text, ""
	}
	return thinkingRE.ReplaceAllString(text, ""), strings.Join(parts, "\n\n")
}

// completion is the answer of an attempt_completion tool call (its result)
// or plan_mode_respond (its response).
func completion(b block) (string, bool) {
	var in struct {
		Result   *string `json:"result"`
		Response *string `json:"response"`
	}
	if json.Unmarshal(b.Input, &in) != nil {
		return "", false
	}
	switch {
	case b.Name == "attempt_completion" && in.Result != nil:
		return *in.Result, true
	case b.Name == "plan_mode_respond" && in.Response != nil:
		return *in.Response, true
	}
	return "", false
}

var (
	// userInputRE is Cline 3's wrapper around what the person typed.
	userInputRE = regexp.MustCompile(`(?s)<user_input(?: [^>]*)?>(.*?)</user_input>`)
	// typedRE are the task format's wrappers around typed text: the task,
	// feedback on a result, an answer to a question.
	typedRE = regexp.MustCompile(`(?s)^\s*<(task|feedback|answer|user_message)>\s*(.*?)\s*</(?:task|feedback|answer|user_message)>`)
	// answerRE is a tool result that is only the person's words.
	answerRE = regexp.MustCompile(`(?s)^\s*<user_message>(.*)</user_message>\s*$`)
	// cwdRE is where the extensions' environment details name the
	// workspace a task runs in.
	cwdRE = regexp.MustCompile(`# Current Working Directory \(([^)\n]+)\) Files`)
	// resultRE starts a task-format tool result: "[read_file for 'x'] Result:".
	resultRE = regexp.MustCompile(`(?s)^\[([a-z_]+)(?: for '.*?')?\] Result:\s*`)
)

// user handles a user message: tool results, what the person typed, and
// what Cline wrote itself into the turn (environment details, reminders,
// errors, resumption notes), kept as one message of display kind agent.
func (p *parser) user(msg message, ts time.Time, key string) {
	var typed, agent []string
	tools := 0
	// open is the tool row of a "[tool] Result:" block that stood alone:
	// the extensions until 2025 wrote the result as the next block
	// (Roo Code's presentAssistantMessage.ts pushToolResult at 7cea2e8).
	open := -1
	for i, b := range blocks(msg.Content) {
		if open >= 0 && b.Type == "text" {
			body := strings.TrimSpace(b.Text)
			p.msgs[open].Content = body
			if failedText(body) || strings.Contains(body, "<error>") {
				p.msgs[open].FinishReason = "error"
			}
			open = -1
			continue
		}
		open = -1
		switch b.Type {
		case "tool_result":
			name := b.Name
			if name == "" {
				name = p.pending[b.ToolUseID]
			}
			text, failed := resultText(b.Content)
			if p.m.Task {
				if mm := answerRE.FindStringSubmatch(text); mm != nil {
					// The person's answer to a question or to a
					// completion (Roo Code's AskFollowupQuestionTool,
					// AttemptCompletionTool): typed, not a tool's output.
					typed = append(typed, strings.TrimSpace(mm[1]))
					continue
				}
			}
			tm := store.Message{SessionID: p.m.ID, Role: "tool", Content: text, ToolCallID: b.ToolUseID, ToolName: name,
				Timestamp: ts, SourceKey: fmt.Sprintf("%s:tool:%d", key, i)}
			if failed || b.IsError || failedText(text) {
				tm.FinishReason = "error"
			}
			p.msgs = append(p.msgs, tm)
			tools++
		case "text":
			t := b.Text
			switch {
			case userInputRE.MatchString(t) && !p.m.Agent:
				for _, mm := range userInputRE.FindAllStringSubmatch(t, -1) {
					typed = append(typed, strings.TrimSpace(mm[1]))
				}
				if rest := strings.TrimSpace(userInputRE.ReplaceAllString(t, "")); rest != "" {
					agent = append(agent, rest)
				}
			case p.m.Task && typedRE.MatchString(t):
				mm := typedRE.FindStringSubmatchIndex(t)
				typed = append(typed, t[mm[4]:mm[5]])
				if rest := strings.TrimSpace(t[mm[1]:]); rest != "" {
					agent = append(agent, rest)
				}
			case p.m.Task && resultRE.MatchString(t):
				mm := resultRE.FindStringSubmatchIndex(t)
				name := t[mm[2]:mm[3]]
				body := strings.TrimSpace(t[mm[1]:])
				tm := store.Message{SessionID: p.m.ID, Role: "tool", Content: body, ToolName: name, ToolCallID: p.takeXML(name),
					Timestamp: ts, SourceKey: fmt.Sprintf("%s:tool:%d", key, i)}
				if failedText(body) || strings.Contains(body, "<error>") {
					tm.FinishReason = "error"
				}
				p.msgs = append(p.msgs, tm)
				tools++
				if body == "" {
					open = len(p.msgs) - 1
				}
			case strings.TrimSpace(t) != "":
				agent = append(agent, strings.TrimSpace(t))
				if mm := cwdRE.FindStringSubmatch(t); mm != nil && p.m.Cwd == "" {
					p.m.Cwd = mm[1]
				}
			}
		case "image":
			typed = append(typed, "[image]")
		}
	}
	if msg.IsSummary {
		// The condensed history: what the person typed and the
		// environment details alike are the summary's.
		summary := append(typed, agent...)
		if len(summary) > 0 {
			p.msgs = append(p.msgs, store.Message{SessionID: p.m.ID, Role: "user", Content: strings.Join(summary, "\n\n"), Timestamp: ts, SourceKey: key, DisplayKind: store.DisplayKindCompaction})
		}
		return
	}
	if len(typed) > 0 {
		kind := ""
		if p.m.Agent && (!p.m.Task || p.typed == 0) {
			// A sub-agent's prompts are its parent's; in a task-format
			// sub-task only the first (the task the parent gave), the
			// rest are the person's answers.
			kind = store.DisplayKindAgent
		}
		p.typed++
		p.msgs = append(p.msgs, store.Message{SessionID: p.m.ID, Role: "user", Content: strings.Join(typed, "\n\n"), Timestamp: ts, SourceKey: key, DisplayKind: kind})
	}
	if len(agent) > 0 {
		k := key
		if len(typed) > 0 {
			k += ":agent"
		}
		p.msgs = append(p.msgs, store.Message{SessionID: p.m.ID, Role: "user", Content: strings.Join(agent, "\n\n"), Timestamp: ts, SourceKey: k, DisplayKind: store.DisplayKindAgent})
	}
}

// failedText reports a tool result that says the tool failed: Cline's
// "The tool execution failed …", or Roo Code's JSON answers
// {"status":"error"|"denied", …} (src/core/prompts/responses.ts).
func failedText(text string) bool {
	if strings.HasPrefix(text, "The tool execution failed") {
		return true
	}
	if !strings.HasPrefix(text, `{"status":`) {
		return false
	}
	var r struct {
		Status string `json:"status"`
	}
	return json.Unmarshal([]byte(text), &r) == nil && (r.Status == "error" || r.Status == "denied")
}

// resultText flattens a tool_result's content: a string, text blocks, or
// Cline 3's [{query, result, error, success}]; failed is true when a
// result says it failed.
func resultText(raw json.RawMessage) (string, bool) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s, false
	}
	var items []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Query   string          `json:"query"`
		Result  json.RawMessage `json:"result"`
		Error   string          `json:"error"`
		Success *bool           `json:"success"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return string(raw), false
	}
	var out []string
	failed := false
	for _, it := range items {
		switch {
		case it.Type == "text":
			out = append(out, it.Text)
		case it.Type == "image":
			out = append(out, "[image]")
		default:
			var r string
			if len(it.Result) > 0 && it.Result[0] == '"' {
				_ = json.Unmarshal(it.Result, &r)
			} else if len(it.Result) > 0 && string(it.Result) != "null" {
				r = string(it.Result)
			}
			out = append(out, textutil.Join("\n", strings.TrimRight(r, "\n"), it.Error))
			if it.Success != nil && !*it.Success {
				failed = true
			}
		}
	}
	return strings.Join(out, "\n"), failed
}

// xmlTools are the task format's tools, written as XML in the reply text
// (Cline's src/shared/tools.ts).
var xmlTools = map[string]bool{
	"execute_command": true, "read_file": true, "write_to_file": true, "replace_in_file": true, "search_files": true,
	"list_files": true, "list_code_definition_names": true, "browser_action": true, "use_mcp_tool": true,
	"access_mcp_resource": true, "ask_followup_question": true, "attempt_completion": true, "new_task": true,
	"plan_mode_respond": true, "load_mcp_documentation": true, "web_fetch": true, "condense": true,
	"summarize_task": true, "report_bug": true, "new_rule": true, "apply_diff": true, "insert_content": true,
	"search_and_replace": true, "switch_mode": true, "codebase_search": true, "update_todo_list": true,
}

// openRE is an opening tag of an XML tool call or parameter.
var openRE = regexp.MustCompile(`<([a-z_]+)>`)

// xmlCalls takes the XML tool calls out of a task-format reply: the text
// outside them stays, attempt_completion's result and plan_mode_respond's
// response are the answer, and every other tool becomes a call whose
// arguments are its parameters.
func (p *parser) xmlCalls(text string, n int) (string, []textutil.ToolCall) {
	var calls []textutil.ToolCall
	var rest strings.Builder
	last := 0
	for _, mm := range openRE.FindAllStringSubmatchIndex(text, -1) {
		name := text[mm[2]:mm[3]]
		if mm[0] < last || !xmlTools[name] {
			continue
		}
		closing := strings.Index(text[mm[1]:], "</"+name+">")
		if closing < 0 {
			continue // cut short: left as text
		}
		body := text[mm[1] : mm[1]+closing]
		rest.WriteString(text[last:mm[0]])
		last = mm[1] + closing + len("</"+name+">")
		params := map[string]string{}
		for _, pm := range openRE.FindAllStringSubmatchIndex(body, -1) {
			pn := body[pm[2]:pm[3]]
			if end := strings.Index(body[pm[1]:], "</"+pn+">"); end >= 0 {
				if _, dup := params[pn]; !dup {
					params[pn] = strings.Trim(body[pm[1]:pm[1]+end], "\n")
				}
			}
		}
		switch name {
		case "attempt_completion":
			rest.WriteString(params["result"])
			continue
		case "plan_mode_respond":
			rest.WriteString(params["response"])
			continue
		}
		args, _ := json.Marshal(params)
		id := fmt.Sprintf("xml:%s:%d:%d", p.m.ID, p.n, n+len(calls))
		calls = append(calls, textutil.NewToolCall(id, name, args))
		p.xml = append(p.xml, xmlCall{id: id, name: name})
	}
	rest.WriteString(text[last:])
	return strings.TrimSpace(rest.String()), calls
}

// takeXML is the id of the oldest call of tool name still waiting for its
// result.
func (p *parser) takeXML(name string) string {
	for i, c := range p.xml {
		if c.name == name {
			p.xml = append(p.xml[:i], p.xml[i+1:]...)
			return c.id
		}
	}
	return ""
}

// Result is the session with its totals and every message.
func (p *parser) Result() importer.Result {
	if p.m.ID == "" {
		return importer.Result{}
	}
	s := store.Session{
		ID: p.m.ID, Source: p.source(), Model: p.m.Model, Title: textutil.Title(p.m.Title), Cwd: p.m.Cwd,
		StartedAt: firstTime(textutil.ParseTime(p.m.Started), p.first), EndedAt: firstTime(textutil.ParseTime(p.m.Ended), p.last),
		InputTokens: p.in, OutputTokens: p.out, CacheReadTokens: p.cr, CacheWriteTokens: p.cw,
	}
	if p.in == 0 && p.out == 0 {
		s.InputTokens, s.OutputTokens, s.CacheReadTokens, s.CacheWriteTokens = p.m.In, p.m.Out, p.m.CacheRead, p.m.CacheWrite
		s.EstimatedCostUSD = p.m.Cost
	}
	if p.m.Agent && p.m.Parent != "" {
		s.ParentID = p.m.Parent
		raw, _ := json.Marshal(map[string]string{"_delegate_from": p.m.Parent})
		s.ModelConfig = string(raw)
		if s.Title == "" {
			for _, m := range p.msgs {
				if m.Role == "user" {
					s.Title = textutil.Title(m.Content)
					break
				}
			}
		}
	}
	if s.Title == "" && p.m.Task {
		s.Title = textutil.Title(strings.TrimSuffix(filepath.Base(p.file), ".json"))
		s.Title = textutil.PromptTitle(p.msgs)
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: p.msgs}
}

// source is the session source the meta line names, else SourceName.
func (p *parser) source() string {
	if p.m.Source != "" {
		return p.m.Source
	}
	return SourceName
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}
