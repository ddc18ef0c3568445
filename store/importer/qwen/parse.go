package qwen

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// fileInfo is what a recording's path says about it.
type fileInfo struct {
	path   string
	parent string    // the session a sub-agent run belongs to
	meta   agentMeta // a sub-agent run's meta file
}

// record is a ChatRecord (packages/core/src/services/chatRecordingService.ts).
type record struct {
	UUID       string `json:"uuid"`
	SessionID  string `json:"sessionId"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	Provenance string `json:"provenance"`
	Cwd        string `json:"cwd"`
	GitBranch  string `json:"gitBranch"`
	Model      string `json:"model"`
	AgentID    string `json:"agentId"`
	Sidechain  bool   `json:"isSidechain"`
	Message    *struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"message"`
	Usage         *usage          `json:"usageMetadata"`
	SystemPayload json.RawMessage `json:"systemPayload"`
	ToolResult    *struct {
		Status string `json:"status"`
	} `json:"toolCallResult"`
}

// usage is Gemini's usageMetadata, which Qwen Code keeps for every model.
type usage struct {
	Prompt     int64 `json:"promptTokenCount"`
	Candidates int64 `json:"candidatesTokenCount"`
	Thoughts   int64 `json:"thoughtsTokenCount"`
	Cached     int64 `json:"cachedContentTokenCount"`
}

