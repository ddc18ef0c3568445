// Package claudeai imports the Claude.ai data export (Settings → Privacy →
// Export data): the zip, or the conversations.json inside it, one JSON array
// of conversations, each with its chat_messages in order.
//
// A message's content blocks are kept in order: text and thinking and
// tool_use blocks make an assistant row (thinking as its reasoning, tool_use
// as its tool calls), each tool_result block a tool row after it, and text
// after a result a new assistant row. The export is streamed
// (store/importer/internal/export): a conversation's messages are read one
// at a time into a spool and converted from there, so memory is bounded by
// one message; a string longer than recall stores is never held.
package claudeai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported Claude.ai conversations.
const SourceName = "claude-ai"

func init() { importer.Register(&Source{}, "claude.ai", "claudeai") }

// Source imports Claude.ai data exports.
type Source struct{}

// Name is "claude-ai".
func (*Source) Name() string { return SourceName }

// DefaultPaths is empty: an export lies wherever it was downloaded.
func (*Source) DefaultPaths() []string { return nil }

// PathHint is what `recall import claude-ai` needs.
func (*Source) PathHint() string {
	return "the Claude.ai export's zip or its conversations.json"
}

// Discover returns the named files, and in a named folder its conversations.json.
func (*Source) Discover(paths []string) ([]string, error) { return export.Discover(paths) }

// Import streams one export.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportStream(ctx, st, SourceName, file, format)
}

// format reads a conversation's chat_messages one at a time.
var format = export.Format[*conversation]{Items: "chat_messages", Head: head, Link: link, Rows: rows}

