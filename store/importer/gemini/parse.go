package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// fileInfo is what a recording's path says about it.
type fileInfo struct {
	path      string
	projectID string
	cwd       string
	parent    string            // parent session of a sub-agent run
	projects  map[string]string // project id or hash -> project root
}

// meta is the ConversationRecord metadata recall reads.
type meta struct {
	SessionID   string `json:"sessionId,omitempty"`
	ProjectHash string `json:"projectHash,omitempty"`
	StartTime   string `json:"startTime,omitempty"`
	LastUpdated string `json:"lastUpdated,omitempty"`
	Summary     string `json:"summary,omitempty"`
	Kind        string `json:"kind,omitempty"`
}

// merge applies the fields a metadata line or $set carries.
func (m *meta) merge(raw map[string]json.RawMessage) {
	str := func(k string, dst *string) {
		if v, ok := raw[k]; ok {
			var s string
			if json.Unmarshal(v, &s) == nil {
				*dst = s
			}
		}
	}
	str("sessionId", &m.SessionID)
	str("projectHash", &m.ProjectHash)
	str("startTime", &m.StartTime)
	str("lastUpdated", &m.LastUpdated)
	str("summary", &m.Summary)
	str("kind", &m.Kind)
}

// record is a MessageRecord.
type record struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      []toolCall      `json:"toolCalls"`
	Thoughts       []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	Tokens *tokens `json:"tokens"`
	Model  string  `json:"model"`
}

type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

type tokens struct {
	Input    int64 `json:"input"`
	Output   int64 `json:"output"`
	Cached   int64 `json:"cached"`
	Thoughts int64 `json:"thoughts"`
}

// done is a message an import already stored: its id and the hash of the
// line that last wrote it.
type done struct {
	ID   string `json:"i"`
	Hash string `json:"h"`
}

// state is saved with the cursor so a grown recording continues.
type state struct {
	Meta meta `json:"m"`
	// SessionID is the id the stored messages were filed under.
	SessionID string `json:"sid,omitempty"`
	Done      []done `json:"d,omitempty"`
	Tokens    tokens `json:"t"`
	Model     string `json:"model,omitempty"`
	First     string `json:"first,omitempty"` // first message timestamp
	Last      string `json:"last,omitempty"`  // last message timestamp
	// Started is set once the recording holds a message of the
	// conversation (a prompt or a model turn); until then its messages are
	// Held, not stored (see Result).
	Started bool   `json:"started,omitempty"`
	Held    []held `json:"held,omitempty"`
}

// held is a message read but not stored yet: the <session_context> that
// opens every recording, kept back until the conversation starts.
type held struct {
	Rec  record `json:"r"`
	Hash string `json:"h"`
}

// pending is a message read in this import, not yet stored.
type pending struct {
	rec  record
	hash string
}

// parser replays one recording.
type parser struct {
	info     fileInfo
	st       state
	done     map[string]string // id -> hash of what was stored
	order    []string          // pending ids, in first-seen order
	pend     map[string]*pending
	restored bool
}

// parserVersion changes whenever the same lines produce different rows, so
// that files an older recall imported are read again in full.
// 1: the session id is sessionId whenever present, projectHash or not
// (before, such a file was filed under its file name).
// 2: Gemini CLI 0.61: <session_context> is hidden, functionResponse-only
// user records are not user rows, a recording with nothing but context
// (the file a resume starts before it loads the chat) stores nothing, and
// thoughts are not doubled by the thought parts of a rewritten message.
// 3: a rewritten message keeps the time it was first written and its
// tokens (a resume's $set re-dates them and writes "tokens": null).
const parserVersion = 3

// Version is the parser version saved with the import state
// (importer.Versioned).
func (p *parser) Version() int { return parserVersion }

func newParser(info fileInfo) *parser {
	return &parser{info: info, done: map[string]string{}, pend: map[string]*pending{}}
}

