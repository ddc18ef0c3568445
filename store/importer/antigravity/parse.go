package antigravity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// step is one line of a transcript.
type step struct {
	Index     *int64     `json:"step_index"`
	Source    string     `json:"source"`
	Type      string     `json:"type"`
	Status    string     `json:"status"`
	CreatedAt string     `json:"created_at"`
	Content   string     `json:"content"`
	Thinking  string     `json:"thinking"`
	ToolCalls []toolCall `json:"tool_calls"`
	ExitCode  *int       `json:"exit_code"`
}

type toolCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// call is a tool call waiting for the step that carries its result: the
// log names no call ids, so results are paired with calls in order, as
// Antigravity runs them.
type call struct {
	ID   string `json:"i"`
	Name string `json:"n"`
}

// state is what an import keeps for the next one.
type state struct {
	Pending []call `json:"p,omitempty"`
	Model   string `json:"m,omitempty"`
	First   string `json:"f,omitempty"` // the first prompt, for a conversation with no title
	Users   int    `json:"u,omitempty"` // prompts read
	Start   int64  `json:"s,omitempty"` // first and last step, Unix ms
	End     int64  `json:"e,omitempty"`
}

type parser struct {
	sess store.Session
	file string
	st   state
	msgs []store.Message
}

// Restore loads the saved state.
func (p *parser) Restore(raw json.RawMessage) error { return json.Unmarshal(raw, &p.st) }

// Line reads one step.
func (p *parser) Line(text []byte, t *importer.Tally) error {
	var s step
	if err := json.Unmarshal(text, &s); err != nil {
		t.Malformed("%s", importer.DecodeProblem(err))
		return nil
	}
	if s.Source == "" && s.Type == "" {
		t.Malformed("%s", importer.MissingField("Antigravity step", "source", text))
		return nil
	}
	key := "L" + strconv.Itoa(t.Line)
	if s.Index != nil {
		// The step's own index: the full log and the cut one agree on it,
		// and so do two app folders holding one conversation.
		key = "s" + strconv.FormatInt(*s.Index, 10)
	}
	at := textutil.ParseTime(s.CreatedAt)
	if !at.IsZero() {
		ms := at.UnixMilli()
		if p.st.Start == 0 || ms < p.st.Start {
			p.st.Start = ms
		}
		p.st.End = max(p.st.End, ms)
	}
	switch {
	case s.Type == "USER_INPUT" || s.Source == "USER_EXPLICIT":
		p.user(s, key, at, t)
	case s.Source == "MODEL" && (s.Type == "PLANNER_RESPONSE" || s.Type == "GENERATE_RESPONSE"):
		p.answer(s, key, at, t)
	case s.Source == "MODEL":
		p.result(s, key, at)
	case s.Type == "CHECKPOINT" && strings.TrimSpace(s.Content) != "":
		p.add(store.Message{Role: "user", Content: s.Content, DisplayKind: store.DisplayKindCompaction, Timestamp: at, SourceKey: key})
	case s.Type == "ERROR_MESSAGE" && strings.TrimSpace(s.Content) != "":
		p.add(store.Message{Role: "assistant", Content: s.Content, FinishReason: "error", Timestamp: at, SourceKey: key})
	case s.Type == "SYSTEM_MESSAGE" && strings.TrimSpace(s.Content) != "":
		// A background task finishing, a notification: Antigravity's own text.
		p.add(store.Message{Role: "user", Content: s.Content, DisplayKind: store.DisplayKindAgent, Timestamp: at, SourceKey: key})
	default:
		t.Skip() // EPHEMERAL_MESSAGE reminders, CONVERSATION_HISTORY, KNOWLEDGE_ARTIFACTS, ...
	}
	return nil
}

// user reads a prompt: the person's words are the <USER_REQUEST>; the
// metadata Antigravity adds around them goes, a model change is kept.
func (p *parser) user(s step, key string, at time.Time, t *importer.Tally) {
	if m := modelChange.FindStringSubmatch(s.Content); m != nil {
		p.st.Model = strings.TrimSpace(m[1])
	}
	text := userRequest(s.Content)
	if text == "" {
		t.Skip()
		return
	}
	row := store.Message{Role: "user", Content: text, Timestamp: at, SourceKey: key}
	if s.Source != "USER_EXPLICIT" || p.sess.ParentID != "" && p.st.Users == 0 {
		row.DisplayKind = store.DisplayKindAgent // text the agent wrote as a prompt (a sub-agent's task)
	}
	p.st.Users++
	if p.st.First == "" {
		p.st.First = text
	}
	p.add(row)
}

// answer reads a planner response: text, thinking and the tools it calls.
func (p *parser) answer(s step, key string, at time.Time, t *importer.Tally) {
	calls := p.calls(s.ToolCalls, key)
	if strings.TrimSpace(s.Content) == "" && s.Thinking == "" && len(calls) == 0 {
		t.Skip()
		return
	}
	p.add(store.Message{Role: "assistant", Content: s.Content, Reasoning: s.Thinking, ToolCalls: textutil.ToolCallsJSON(calls), Timestamp: at, SourceKey: key})
}

