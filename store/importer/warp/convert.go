package warp

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// conversationData is the conversation_data column: the JSON of
// AgentConversationData (crates/persistence/src/model.rs).
type conversationData struct {
	ParentConversationID string `json:"parent_conversation_id"`
	AgentName            string `json:"agent_name"`
	Usage                *struct {
		CostCents  *float64 `json:"total_provider_cost_in_cents"`
		TokenUsage []struct {
			ModelID string `json:"model_id"`
		} `json:"token_usage"`
	} `json:"conversation_usage_metadata"`
}

// summaryData is the summary column: AgentConversationSummary, derived by
// Warp from the tasks when it writes them.
type summaryData struct {
	Title                   string `json:"title"`
	InitialWorkingDirectory string `json:"initial_working_directory"`
	UnlistedAutoCodeDiff    bool   `json:"is_unlisted_auto_code_diff"`
}

// converter turns a task's messages into rows.
type converter struct {
	id    string
	t     *importer.Tally
	out   []store.Message
	n     int
	ts    time.Time // the time of the message being read (the last known one when it has none)
	sub   bool      // a sub-agent's task or an orchestrated agent: its first prompt is its parent's
	user  int
	cwd   string
	model string
	names map[string]string // tool call id → tool name
	key   string            // the id of the message being read
	qs    []query           // the conversation's prompts in ai_queries, each used once

	// the assistant's messages since the last prompt or tool result,
	// gathered into one row
	texts, thoughts []string
	calls           []textutil.ToolCall
	callAt          time.Time
	callKey         string
}

// add appends a row; its source key is the Warp message's id (a prompt's
// the exchange_id of its ai_queries row, so that the prompts ai_queries
// keeps of a conversation Warp deleted are the same rows).
func (c *converter) add(m store.Message, key string) {
	c.n++
	if key == "" {
		key = fmt.Sprint(c.n)
	}
	m.SessionID, m.SourceKey = c.id, "warp:"+c.id+":"+key
	if m.Timestamp.IsZero() {
		m.Timestamp = c.ts
	}
	c.out = append(c.out, m)
}

// flush writes the gathered assistant row.
func (c *converter) flush() {
	if len(c.texts) == 0 && len(c.thoughts) == 0 && len(c.calls) == 0 {
		return
	}
	c.add(store.Message{Role: "assistant", Content: strings.TrimSpace(strings.Join(c.texts, "\n\n")),
		Reasoning: strings.TrimSpace(strings.Join(c.thoughts, "\n\n")), ToolCalls: textutil.ToolCallsJSON(c.calls), Timestamp: c.callAt}, c.callKey)
	c.texts, c.thoughts, c.calls, c.callAt, c.callKey = nil, nil, nil, time.Time{}, ""
}

// assistant notes the time of the gathered row's first message.
func (c *converter) assistant() {
	if c.callAt.IsZero() {
		c.callAt, c.callKey = c.ts, c.key
	}
}

// prompt adds a user row; the first one of a sub-agent is of display kind
// agent (its parent wrote it).
func (c *converter) prompt(text, kind string) {
	c.flush()
	if strings.TrimSpace(text) == "" {
		c.t.Skip()
		return
	}
	if kind == "" && c.sub && c.user == 0 {
		kind = store.DisplayKindAgent
	}
	if kind == "" {
		c.user++
	}
	key := c.key
	for i, q := range c.qs {
		if q.text == text {
			key = "q:" + q.exchange
			c.qs = append(c.qs[:i:i], c.qs[i+1:]...)
			break
		}
	}
	c.add(store.Message{Role: "user", Content: text, DisplayKind: kind}, key)
}

// context reads an InputContext (input_context.proto): directory = 1
// {pwd = 1}.
func (c *converter) context(b pb, ok bool) {
	if !ok {
		return
	}
	if d, ok := b.msg(1); ok && c.cwd == "" {
		c.cwd = d.str(1)
	}
}

