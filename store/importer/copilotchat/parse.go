package copilotchat

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// request is one turn of ISerializableChatRequestData, the fields recall reads.
type request struct {
	RequestID string          `json:"requestId"`
	Message   json.RawMessage `json:"message"` // {text, parts}; a string in the oldest sessions
	Variables struct {
		Variables []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
		} `json:"variables"`
	} `json:"variableData"`
	Response   []json.RawMessage `json:"response"`
	Result     *result           `json:"result"`
	IsCanceled bool              `json:"isCanceled"`
	Timestamp  int64             `json:"timestamp"`
	ModelID    string            `json:"modelId"`
	Usage      *struct {
		PromptTokens     int64 `json:"promptTokens"`
		CompletionTokens int64 `json:"completionTokens"`
	} `json:"usage"`
}

// result is IChatAgentResult with Copilot Chat's metadata (IResultMetadata).
type result struct {
	ErrorDetails *struct {
		Message string `json:"message"`
	} `json:"errorDetails"`
	Metadata *struct {
		ToolCallRounds  []round                    `json:"toolCallRounds"`
		ToolCallResults map[string]json.RawMessage `json:"toolCallResults"`
		PromptTokens    int64                      `json:"promptTokens"`
		OutputTokens    int64                      `json:"outputTokens"`
		Summaries       []struct {
			Text string `json:"text"`
		} `json:"summaries"`
		Summary *struct {
			Text string `json:"text"`
		} `json:"summary"`
	} `json:"metadata"`
}