type conversation struct {
	UUID      string `json:"uuid"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Leaf      string `json:"current_leaf_message_uuid"`
	// Messages is streamed (Items): here only when it is not a list, to
	// be reported.
	Messages []json.RawMessage `json:"chat_messages"`
}

type message struct {
	UUID        string       `json:"uuid"`
	Parent      string       `json:"parent_message_uuid"`
	Text        string       `json:"text"`
	Sender      string       `json:"sender"`
	CreatedAt   string       `json:"created_at"`
	Content     []block      `json:"content"`
	Attachments []attachment `json:"attachments"`
	Files       []struct {
		Name string `json:"file_name"`
	} `json:"files"`
	StopReason string `json:"stop_reason"`
}

type block struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Content  json.RawMessage `json:"content"`
	IsError  bool            `json:"is_error"`
	Start    string          `json:"start_timestamp"`
}

type attachment struct {
	Name      string `json:"file_name"`
	Extracted string `json:"extracted_content"`
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// branch is the messages shown, by their place in items: with parent
// links and a current leaf (newer exports), the walk from the leaf up;
// otherwise the list as it is.
func (c *conversation) branch(items *export.Items) []int32 {
	if c.Leaf != "" && items.Linked() {
		if leaf, ok := items.Lookup(c.Leaf); ok {
			return items.Path(leaf)
		}
	}
	all := make([]int32, items.Len())
	for i := range all {
		all[i] = int32(i)
	}
	return all
}

// link reads a message's id and its parent's.
func link(_ string, raw []byte) export.Link {
	var m struct {
		UUID   string `json:"uuid"`
		Parent string `json:"parent_message_uuid"`
	}
	_ = json.Unmarshal(raw, &m) // what did not decode is reported when the message is converted
	return export.Link{ID: m.UUID, Parent: m.Parent}
}

// head decodes a conversation without its messages.
func head(raw json.RawMessage, t *importer.Tally) (*conversation, store.Session, bool) {
	var c conversation
	if err := json.Unmarshal(raw, &c); err != nil {
		// A field of the wrong kind costs only that field: the decoder
		// filled the others, and the conversation is imported without it.
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || c.UUID == "" {
			t.Malformed("conversation: %s", importer.DecodeProblem(err))
			return nil, store.Session{}, false
		}
		t.Malformed("conversation: %s (imported without it)", importer.DecodeProblem(err))
	}
	if c.UUID == "" {
		t.Malformed("%s", importer.MissingField("conversation", "uuid", raw))
		return nil, store.Session{}, false
	}
	return &c, store.Session{ID: c.UUID, Source: SourceName, Title: textutil.Title(c.Name),
		StartedAt: parseTime(c.CreatedAt), EndedAt: parseTime(c.UpdatedAt)}, true
}

// rows converts the messages shown, one at a time.
func rows(c *conversation, sess *store.Session, items *export.Items, t *importer.Tally, emit func(store.Message) error) error {
	start := sess.StartedAt
	out := export.NewEmitter(sess, emit)
	for _, i := range c.branch(items) {
		var m message
		if ok, err := items.Decode(int(i), &m, t, "message"); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		ts := parseTime(m.CreatedAt)
		if ts.IsZero() {
			ts = start
		}
		switch m.Sender {
		case "human", "user":
			text := m.Text
			if t := blockText(m.Content); t != "" {
				text = t
			}
			var extra []string
			for _, a := range m.Attachments {
				// A long paste becomes an attachment with its text extracted:
				// what the person sent, so it is searched.
				if strings.TrimSpace(a.Extracted) != "" {
					extra = append(extra, fmt.Sprintf("[attachment %s]\n%s", a.Name, a.Extracted))
				} else if a.Name != "" {
					extra = append(extra, "[attachment "+a.Name+"]")
				}
			}
			for _, f := range m.Files {
				if f.Name != "" {
					extra = append(extra, "[file "+f.Name+"]")
				}
			}
			text = textutil.Join("\n\n", append([]string{text}, extra...)...)
			if strings.TrimSpace(text) == "" {
				t.Skip("empty messages")
				continue
			}
			if err := out.Put(store.Message{SessionID: c.UUID, Role: "user", Content: text, Timestamp: ts, SourceKey: m.UUID}); err != nil {
				return err
			}
		case "assistant":
			rows := assistantRows(c.UUID, m, ts)
			if len(rows) == 0 {
				t.Skip("empty messages")
			}
			for _, r := range rows {
				if err := out.Put(r); err != nil {
					return err
				}
			}
		default:
			t.Malformed("message %s: unknown sender %q", m.UUID, m.Sender)
		}
	}
	if out.N == 0 {
		t.Skip("empty conversations")
	}
	return nil
}

// blockText joins a message's text blocks.
func blockText(blocks []block) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// assistantRows splits an assistant message at its tool results.
func assistantRows(conv string, m message, ts time.Time) []store.Message {
	blocks := m.Content
	if len(blocks) == 0 && m.Text != "" {
		blocks = []block{{Type: "text", Text: m.Text}}
	}
	var out []store.Message
	var text, thinking []string
	var calls []textutil.ToolCall
	seg := 0
	key := func() string {
		seg++
		if seg == 1 {
			return m.UUID
		}
		return fmt.Sprintf("%s#%d", m.UUID, seg)
	}
	flush := func() {
		if len(text) == 0 && len(thinking) == 0 && len(calls) == 0 {
			return
		}
		out = append(out, store.Message{SessionID: conv, Role: "assistant", Content: strings.Join(text, "\n\n"),
			Reasoning: strings.Join(thinking, "\n\n"), ToolCalls: textutil.ToolCallsJSON(calls), Timestamp: ts, SourceKey: key()})
		text, thinking, calls = nil, nil, nil
	}
	lastCall := map[string]string{} // tool name -> id of its last call
	for i, b := range blocks {
		switch b.Type {
		case "text":
			if strings.TrimSpace(b.Text) != "" {
				text = append(text, b.Text)
			}
		case "thinking":
			if strings.TrimSpace(b.Thinking) != "" {
				thinking = append(thinking, b.Thinking)
			}
		case "tool_use":
			id := b.ID
			if id == "" {
				id = fmt.Sprintf("%s-%d", m.UUID, i)
			}
			calls = append(calls, textutil.NewToolCall(id, b.Name, b.Input))
			lastCall[b.Name] = id
		case "tool_result":
			flush()
			content := textutil.FlattenParts(b.Content)
			if b.IsError && content != "" {
				content = "error: " + content
			}
			out = append(out, store.Message{SessionID: conv, Role: "tool", Content: content, ToolName: b.Name,
				ToolCallID: lastCall[b.Name], Timestamp: ts, SourceKey: key()})
		}
	}
	flush()
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role == "assistant" {
			out[i].FinishReason = m.StopReason
			break
		}
	}
	return out
}