// result reads a tool's step (RUN_COMMAND, VIEW_FILE, INVOKE_SUBAGENT, ...):
// the result of the oldest call not yet answered.
func (p *parser) result(s step, key string, at time.Time) {
	if len(s.ToolCalls) > 0 {
		// A tool step that carries its own call (older logs).
		calls := p.calls(s.ToolCalls, key+"#call")
		p.add(store.Message{Role: "assistant", ToolCalls: textutil.ToolCallsJSON(calls), Timestamp: at, SourceKey: key + "#call"})
	}
	c := call{Name: strings.ToLower(s.Type)} // tools are named after their step type (run_command for RUN_COMMAND)
	if len(p.st.Pending) > 0 {
		c, p.st.Pending = p.st.Pending[0], p.st.Pending[1:]
	}
	row := store.Message{Role: "tool", Content: resultBody(s.Content), ToolCallID: c.ID, ToolName: c.Name, Timestamp: at, SourceKey: key}
	if s.Status != "" && s.Status != "DONE" || s.ExitCode != nil && *s.ExitCode != 0 {
		row.FinishReason = "error"
	}
	p.add(row)
}

// calls turns a step's tool calls into OpenAI-shaped ones, with ids made
// from the step (the log has none), and queues them for their results.
func (p *parser) calls(tcs []toolCall, key string) []textutil.ToolCall {
	var out []textutil.ToolCall
	for i, tc := range tcs {
		if tc.Name == "" {
			continue
		}
		id := fmt.Sprintf("%s-%d", key, i)
		out = append(out, textutil.NewToolCall(id, tc.Name, decodedArgs(tc.Args)))
		p.st.Pending = append(p.st.Pending, call{ID: id, Name: tc.Name})
	}
	return out
}

func (p *parser) add(m store.Message) {
	m.SessionID = p.sess.ID
	p.msgs = append(p.msgs, m)
}

// decodedArgs undoes the second encoding some logs give argument values
// (the IDE writes {"AbsolutePath": "\"/src/a.go\""}): a string value that
// is itself JSON text of a string becomes that string.
func decodedArgs(raw json.RawMessage) json.RawMessage {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	changed := false
	for k, v := range obj {
		var s string
		if json.Unmarshal(v, &s) != nil || len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			continue
		}
		var inner string
		if json.Unmarshal([]byte(s), &inner) == nil {
			b, _ := json.Marshal(inner)
			obj[k], changed = b, true
		}
	}
	if !changed {
		return raw
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(obj) != nil {
		return raw
	}
	return bytes.TrimSpace(buf.Bytes())
}

var (
	// modelChange reads the model a prompt switched to: "The user changed
	// setting `Model Selection` from None to Gemini 3.1 Pro (High)."
	modelChange = regexp.MustCompile("(?s)`Model Selection` from .*? to (.+?)\\.(?:\\s|$|<)")
	// metaBlocks are what Antigravity adds to a prompt.
	metaBlocks = regexp.MustCompile(`(?s)<(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>.*?</(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>`)
)

// userRequest is what the person typed: the inside of <USER_REQUEST>, else
// the content without Antigravity's metadata blocks.
func userRequest(content string) string {
	content = metaBlocks.ReplaceAllString(content, "")
	if i := strings.Index(content, "<USER_REQUEST>"); i >= 0 {
		content = content[i+len("<USER_REQUEST>"):]
		if j := strings.Index(content, "</USER_REQUEST>"); j >= 0 {
			content = content[:j]
		}
	}
	return strings.TrimSpace(content)
}

// resultBody is a tool step's content without the "Created At:" and
// "Completed At:" lines it opens with.
func resultBody(content string) string {
	rest := content
	for {
		line, after, found := strings.Cut(rest, "\n")
		l := strings.TrimSpace(line)
		if !strings.HasPrefix(l, "Created At:") && !strings.HasPrefix(l, "Completed At:") && !(l == "" && rest != content) {
			break
		}
		if !found {
			return ""
		}
		rest = after
	}
	return strings.TrimRight(rest, "\n")
}

// Result is the conversation with its metadata and the new messages.
func (p *parser) Result() importer.Result {
	s := p.sess
	s.Model = p.st.Model
	if s.Title == "" {
		s.Title = textutil.Title(p.st.First)
	}
	if p.st.Start != 0 {
		s.StartedAt, s.EndedAt = time.UnixMilli(p.st.Start).UTC(), time.UnixMilli(p.st.End).UTC()
	}
	msgs := p.msgs
	p.msgs = nil
	return importer.Result{Sessions: []store.Session{s}, Overwrite: true, Messages: msgs, State: &p.st}
}

// Claim lets the full log take a conversation over from the cut one an
// earlier import read (written before the full one appeared): the cut
// rows go, the full ones come in the same transaction. The cut log holds
// the same steps with long contents cut, so no text goes that the full
// log does not bring whole.
func (p *parser) Claim(tx *store.Tx, plan importer.Plan, _ []store.Message) error {
	if plan.Seen || filepath.Base(p.file) != fullLog {
		return nil
	}
	cut, ok, err := tx.ImportFile(filepath.Join(filepath.Dir(p.file), cutLog))
	if err != nil || !ok || cut.Source != SourceName {
		return err
	}
	return tx.DeleteSessionMessages(p.sess.ID)
}