// round is IToolCallRound: what the model said, thought and called once.
type round struct {
	ID        string `json:"id"`
	Response  string `json:"response"`
	Timestamp int64  `json:"timestamp"`
	ToolCalls []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"toolCalls"`
	Thinking *struct {
		Text json.RawMessage `json:"text"` // a string or a list of them
	} `json:"thinking"`
}

// part is a response part: IMarkdownString ({value}) or a kind.
type part struct {
	Kind    string          `json:"kind"`
	Value   json.RawMessage `json:"value"`
	Content *struct {
		Value string `json:"value"`
	} `json:"content"`
	InlineReference   json.RawMessage `json:"inlineReference"`
	Name              string          `json:"name"`
	ToolID            string          `json:"toolId"`
	ToolCallID        string          `json:"toolCallId"`
	PastTenseMessage  json.RawMessage `json:"pastTenseMessage"`
	InvocationMessage json.RawMessage `json:"invocationMessage"`
	ResultDetails     json.RawMessage `json:"resultDetails"`
	ToolSpecificData  json.RawMessage `json:"toolSpecificData"`
}

type parser struct {
	file    string
	m       meta
	n       int
	msgs    []store.Message
	in, out int64
	model   string
	first   time.Time
	last    time.Time
}

func newParser(file string) *parser { return &parser{file: file} }

// Restore is never called: the file is always read whole.
func (p *parser) Restore(json.RawMessage) error { return nil }

func (p *parser) add(m store.Message, ts time.Time, key string) {
	m.SessionID, m.Timestamp, m.SourceKey = p.m.ID, ts, fmt.Sprintf("copilot-chat:%s:%s", p.m.ID, key)
	p.msgs = append(p.msgs, m)
}

// Line reads the meta line or one request.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var line struct {
		Meta *meta            `json:"meta"`
		Req  *json.RawMessage `json:"req"`
	}
	if err := json.Unmarshal(text, &line); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if line.Meta != nil {
		p.m = *line.Meta
		return nil
	}
	if line.Req == nil {
		t.Skip()
		return nil
	}
	p.n++
	var r request
	if err := json.Unmarshal(*line.Req, &r); err != nil {
		t.Malformed("request %d: %s", p.n, importer.DecodeProblem(err))
		return nil
	}
	ts := time.Time{}
	if r.Timestamp > 0 {
		ts = time.UnixMilli(r.Timestamp).UTC()
		if p.first.IsZero() {
			p.first = ts
		}
		p.last = ts
	}
	if r.ModelID != "" {
		p.model = r.ModelID
	}
	id := r.RequestID
	if id == "" {
		id = fmt.Sprintf("request%d", p.n)
	}
	p.user(r, ts, id)
	p.reply(r, ts, id, t)
	return nil
}

// user adds the prompt, with the files and symbols attached to it named.
func (p *parser) user(r request, ts time.Time, id string) {
	var msg struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(r.Message, &msg) != nil {
		_ = json.Unmarshal(r.Message, &msg.Text) // the oldest sessions: a string
	}
	text := strings.TrimSpace(msg.Text)
	for _, v := range r.Variables.Variables {
		if v.Name != "" && !strings.Contains(text, v.Name) && !strings.HasPrefix(v.Kind, "prompt") {
			text = textutil.Join("\n", text, "[attached: "+v.Name+"]")
		}
	}
	if text != "" {
		p.add(store.Message{Role: "user", Content: text}, ts, id+":user")
	}
}

// reply adds what answered the prompt: from Copilot Chat's tool-call rounds
// when the result keeps them (each round's text, thinking and calls, then
// the calls' results), else from the response parts VS Code shows.
func (p *parser) reply(r request, ts time.Time, id string, t *importer.Tally) {
	var md = r.Result
	in, tokens := int64(0), int64(0)
	if md != nil && md.Metadata != nil {
		in, tokens = md.Metadata.PromptTokens, md.Metadata.OutputTokens
		for i, s := range md.Metadata.Summaries {
			if strings.TrimSpace(s.Text) != "" {
				p.add(store.Message{Role: "user", Content: s.Text, DisplayKind: store.DisplayKindCompaction}, ts, fmt.Sprintf("%s:summary:%d", id, i))
			}
		}
		if md.Metadata.Summary != nil && len(md.Metadata.Summaries) == 0 && strings.TrimSpace(md.Metadata.Summary.Text) != "" {
			p.add(store.Message{Role: "user", Content: md.Metadata.Summary.Text, DisplayKind: store.DisplayKindCompaction}, ts, id+":summary")
		}
	}
	if in == 0 && tokens == 0 && r.Usage != nil {
		in, tokens = r.Usage.PromptTokens, r.Usage.CompletionTokens
	}
	p.in += in
	p.out += tokens
	parts := make([]part, 0, len(r.Response))
	for _, raw := range r.Response {
		var pt part
		if json.Unmarshal(raw, &pt) == nil {
			parts = append(parts, pt)
		}
	}
	start := len(p.msgs)
	if md != nil && md.Metadata != nil && len(md.Metadata.ToolCallRounds) > 0 {
		p.rounds(md.Metadata.ToolCallRounds, md.Metadata.ToolCallResults, parts, ts, id)
	} else {
		p.parts(parts, ts, id)
	}
	if r.IsCanceled || (md != nil && md.ErrorDetails != nil && md.ErrorDetails.Message != "") {
		reason, text := "canceled", "[canceled]"
		if !r.IsCanceled && md != nil && md.ErrorDetails != nil && md.ErrorDetails.Message != "" {
			reason, text = "error", "[error] "+md.ErrorDetails.Message
		}
		if last := p.lastAssistant(start); last >= 0 {
			p.msgs[last].FinishReason = reason
			if p.msgs[last].Content == "" && reason == "error" {
				p.msgs[last].Content = text
			}
		} else {
			p.add(store.Message{Role: "assistant", Content: text, FinishReason: reason}, ts, id+":answer")
		}
	}
	if last := p.lastAssistant(start); last >= 0 {
		p.msgs[last].TokenCount = int(tokens)
	} else if len(p.msgs) == start {
		t.Skip() // a prompt with no answer (still running, or removed)
	}
}

func (p *parser) lastAssistant(from int) int {
	for i := len(p.msgs) - 1; i >= from; i-- {
		if p.msgs[i].Role == "assistant" {
			return i
		}
	}
	return -1
}

// rounds adds one assistant row per tool-call round and a tool row per call.
func (p *parser) rounds(rounds []round, results map[string]json.RawMessage, parts []part, ts time.Time, id string) {
	invoked := map[string]part{}
	for _, pt := range parts {
		if pt.Kind == "toolInvocationSerialized" && pt.ToolCallID != "" {
			invoked[pt.ToolCallID] = pt
		}
	}
	for i, rd := range rounds {
		rts := ts
		if rd.Timestamp > 0 {
			rts = time.UnixMilli(rd.Timestamp).UTC()
		}
		var calls []textutil.ToolCall
		for _, c := range rd.ToolCalls {
			args, _ := json.Marshal(c.Arguments)
			calls = append(calls, textutil.NewToolCall(c.ID, c.Name, args))
		}
		m := store.Message{Role: "assistant", Content: strings.TrimSpace(rd.Response), ToolCalls: textutil.ToolCallsJSON(calls)}
		if rd.Thinking != nil {
			m.Reasoning = thinkingText(rd.Thinking.Text)
		}
		if m.Content != "" || m.ToolCalls != "" || m.Reasoning != "" {
			p.add(m, rts, fmt.Sprintf("%s:round:%d", id, i))
		}
		for _, c := range rd.ToolCalls {
			text := resultText(results[c.ID])
			if text == "" {
				if pt, ok := invoked[c.ID]; ok {
					text = invocationText(pt)
				}
			}
			p.add(store.Message{Role: "tool", Content: text, ToolCallID: c.ID, ToolName: c.Name}, rts, fmt.Sprintf("%s:tool:%s", id, c.ID))
		}
	}
}

// parts adds the answer as VS Code shows it: the markdown (with inline
// references named), thinking as reasoning, each tool invocation a call
// and its result.
func (p *parser) parts(parts []part, ts time.Time, id string) {
	var text strings.Builder
	var thoughts []string
	var calls []textutil.ToolCall
	var tools []store.Message
	for _, pt := range parts {
		switch pt.Kind {
		case "", "markdownContent", "markdownVuln":
			var s string
			if pt.Content != nil {
				s = pt.Content.Value
			} else {
				_ = json.Unmarshal(pt.Value, &s)
			}
			text.WriteString(s)
		case "inlineReference":
			text.WriteString("`" + referenceName(pt) + "`")
		case "thinking":
			if s := thinkingText(pt.Value); s != "" {
				thoughts = append(thoughts, s)
			}
		case "toolInvocationSerialized":
			args := pt.ToolSpecificData
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			calls = append(calls, textutil.NewToolCall(pt.ToolCallID, pt.ToolID, args))
			tools = append(tools, store.Message{Role: "tool", Content: invocationText(pt), ToolCallID: pt.ToolCallID, ToolName: pt.ToolID})
		}
	}
	m := store.Message{Role: "assistant", Content: strings.TrimSpace(text.String()), Reasoning: strings.Join(thoughts, "\n\n"), ToolCalls: textutil.ToolCallsJSON(calls)}
	if m.Content != "" || m.Reasoning != "" || m.ToolCalls != "" {
		p.add(m, ts, id+":answer")
	}
	for i, tm := range tools {
		p.add(tm, ts, fmt.Sprintf("%s:tool:%d", id, i))
	}
}

// referenceName names an inline reference: its name, else the file's.
func referenceName(pt part) string {
	if pt.Name != "" {
		return pt.Name
	}
	var ref struct {
		Path   string `json:"path"`
		FSPath string `json:"fsPath"`
		URI    *struct {
			Path string `json:"path"`
		} `json:"uri"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(pt.InlineReference, &ref)
	switch {
	case ref.Name != "":
		return ref.Name
	case ref.URI != nil && ref.URI.Path != "":
		return path.Base(ref.URI.Path)
	case ref.Path != "":
		return path.Base(ref.Path)
	}
	return path.Base(ref.FSPath)
}