// message reads one Message of a task (task.proto, message Message): its
// timestamp (14) and the case of its oneof message.
func (c *converter) message(b pb) {
	if _, err := b.fields(); err != nil {
		c.t.Malformed("message: %v", err)
		return
	}
	c.key = b.str(1)
	if ts, ok := b.msg(14); ok {
		if sec, nsec := timestamp(ts); sec > 0 {
			c.ts = time.Unix(sec, nsec).UTC()
		}
	}
	switch {
	case b.has(2): // user_query: query = 1, context = 2
		q, _ := b.msg(2)
		c.context(q.msg(2))
		c.prompt(q.str(1), "")
	case b.has(3): // agent_output: text = 1
		o, _ := b.msg(3)
		c.assistant()
		c.texts = append(c.texts, o.str(1))
	case b.has(15): // agent_reasoning: reasoning = 1
		r, _ := b.msg(15)
		c.assistant()
		c.thoughts = append(c.thoughts, r.str(1))
	case b.has(4): // tool_call: tool_call_id = 1, the tool's oneof
		tc, _ := b.msg(4)
		c.toolCall(tc)
	case b.has(5): // tool_call_result: tool_call_id = 1, context = 11, the result's oneof
		r, _ := b.msg(5)
		c.toolResult(r)
	case b.has(9): // system_query: the type's oneof, context = 2
		q, _ := b.msg(9)
		c.context(q.msg(2))
		c.systemQuery(q)
	case b.has(16): // summarization: conversation_summary = 1 {summary = 1}
		s, _ := b.msg(16)
		if cs, ok := s.msg(1); ok {
			c.prompt(cs.str(1), store.DisplayKindCompaction)
		} else {
			c.t.Skip()
		}
	case b.has(25): // model_used: model_id = 1
		mu, _ := b.msg(25)
		if id := mu.str(1); id != "" {
			c.model = id
		}
	case b.has(23): // invoke_skill: skill = 1, user_query = 2 {query = 1}
		is, _ := b.msg(23)
		q, _ := is.msg(2)
		c.context(q.msg(2))
		c.prompt(q.str(1), "")
	case b.has(24): // messages_received_from_agents: messages = 1 {sender_agent_id = 2, subject = 4, message_body = 5}
		mr, _ := b.msg(24)
		var parts []string
		for _, m := range mr.all(1) {
			parts = append(parts, textutil.Join("\n\n", "from "+m.str(2)+": "+m.str(4), m.str(5)))
		}
		c.prompt(strings.Join(parts, "\n\n"), store.DisplayKindAgent)
	case b.has(19): // web_search: status = 1 {searching = 1, success = 2 {query = 1, pages = 2 {url = 1, title = 2}}, error = 3}
		ws, _ := b.msg(19)
		st, _ := ws.msg(1)
		c.web(b.str(1), "web_search", st, func(ok pb) (map[string]any, string) {
			return map[string]any{"query": ok.str(1)}, pages(ok.all(2))
		})
	case b.has(20): // web_fetch: status = 1 {fetching = 1 {urls = 1}, success = 2 {pages = 1 {url = 1, title = 2, success = 3}}, error = 3}
		wf, _ := b.msg(20)
		st, _ := wf.msg(1)
		c.web(b.str(1), "web_fetch", st, func(ok pb) (map[string]any, string) {
			var urls []string
			for _, p := range ok.all(1) {
				urls = append(urls, p.str(1))
			}
			return map[string]any{"urls": urls}, pages(ok.all(1))
		})
	default:
		// server_event, update_todos, code_review, debug_output,
		// artifact_event, events_from_agents, passive suggestions, …
		c.t.Skip()
	}
}