// Restore loads the state saved at the cursor.
func (p *parser) Restore(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, &p.st); err != nil {
		return err
	}
	for _, d := range p.st.Done {
		p.done[d.ID] = d.Hash
	}
	for _, h := range p.st.Held {
		p.pend[h.Rec.ID] = &pending{rec: h.Rec, hash: h.Hash}
		p.order = append(p.order, h.Rec.ID)
	}
	p.st.Held = nil
	p.restored = true
	return nil
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Line replays one line, the way Gemini CLI's loadConversationRecord does.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(text, &obj); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if raw, ok := obj["$rewindTo"]; ok {
		var id string
		if json.Unmarshal(raw, &id) == nil {
			return p.rewind(id)
		}
	}
	if raw, ok := obj["id"]; ok && isString(raw) {
		var r record
		if err := json.Unmarshal(text, &r); err != nil {
			t.Malformed("bad message record: %s", importer.DecodeProblem(err))
			return nil
		}
		if (r.Type == "user" || r.Type == "gemini" || r.Type == "model") && r.Content == nil && r.DisplayContent == nil {
			// Gemini writes content on every message (an empty one as "" or
			// []); without it the record was mangled, not empty.
			t.Malformed("%s", importer.MissingField(r.Type+" message record", "content", text))
			return nil
		}
		if toolResults(r) {
			t.Skip("tool results (kept with their calls)") // the results are on the model message's toolCalls
			return nil
		}
		return p.message(r, hashOf(text))
	}
	if raw, ok := obj["$set"]; ok && len(raw) > 0 && raw[0] == '{' {
		var set map[string]json.RawMessage
		if err := json.Unmarshal(raw, &set); err != nil {
			t.Malformed("bad $set: %s", importer.DecodeProblem(err))
			return nil
		}
		return p.set(set, t)
	}
	if _, typed := obj["type"]; isString(obj["sessionId"]) && !typed {
		// The metadata record. projectHash is not required: files from
		// older builds (and copied ones) lack it, and Gemini's loader
		// takes the session id from sessionId whenever it is present. A
		// typed record with a sessionId is another agent's (Claude Code's).
		return p.setMeta(obj)
	}
	t.Skip("unknown record kinds") // a record kind this version does not know
	return nil
}

func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// setMeta merges metadata; a recording whose session id changes after its
// messages were stored is re-read.
func (p *parser) setMeta(obj map[string]json.RawMessage) error {
	p.st.Meta.merge(obj)
	if p.restored && p.st.SessionID != "" && p.st.Meta.SessionID != "" && p.st.Meta.SessionID != p.st.SessionID {
		return importer.ErrRestart
	}
	return nil
}

func (p *parser) message(r record, hash string) error {
	if h, ok := p.done[r.ID]; ok {
		if h == hash {
			return nil // rewritten unchanged
		}
		return importer.ErrRestart // a stored message changed (tokens, tool results)
	}
	if pm, ok := p.pend[r.ID]; ok {
		pm.rec, pm.hash = keepWritten(pm.rec, r), hash
		return nil
	}
	p.pend[r.ID] = &pending{rec: r, hash: hash}
	p.order = append(p.order, r.ID)
	return nil
}

// keepWritten is a message rewritten under its id (a turn completed, or a
// resume's $set re-dating every message with "tokens": null): the new
// content with the time the message was first written and the tokens that
// were written for it, which a rewrite without tokens does not erase.
func keepWritten(first, again record) record {
	if first.Timestamp != "" {
		again.Timestamp = first.Timestamp
	}
	if again.Tokens == nil {
		again.Tokens = first.Tokens
	}
	return again
}

