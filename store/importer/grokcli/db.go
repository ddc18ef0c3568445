package grokcli

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// reader reads grok.db (export.Reader).
type reader struct {
	db *sqlitero.DB
}

func newReader(db *sqlitero.DB) (export.Reader, error) {
	cols, err := db.Columns("sessions")
	if err != nil {
		return nil, err
	}
	if !cols["id"] || !cols["cwd_at_start"] {
		return nil, fmt.Errorf("not a Grok CLI database (no sessions table with cwd_at_start)")
	}
	return &reader{db: db}, nil
}

// Heads lists the sessions, oldest first, each with a fingerprint of its
// row and of its messages', usage events' and compactions' counts.
func (r *reader) Heads() ([]export.Head, error) {
	var out []export.Head
	err := r.db.Query(`SELECT s.id, COALESCE(s.title, ''), s.model, s.updated_at,
			(SELECT count(*) || ':' || COALESCE(max(seq), -1) FROM messages m WHERE m.session_id = s.id),
			(SELECT count(*) FROM usage_events u WHERE u.session_id = s.id),
			(SELECT count(*) FROM compactions c WHERE c.session_id = s.id)
		FROM sessions s ORDER BY s.created_at, s.id`, nil, func(row sqlitero.Row) error {
		h := sha256.New()
		for i := 0; i < 7; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		out = append(out, export.Head{ID: row.Text(0), Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return out, err
}

// Load reads one session: its row, its messages in seq order (the tokens
// of the usage events that name them), and its compaction summaries.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	var sess store.Session
	found := false
	err := r.db.Query(`SELECT s.id, COALESCE(s.title, ''), s.model, s.cwd_at_start, s.created_at, s.updated_at
		FROM sessions s WHERE s.id = ?`, []any{h.ID}, func(row sqlitero.Row) error {
		found = true
		sess = store.Session{ID: row.Text(0), Source: SourceName, Title: textutil.Title(row.Text(1)), Model: row.Text(2),
			Cwd: row.Text(3), StartedAt: textutil.ParseTime(row.Text(4)), EndedAt: textutil.ParseTime(row.Text(5))}
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	tokens := map[int64]int64{}
	err = r.db.Query(`SELECT COALESCE(message_seq, -1), input_tokens, output_tokens FROM usage_events WHERE session_id = ?`, []any{h.ID},
		func(row sqlitero.Row) error {
			sess.InputTokens += row.Int(1)
			sess.OutputTokens += row.Int(2)
			tokens[row.Int(0)] += row.Int(2)
			return nil
		})
	if err != nil {
		return export.Conversation{}, false, err
	}
	c := converter{sess: &sess, t: t, tools: map[string]string{}}
	err = r.db.Query(`SELECT seq, role, message_json, created_at FROM messages WHERE session_id = ? ORDER BY seq`, []any{h.ID},
		func(row sqlitero.Row) error {
			seq := row.Int(0)
			t.Line = int(seq) + 1
			c.message(seq, row.Text(1), []byte(row.Text(2)), row.Text(3), int(tokens[seq]))
			return nil
		})
	if err != nil {
		return export.Conversation{}, false, err
	}
	err = r.db.Query(`SELECT id, summary, created_at FROM compactions WHERE session_id = ? ORDER BY id`, []any{h.ID},
		func(row sqlitero.Row) error {
			c.msgs = append(c.msgs, store.Message{SessionID: sess.ID, Role: "user", Content: row.Text(1), DisplayKind: store.DisplayKindCompaction,
				Timestamp: textutil.ParseTime(row.Text(2)), SourceKey: fmt.Sprintf("%s:%s:compaction:%d", SourceName, sess.ID, row.Int(0))})
			return nil
		})
	if err != nil {
		return export.Conversation{}, false, err
	}
	if len(c.msgs) == 0 {
		t.Skip() // a session opened and left before its first prompt
		return export.Conversation{}, false, nil
	}
	return export.Conversation{Session: sess, Messages: c.msgs}, true, nil
}

// part is the union of the AI SDK ModelMessage content parts Grok CLI
// stores.
type part struct {
	Type       string          `json:"type"`
	Text       string          `json:"text"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	Output     *struct {
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
	} `json:"output"`
}

// converter turns one session's messages into rows.
type converter struct {
	sess  *store.Session
	t     *importer.Tally
	msgs  []store.Message
	tools map[string]string
}

func (c *converter) message(seq int64, role string, raw []byte, created string, tokens int) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		c.t.Malformed("message %d: %s", seq, importer.DecodeProblem(err))
		return
	}
	if m.Role == "" {
		m.Role = role
	}
	var parts []part
	if len(m.Content) > 0 && m.Content[0] == '"' {
		var s string
		_ = json.Unmarshal(m.Content, &s)
		parts = []part{{Type: "text", Text: s}}
	} else if err := json.Unmarshal(m.Content, &parts); err != nil {
		c.t.Malformed("message %d: content: %s", seq, importer.DecodeProblem(err))
		return
	}
	key := fmt.Sprintf("%s:%s:%d", SourceName, c.sess.ID, seq)
	base := store.Message{SessionID: c.sess.ID, Timestamp: textutil.ParseTime(created), SourceKey: key}
	switch m.Role {
	case "user":
		u := base
		u.Role, u.Content = "user", joinText(parts, "text")
		if strings.TrimSpace(u.Content) == "" {
			c.t.Skip()
			return
		}
		c.msgs = append(c.msgs, u)
	case "assistant":
		a := base
		a.Role, a.Content, a.Reasoning, a.TokenCount = "assistant", joinText(parts, "text"), joinText(parts, "reasoning"), tokens
		var calls []textutil.ToolCall
		for _, p := range parts {
			if p.Type == "tool-call" {
				calls = append(calls, textutil.NewToolCall(p.ToolCallID, p.ToolName, p.Input))
				c.tools[p.ToolCallID] = p.ToolName
			}
		}
		a.ToolCalls = textutil.ToolCallsJSON(calls)
		if strings.TrimSpace(a.Content) == "" && a.Reasoning == "" && a.ToolCalls == "" {
			c.t.Skip()
			return
		}
		c.msgs = append(c.msgs, a)
	case "tool":
		for _, p := range parts {
			if p.Type != "tool-result" {
				continue
			}
			r := base
			r.Role, r.ToolCallID, r.ToolName, r.SourceKey = "tool", p.ToolCallID, cmp.Or(p.ToolName, c.tools[p.ToolCallID]), key+":tool:"+p.ToolCallID
			if p.Output != nil {
				text, failed := outputText(p.Output.Value)
				r.Content = text
				if failed || strings.HasPrefix(p.Output.Type, "error") || p.Output.Type == "execution-denied" {
					r.FinishReason = "error"
				}
			}
			c.msgs = append(c.msgs, r)
		}
	default:
		c.t.Skip() // system messages: Grok CLI's own instructions
	}
}

// joinText joins the parts of one type ("text", "reasoning").
func joinText(parts []part, kind string) string {
	var out []string
	for _, p := range parts {
		if p.Type == kind && strings.TrimSpace(p.Text) != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n\n")
}

// outputText is a tool output's value as text, and whether the tool
// failed: Grok CLI's ToolResult {success, output, error} gives its output
// and error; other text is as it is, other JSON compact.
func outputText(v json.RawMessage) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	var s string
	if v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return s, false
	}
	var res struct {
		Success *bool           `json:"success"`
		Output  json.RawMessage `json:"output"`
		Error   string          `json:"error"`
	}
	if v[0] == '{' && json.Unmarshal(v, &res) == nil && res.Success != nil {
		out := ""
		if len(res.Output) > 0 && json.Unmarshal(res.Output, &out) != nil {
			out = textutil.ArgsText(res.Output)
		}
		return textutil.Join("\n", out, res.Error), !*res.Success
	}
	return textutil.ArgsText(v), false
}