// toolCall gathers one call into the assistant's row: its name is the
// oneof's case (an MCP tool's own name for call_mcp_tool), its arguments
// the case's fields.
func (c *converter) toolCall(tc pb) {
	id := tc.str(1)
	num, body, ok := tc.oneof(callNames)
	if !ok {
		c.t.Skip() // a tool newer than these
		return
	}
	tool := callTools[num]
	name, args := tool.name, decode(body, tool.args)
	if num == 12 { // CallMCPTool: name = 1, args = 2, server_id = 3
		if n, _ := args["name"].(string); n != "" {
			name = n
			a, _ := args["args"].(map[string]any)
			if a == nil {
				a = map[string]any{}
			}
			args = a
		}
	}
	raw, _ := json.Marshal(args)
	c.assistant()
	c.calls = append(c.calls, textutil.NewToolCall(id, name, raw))
	c.names[id] = name
}

// toolResult adds a tool row for one ToolCallResult.
func (c *converter) toolResult(r pb) {
	c.flush()
	c.context(r.msg(11))
	id := r.str(1)
	num, body, ok := r.oneof(resultNames)
	if !ok {
		c.t.Skip()
		return
	}
	text, failed := resultText(num, body)
	name := c.names[id]
	if name == "" {
		name = resultNames[num]
	}
	m := store.Message{Role: "tool", Content: text, ToolCallID: id, ToolName: name}
	switch {
	case num == 14:
		m.FinishReason = "canceled"
	case failed:
		m.FinishReason = "error"
	}
	c.add(m, c.key)
}

// systemQuery reads a prompt Warp's client sent for the person
// (SystemQuery's oneof type): auto_code_diff = 1 {query = 1} (a fix Warp
// offered for a failed command: display kind agent), create_new_project =
// 5 {query = 1}, clone_repository = 6 {url = 1}, summarize_conversation =
// 7 {prompt = 1} (display kind command); resume_conversation (3),
// passive suggestions (4), review comments (8) and a hand-off's hidden
// instructions (9) are not prompts.
func (c *converter) systemQuery(q pb) {
	switch {
	case q.has(1):
		x, _ := q.msg(1)
		c.prompt(x.str(1), store.DisplayKindAgent)
	case q.has(5):
		x, _ := q.msg(5)
		c.prompt(x.str(1), "")
	case q.has(6):
		x, _ := q.msg(6)
		c.prompt("clone "+x.str(1), store.DisplayKindCommand)
	case q.has(7):
		x, _ := q.msg(7)
		c.prompt(textutil.Join(": ", "summarize conversation", x.str(1)), store.DisplayKindCommand)
	default:
		c.t.Skip()
	}
}

// web adds a web search or fetch that finished as a call and its result;
// one still under way (searching, fetching) is skipped.
func (c *converter) web(id, name string, status pb, success func(pb) (map[string]any, string)) {
	switch {
	case status.has(2):
		ok, _ := status.msg(2)
		args, text := success(ok)
		raw, _ := json.Marshal(args)
		c.assistant()
		c.calls = append(c.calls, textutil.NewToolCall(id, name, raw))
		c.flush()
		c.add(store.Message{Role: "tool", Content: text, ToolCallID: id, ToolName: name}, c.key+":result")
	case status.has(3):
		c.assistant()
		c.calls = append(c.calls, textutil.NewToolCall(id, name, json.RawMessage(`{}`)))
		c.flush()
		c.add(store.Message{Role: "tool", Content: "[error]", ToolCallID: id, ToolName: name, FinishReason: "error"}, c.key+":result")
	default:
		c.t.Skip()
	}
}

// pages lists searched or fetched pages (url = 1, title = 2).
func pages(ps []pb) string {
	var lines []string
	for _, p := range ps {
		lines = append(lines, textutil.Join(" ", p.str(2), p.str(1)))
	}
	return strings.Join(lines, "\n")
}