// rewind deletes id and every message after it; an unknown id deletes all
// (as Gemini's loader does).
func (p *parser) rewind(id string) error {
	if _, ok := p.done[id]; ok {
		return importer.ErrRestart
	}
	if _, ok := p.pend[id]; !ok {
		if len(p.done) > 0 {
			return importer.ErrRestart
		}
		p.order, p.pend = nil, map[string]*pending{}
		return nil
	}
	for i, pid := range p.order {
		if pid == id {
			for _, gone := range p.order[i:] {
				delete(p.pend, gone)
			}
			p.order = p.order[:i]
			break
		}
	}
	return nil
}

// set applies a $set; one carrying messages replaces the whole list.
func (p *parser) set(set map[string]json.RawMessage, t *importer.Tally) error {
	if raw, ok := set["messages"]; ok {
		var msgs []json.RawMessage
		if err := json.Unmarshal(raw, &msgs); err != nil {
			t.Malformed("bad $set messages: %s", importer.DecodeProblem(err))
		} else if len(msgs) > 0 {
			if len(p.done) > 0 {
				return importer.ErrRestart
			}
			prev := p.pend
			p.order, p.pend = nil, map[string]*pending{}
			for _, m := range msgs {
				var r record
				if json.Unmarshal(m, &r) != nil || r.ID == "" {
					t.Malformed("bad message in $set")
					continue
				}
				if toolResults(r) {
					continue
				}
				if old, ok := prev[r.ID]; ok {
					r = keepWritten(old.rec, r)
				}
				if err := p.message(r, hashOf(m)); err != nil {
					return err
				}
			}
		}
	}
	return p.setMeta(set)
}

// Result converts the pending messages and returns the session with its
// full current metadata.
func (p *parser) Result() importer.Result {
	sid := p.st.SessionID
	if sid == "" {
		sid = p.st.Meta.SessionID
	}
	if sid == "" {
		sid = strings.TrimSuffix(filepath.Base(p.info.path), filepath.Ext(p.info.path))
	}
	if !p.st.Started && !p.conversation() {
		// Only context so far (or nothing): Gemini CLI 0.61 starts a
		// recording before it knows whether it resumes a chat, and a resume
		// leaves that file behind with the same sessionId and a copy of
		// the context message. Storing it would re-date the resumed chat's
		// rows; the context waits for the conversation instead.
		for _, id := range p.order {
			p.st.Held = append(p.st.Held, held{Rec: p.pend[id].rec, Hash: p.pend[id].hash})
		}
		p.order, p.pend = nil, map[string]*pending{}
		return importer.Result{State: &p.st}
	}
	p.st.Started = true
	var msgs []store.Message
	for _, id := range p.order {
		pm := p.pend[id]
		msgs = append(msgs, p.convert(sid, pm.rec)...)
		p.st.Done = append(p.st.Done, done{ID: id, Hash: pm.hash})
		p.done[id] = pm.hash
		if pm.rec.Type == "gemini" {
			if tk := pm.rec.Tokens; tk != nil {
				p.st.Tokens.Input += tk.Input
				p.st.Tokens.Output += tk.Output
				p.st.Tokens.Cached += tk.Cached
				p.st.Tokens.Thoughts += tk.Thoughts
			}
			if pm.rec.Model != "" {
				p.st.Model = pm.rec.Model
			}
		}
		if pm.rec.Timestamp != "" {
			if p.st.First == "" {
				p.st.First = pm.rec.Timestamp
			}
			p.st.Last = pm.rec.Timestamp
		}
	}
	p.order, p.pend = nil, map[string]*pending{}
	if len(p.st.Done) == 0 && p.st.Meta.SessionID == "" {
		return importer.Result{State: &p.st}
	}
	p.st.SessionID = sid
	s := store.Session{
		ID: sid, Source: SourceName, Model: p.st.Model, Title: textutil.Title(p.st.Meta.Summary),
		StartedAt: firstTime(p.st.Meta.StartTime, p.st.First), EndedAt: firstTime(p.st.Meta.LastUpdated, p.st.Last),
		InputTokens: p.st.Tokens.Input, OutputTokens: p.st.Tokens.Output,
		CacheReadTokens: p.st.Tokens.Cached, ReasoningTokens: p.st.Tokens.Thoughts,
		Cwd: p.info.cwd,
	}
	if s.Cwd == "" && p.st.Meta.ProjectHash != "" {
		s.Cwd = p.info.projects[p.st.Meta.ProjectHash]
	}
	if parent := p.info.parent; parent != "" && parent != sid {
		s.ParentID = parent
		raw, _ := json.Marshal(map[string]string{"_delegate_from": parent})
		s.ModelConfig = string(raw)
	}
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}