// part is the union of the @google/genai Part shapes Qwen Code writes.
type part struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	InlineData   *struct{ MimeType string }
	FileData     *struct{ FileURI string }
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// state is saved with the cursor so a grown recording continues.
type state struct {
	SessionID string `json:"sid,omitempty"`
	Title     string `json:"title,omitempty"`
	Model     string `json:"model,omitempty"`
	Parent    string `json:"parent,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	Branch    string `json:"branch,omitempty"`
	First     string `json:"first,omitempty"`
	Last      string `json:"last,omitempty"`
	Input     int64  `json:"in,omitempty"`
	Output    int64  `json:"out,omitempty"`
	Cached    int64  `json:"cached,omitempty"`
	Thoughts  int64  `json:"th,omitempty"`
}

// parser reads one recording.
type parser struct {
	info fileInfo
	st   state
	msgs []store.Message
	line int
}

func newParser(info fileInfo) *parser { return &parser{info: info} }

// Restore loads the state saved at the cursor.
func (p *parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, &p.st)
}

// Line reads one record.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var r record
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if r.Type == "" {
		t.Malformed("%s", importer.MissingField("record", "type", text))
		return nil
	}
	p.line = t.Line
	p.noteSession(r)
	switch r.Type {
	case "user":
		p.user(r)
	case "assistant":
		p.assistant(r)
	case "tool_result":
		p.toolResults(r, r.Timestamp)
	case "system":
		if !p.system(r) {
			t.Skip("system records")
		}
	default:
		t.Skip(r.Type) // a record type this version does not know
	}
	return nil
}

// noteSession keeps the session facts every record carries.
func (p *parser) noteSession(r record) {
	if p.st.SessionID == "" {
		switch {
		case p.info.parent != "" && r.AgentID != "":
			p.st.SessionID = ChildID(p.info.parent, r.AgentID)
		case p.info.parent != "":
			p.st.SessionID = ChildID(p.info.parent, strings.TrimPrefix(strings.TrimSuffix(filepath.Base(p.info.path), ".jsonl"), "agent-"))
		case r.SessionID != "":
			p.st.SessionID = r.SessionID
		}
	}
	if r.Cwd != "" {
		p.st.Cwd = r.Cwd
	}
	if r.GitBranch != "" {
		p.st.Branch = r.GitBranch
	}
	if r.Timestamp != "" {
		if p.st.First == "" {
			p.st.First = r.Timestamp
		}
		p.st.Last = r.Timestamp
	}
}

// key identifies a record's message across imports.
func (p *parser) key(r record) string {
	if r.UUID != "" {
		return "qwen:" + r.UUID
	}
	return fmt.Sprintf("qwen:%s:%d", p.st.SessionID, p.line)
}

// user handles a user record: what the person typed (the display text
// when Qwen expanded @file references into the parts), or text Qwen Code
// itself put in a user turn (notifications of finished background agents,
// cron prompts, goal steering, a sub-agent's task from its parent), which
// is marked as the agent's.
func (p *parser) user(r record) {
	kind := ""
	switch {
	case r.Sidechain || p.info.parent != "":
		kind = store.DisplayKindAgent // the parent agent wrote the sub-agent's prompts
	case r.Provenance == "system", r.Provenance == "goal_runtime", r.Provenance == "goal_control",
		r.Subtype == "notification", r.Subtype == "cron", r.Subtype == "goal_runtime":
		kind = store.DisplayKindAgent
	}
	// The person's own text is the display text (the parts may carry
	// expanded @file references); an agent's is the whole text it sent the
	// model (a notification's display text is only its one-line summary).
	text := ""
	if kind == "" {
		text = displayText(r.SystemPayload)
	}
	if r.Message != nil {
		if text == "" {
			text = partsText(r.Message.Parts, false)
		}
		// Releases before tool_result records sent tool output in user turns.
		p.toolResults(r, r.Timestamp)
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	p.msgs = append(p.msgs, store.Message{SessionID: p.st.SessionID, Role: "user", Content: text,
		Timestamp: textutil.ParseTime(r.Timestamp), SourceKey: p.key(r), DisplayKind: kind})
}

// assistant handles a model turn: text, thoughts and function calls.
func (p *parser) assistant(r record) {
	if r.Model != "" {
		p.st.Model = r.Model
	}
	m := store.Message{SessionID: p.st.SessionID, Role: "assistant", Timestamp: textutil.ParseTime(r.Timestamp), SourceKey: p.key(r)}
	if u := r.Usage; u != nil {
		p.st.Input += u.Prompt
		p.st.Output += u.Candidates
		p.st.Cached += u.Cached
		p.st.Thoughts += u.Thoughts
		m.TokenCount = int(u.Candidates)
	}
	if r.Message == nil {
		return
	}
	m.Content = partsText(r.Message.Parts, false)
	m.Reasoning = partsText(r.Message.Parts, true)
	var calls []textutil.ToolCall
	for _, raw := range r.Message.Parts {
		var pt part
		if json.Unmarshal(raw, &pt) == nil && pt.FunctionCall != nil {
			calls = append(calls, textutil.NewToolCall(pt.FunctionCall.ID, pt.FunctionCall.Name, pt.FunctionCall.Args))
		}
	}
	m.ToolCalls = textutil.ToolCallsJSON(calls)
	if strings.TrimSpace(m.Content) == "" && m.ToolCalls == "" && m.Reasoning == "" {
		return // an empty round (a sub-agent's usage-only turn)
	}
	p.msgs = append(p.msgs, m)
}

// toolResults turns each functionResponse part into a tool message.
func (p *parser) toolResults(r record, ts string) {
	if r.Message == nil {
		return
	}
	for i, raw := range r.Message.Parts {
		var pt part
		if json.Unmarshal(raw, &pt) != nil || pt.FunctionResponse == nil {
			continue
		}
		fr := pt.FunctionResponse
		id := fr.ID
		if id == "" {
			id = fmt.Sprint(i)
		}
		m := store.Message{SessionID: p.st.SessionID, Role: "tool", Content: responseText(fr.Response),
			ToolCallID: fr.ID, ToolName: fr.Name, Timestamp: textutil.ParseTime(ts), SourceKey: p.key(r) + ":tool:" + id}
		if r.ToolResult != nil && r.ToolResult.Status == "error" {
			m.FinishReason = "error"
		}
		p.msgs = append(p.msgs, m)
	}
}

// system handles the system records recall reads; false for the rest
// (telemetry, snapshots, checkpoints), which are skipped.
func (p *parser) system(r record) bool {
	var pl struct {
		CustomTitle     string `json:"customTitle"`
		ParentSessionID string `json:"parentSessionId"`
		Model           string `json:"model"`
		ModelID         string `json:"modelId"`
		Phase           string `json:"phase"`
		RawCommand      string `json:"rawCommand"`
	}
	_ = json.Unmarshal(r.SystemPayload, &pl)
	switch r.Subtype {
	case "custom_title":
		if t := textutil.Title(pl.CustomTitle); t != "" {
			p.st.Title = t
		}
		return true
	case "parent_session":
		p.st.Parent = pl.ParentSessionID
		return true
	case "session_model":
		if m := textutil.Join("", pl.ModelID, pl.Model); m != "" && p.st.Model == "" {
			p.st.Model = m
		}
		return true
	case "slash_command":
		if pl.Phase == "result" || strings.TrimSpace(pl.RawCommand) == "" {
			return false // the command's output, replayed on resume
		}
		p.msgs = append(p.msgs, store.Message{SessionID: p.st.SessionID, Role: "user", Content: strings.TrimSpace(pl.RawCommand),
			Timestamp: textutil.ParseTime(r.Timestamp), SourceKey: p.key(r), DisplayKind: store.DisplayKindCommand})
		return true
	}
	return false
}

// Result is the session with its full current metadata and the new messages.
func (p *parser) Result() importer.Result {
	if p.st.SessionID == "" {
		return importer.Result{State: &p.st}
	}
	s := store.Session{
		ID: p.st.SessionID, Source: SourceName, Model: p.st.Model, Title: p.st.Title,
		StartedAt: textutil.ParseTime(p.st.First), EndedAt: textutil.ParseTime(p.st.Last),
		InputTokens: p.st.Input, OutputTokens: p.st.Output, CacheReadTokens: p.st.Cached, ReasoningTokens: p.st.Thoughts,
		Cwd: p.st.Cwd, GitBranch: p.st.Branch, ParentID: p.st.Parent,
	}
	if p.info.parent != "" {
		s.ParentID = p.info.parent
		raw, _ := json.Marshal(map[string]string{"_delegate_from": p.info.parent})
		s.ModelConfig = string(raw)
		if s.Title == "" {
			s.Title = textutil.Title(p.info.meta.Description)
		}
		if s.Model == "" {
			s.Model = p.info.meta.Model
		}
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}

// displayText is systemPayload.displayText: what the person typed, before
// Qwen Code expanded it for the model.
func displayText(raw json.RawMessage) string {
	var pl struct {
		DisplayText string `json:"displayText"`
	}
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &pl) == nil {
		return pl.DisplayText
	}
	return ""
}

// partsText joins the text parts (thoughts selects the thought parts
// instead); an attachment is "[attachment]".
func partsText(parts []json.RawMessage, thoughts bool) string {
	var texts []string
	for _, raw := range parts {
		var pt part
		if json.Unmarshal(raw, &pt) != nil || pt.Thought != thoughts {
			continue
		}
		switch {
		case pt.Text != nil:
			if strings.TrimSpace(*pt.Text) != "" {
				texts = append(texts, *pt.Text)
			}
		case !thoughts && (pt.InlineData != nil || pt.FileData != nil):
			texts = append(texts, "[attachment]")
		}
	}
	return strings.Join(texts, "\n\n")
}

// responseText unwraps a functionResponse.response: {"output": ...} or
// {"error": ...}, else the JSON itself.
func responseText(raw json.RawMessage) string {
	var env struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	if len(raw) > 0 && raw[0] == '{' && json.Unmarshal(raw, &env) == nil {
		for _, v := range []json.RawMessage{env.Output, env.Error} {
			if len(v) == 0 || string(v) == "null" {
				continue
			}
			var s string
			if v[0] == '"' && json.Unmarshal(v, &s) == nil {
				return s
			}
			return string(v)
		}
	}
	return string(raw)
}