// convert builds one session: a conversation from its root tasks, or a
// sub-agent's task; qs are the conversation's ai_queries rows.
func convert(hd head, data, modified, summary string, tasks []pb, qs []query, t *importer.Tally) (export.Conversation, bool) {
	var d conversationData
	if data != "" {
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			t.Malformed("conversation %s: conversation_data: %s", hd.conv, importer.DecodeProblem(err))
		}
	}
	var sum summaryData
	_ = json.Unmarshal([]byte(summary), &sum)
	if hd.task != "" {
		sum = summaryData{InitialWorkingDirectory: sum.InitialWorkingDirectory} // the conversation's title is not the sub-agent's
		d.AgentName = ""
	}
	id := hd.conv
	if hd.task != "" {
		id = hd.task
	}
	sess := store.Session{ID: id, Source: SourceName, ParentID: hd.parent}
	if hd.parent != "" {
		sess.ModelConfig = textutil.DelegatedFrom(hd.parent)
	}
	c := &converter{id: id, t: t, sub: hd.parent != "", names: map[string]string{}}
	if hd.task == "" {
		c.qs = append([]query(nil), qs...)
	}
	if len(qs) > 0 {
		c.ts = qs[0].at
	}
	if c.ts.IsZero() {
		c.ts = sqliteTime(modified)
	}
	var desc string
	for _, task := range tasks {
		parent, dsc := taskPrefix(task)
		if hd.task == "" && parent != "" {
			continue // a sub-agent's: a session of its own
		}
		if desc == "" {
			desc = dsc
		}
		for i, m := range task.all(5) { // messages = 5
			t.Line = i + 1
			c.message(m)
		}
	}
	c.flush()
	if len(c.out) == 0 && hd.task == "" && len(qs) > 0 {
		// Tasks gone (or never written): the prompts are what is left.
		return fromQueries(hd.conv, qs, t)
	}
	if len(c.out) == 0 {
		t.Skip()
		return export.Conversation{}, false
	}
	if hd.task == "" && sum.UnlistedAutoCodeDiff && c.user == 0 {
		t.Skip() // only fixes Warp offered for failed commands: Warp lists it nowhere
		return export.Conversation{}, false
	}
	sess.StartedAt = c.out[0].Timestamp
	sess.EndedAt = c.out[len(c.out)-1].Timestamp
	if hd.task == "" {
		if m := sqliteTime(modified); m.After(sess.EndedAt) {
			sess.EndedAt = m
		}
	}
	sess.Title = textutil.Title(firstOf(sum.Title, desc, d.AgentName))
	if sess.Title == "" {
		sess.Title = textutil.PromptTitle(c.out)
	}
	sess.Cwd = firstOf(sum.InitialWorkingDirectory, c.cwd)
	sess.Model = c.model
	for _, q := range qs {
		if sess.Cwd == "" {
			sess.Cwd = q.cwd
		}
		if sess.Model == "" && q.model != "" && hd.task == "" {
			sess.Model = q.model
		}
	}
	if d.Usage != nil && hd.task == "" {
		if sess.Model == "" && len(d.Usage.TokenUsage) > 0 {
			sess.Model = d.Usage.TokenUsage[0].ModelID
		}
		if d.Usage.CostCents != nil {
			sess.ActualCostUSD = *d.Usage.CostCents / 100
		}
	}
	return export.Conversation{Session: sess, Messages: c.out}, true
}

// fromQueries is a conversation of which only the prompts are left in
// ai_queries (Warp deleted its tasks, or wrote none yet).
func fromQueries(conv string, qs []query, t *importer.Tally) (export.Conversation, bool) {
	c := &converter{id: conv, t: t, names: map[string]string{}}
	sess := store.Session{ID: conv, Source: SourceName}
	for _, q := range qs {
		c.ts, c.key = q.at, "q:"+q.exchange
		c.prompt(q.text, "")
		if sess.Cwd == "" {
			sess.Cwd = q.cwd
		}
		if q.model != "" {
			sess.Model = q.model
		}
	}
	if len(c.out) == 0 {
		return export.Conversation{}, false
	}
	sess.StartedAt, sess.EndedAt = c.out[0].Timestamp, c.out[len(c.out)-1].Timestamp
	sess.Title = textutil.Title(c.out[0].Content)
	return export.Conversation{Session: sess, Messages: c.out}, true
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