// conversation reports whether a pending message is part of the
// conversation: a model turn or something the person typed.
func (p *parser) conversation() bool {
	for _, id := range p.order {
		r := p.pend[id].rec
		switch r.Type {
		case "gemini", "model":
			return true
		case "user":
			text := strings.TrimSpace(userText(r))
			if text != "" && contextKind(text) == "" {
				return true
			}
		}
	}
	return false
}

// Texts Gemini CLI sends as user messages itself and hides when it shows a
// chat (convertSessionToHistoryFormats skips user text starting with them):
// the session context (date, OS, workspace tree, GEMINI.md, MCP server
// instructions), the same in every chat, and hook output.
var contextPrefixes = []struct{ prefix, kind string }{
	{"<session_context>", store.DisplayKindHidden},
	{"<hook_context>", store.DisplayKindAgent},
}

// contextKind is the display kind of a user text Gemini CLI wrote itself,
// "" for the person's own words.
func contextKind(text string) string {
	for _, c := range contextPrefixes {
		if strings.HasPrefix(text, c.prefix) {
			return c.kind
		}
	}
	return ""
}

// userText is a user message's text: displayContent is what the user typed;
// content may carry expanded @file references.
func userText(r record) string {
	text := partsText(r.DisplayContent, false)
	if strings.TrimSpace(text) == "" {
		text = partsText(r.Content, false)
	}
	return text
}

// toolResults reports whether r is a user record made of nothing but
// functionResponse parts: Gemini CLI 0.61 writes each round of tool results
// so (and a resume copies them again, with new timestamps), while the same
// results are on the model message's toolCalls, where recall reads them.
func toolResults(r record) bool {
	if r.Type != "user" {
		return false
	}
	raw := trim(r.Content)
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil || len(parts) == 0 {
		return false
	}
	for _, pt := range parts {
		if pt.FunctionResponse == nil {
			return false
		}
	}
	return true
}

// convert turns one MessageRecord into store messages: user and gemini
// messages, plus one tool message per tool call with a result.
func (p *parser) convert(sid string, r record) []store.Message {
	ts := textutil.ParseTime(r.Timestamp)
	key := "gemini:" + r.ID
	switch r.Type {
	case "user":
		text := userText(r)
		if strings.TrimSpace(text) == "" {
			return nil
		}
		return []store.Message{{SessionID: sid, Role: "user", Content: text, Timestamp: ts, SourceKey: key,
			DisplayKind: contextKind(strings.TrimSpace(text))}}
	case "gemini", "model":
	default:
		return nil // info, error, warning: UI notices, not conversation
	}
	var reasoning []string
	for _, th := range r.Thoughts {
		subject := strings.TrimSpace(th.Subject)
		if subject == "" && len(reasoning) > 0 {
			// A streamed thought arrives in pieces; only the first of a
			// thought carries its **subject**, the rest continue it.
			reasoning[len(reasoning)-1] += th.Description
			continue
		}
		reasoning = append(reasoning, textutil.Join(": ", subject, strings.TrimSpace(th.Description)))
	}
	if len(reasoning) > 0 {
		reasoning[len(reasoning)-1] = strings.TrimSpace(reasoning[len(reasoning)-1])
	}
	if th := partsText(r.Content, true); th != "" && len(r.Thoughts) == 0 {
		// A rewritten message (a resume's $set) carries its thoughts twice:
		// as thoughts and as thought parts of content.
		reasoning = append(reasoning, th)
	}
	var calls []textutil.ToolCall
	for _, tc := range r.ToolCalls {
		calls = append(calls, textutil.NewToolCall(tc.ID, tc.Name, tc.Args))
	}
	m := store.Message{
		SessionID: sid, Role: "assistant", Content: partsText(r.Content, false), Timestamp: ts,
		ToolCalls: textutil.ToolCallsJSON(calls), Reasoning: textutil.Join("\n\n", reasoning...), SourceKey: key,
	}
	if r.Tokens != nil {
		m.TokenCount = int(r.Tokens.Output)
	}
	var out []store.Message
	if strings.TrimSpace(m.Content) != "" || m.ToolCalls != "" || m.Reasoning != "" {
		out = append(out, m)
	}
	for _, tc := range r.ToolCalls {
		text := toolResultText(tc.Result)
		if text == "" {
			text = partsText(tc.ResultDisplay, false)
		}
		if text == "" && (len(tc.Result) == 0 || string(tc.Result) == "null") {
			continue // still running, or never ran
		}
		tts := textutil.ParseTime(tc.Timestamp)
		if tts.IsZero() {
			tts = ts
		}
		out = append(out, store.Message{
			SessionID: sid, Role: "tool", Content: text, ToolCallID: tc.ID, ToolName: tc.Name,
			Timestamp: tts, SourceKey: key + ":tool:" + tc.ID,
		})
	}
	return out
}