// invocationText is what a tool invocation part says of its result: the
// result details' text (an MCP tool's output), else its past-tense message.
func invocationText(pt part) string {
	if s := resultText(pt.ResultDetails); s != "" {
		return s
	}
	for _, raw := range []json.RawMessage{pt.PastTenseMessage, pt.InvocationMessage} {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
		var md struct {
			Value string `json:"value"`
		}
		if json.Unmarshal(raw, &md) == nil && md.Value != "" {
			return md.Value
		}
	}
	return ""
}

// thinkingText reads thinking that is a string, a list of strings, or an
// object with them.
func thinkingText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.TrimSpace(strings.Join(list, ""))
	}
	return ""
}

// resultText is the text of a tool's result as Copilot Chat keeps it: a
// LanguageModelToolResult ({"content": [{"value": "…"}]}, a prompt-tsx
// element tree whose leaves carry "text"), or result details
// ({"output": [{"value": "…"}]}).
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var out []string
	var walk func(any, string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case string:
			if (key == "value" || key == "text") && strings.TrimSpace(x) != "" {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case map[string]any:
			for _, k := range []string{"content", "output", "value", "text", "node", "children"} {
				if e, ok := x[k]; ok {
					walk(e, k)
				}
			}
		}
	}
	walk(v, "")
	return strings.Join(out, "\n")
}

// Result is the session and every row.
func (p *parser) Result() importer.Result {
	if p.m.ID == "" {
		return importer.Result{}
	}
	s := store.Session{ID: p.m.ID, Source: SourceName, Title: textutil.Title(p.m.Title), Cwd: p.m.Cwd, Model: p.model,
		InputTokens: p.in, OutputTokens: p.out, StartedAt: p.first, EndedAt: p.last}
	if p.m.Created > 0 {
		s.StartedAt = time.UnixMilli(p.m.Created).UTC()
	}
	if p.m.LastMessage > 0 {
		s.EndedAt = time.UnixMilli(p.m.LastMessage).UTC()
	}
	if s.Title == "" {
		s.Title = textutil.PromptTitle(p.msgs)
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: p.msgs}
}