// part is the union of the @google/genai Part shapes recall reads.
type part struct {
	Text         *string                    `json:"text"`
	Thought      bool                       `json:"thought"`
	InlineData   *struct{ MimeType string } `json:"inlineData"`
	FileData     *struct{ FileURI string }  `json:"fileData"`
	FunctionCall *struct {
		Name string `json:"name"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// partsText flattens a PartListUnion (a string, a Part or a Part list) to
// its text; thoughts selects the thought parts instead of the answer.
func partsText(raw json.RawMessage, thoughts bool) string {
	raw = trim(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' {
		if json.Unmarshal(raw, &s) == nil && !thoughts {
			return s
		}
		return ""
	}
	var parts []json.RawMessage
	if raw[0] == '[' {
		if json.Unmarshal(raw, &parts) != nil {
			return ""
		}
	} else {
		parts = []json.RawMessage{raw}
	}
	var texts []string
	for _, pr := range parts {
		pr = trim(pr)
		if len(pr) > 0 && pr[0] == '"' {
			if json.Unmarshal(pr, &s) == nil && !thoughts {
				texts = append(texts, s)
			}
			continue
		}
		var pt part
		if json.Unmarshal(pr, &pt) != nil {
			continue
		}
		if pt.Thought != thoughts {
			continue
		}
		switch {
		case pt.Text != nil:
			if *pt.Text != "" {
				texts = append(texts, *pt.Text)
			}
		case pt.InlineData != nil || pt.FileData != nil:
			texts = append(texts, "[attachment]")
		case pt.FunctionResponse != nil:
			if t := responseText(pt.FunctionResponse.Response); t != "" {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n\n")
}

// toolResultText is a tool call's result: its functionResponse output or
// error, and any text parts.
func toolResultText(raw json.RawMessage) string { return partsText(raw, false) }

// responseText unwraps a functionResponse.response: {"output": ...} or
// {"error": ...}, else the JSON itself.
func responseText(raw json.RawMessage) string {
	raw = trim(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var env struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	if raw[0] == '{' && json.Unmarshal(raw, &env) == nil {
		for _, v := range []json.RawMessage{env.Output, env.Error} {
			v = trim(v)
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

func trim(raw json.RawMessage) json.RawMessage {
	return json.RawMessage(strings.TrimSpace(string(raw)))
}

func firstTime(ss ...string) time.Time {
	for _, s := range ss {
		if t := textutil.ParseTime(s); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}
