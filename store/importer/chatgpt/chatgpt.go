// Package chatgpt imports ChatGPT's data export (Settings → Data controls →
// Export data): the zip, or the conversations.json inside it, one JSON array
// of conversations, each a tree of messages in "mapping".
//
// Only the branch ChatGPT shows is imported: the walk from current_node up
// through each node's parent to the root. An answer regenerated or a prompt
// edited leaves other branches in the tree; they are not imported, so no
// text is doubled. The export is streamed (store/importer/internal/export):
// a conversation's nodes are read one at a time into a spool and the branch
// is converted from there, so memory is bounded by one node, never a
// conversation or the file; a string longer than recall stores is never
// held (its message is reported too large and skipped).
package chatgpt

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// SourceName is the session source of imported ChatGPT conversations.
const SourceName = "chatgpt"

func init() { importer.Register(&Source{}) }

// Source imports ChatGPT data exports.
type Source struct{}

// Name is "chatgpt".
func (*Source) Name() string { return SourceName }

// DefaultPaths is empty: an export lies wherever it was downloaded.
func (*Source) DefaultPaths() []string { return nil }

// PathHint is what `recall import chatgpt` needs.
func (*Source) PathHint() string {
	return "the ChatGPT export's zip or its conversations.json"
}

// Discover returns the named files, and in a named folder its
// conversations.json (an unpacked export).
func (*Source) Discover(paths []string) ([]string, error) {
	return export.Discover(paths)
}

// Import streams one export.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportStream(ctx, st, SourceName, file, format)
}

// format reads a conversation's "mapping" node by node.
var format = export.Format[*conversation]{Items: "mapping", Head: head, Link: link, Rows: rows}

type conversation struct {
	ID             string  `json:"id"`
	ConversationID string  `json:"conversation_id"`
	Title          string  `json:"title"`
	CreateTime     float64 `json:"create_time"`
	UpdateTime     float64 `json:"update_time"`
	CurrentNode    string  `json:"current_node"`
	// Mapping is streamed (Items): here only when it is not an object, to
	// be reported.
	Mapping      map[string]json.RawMessage `json:"mapping"`
	DefaultModel string                     `json:"default_model_slug"`
	Archived     bool                       `json:"is_archived"`
}

type node struct {
	ID       string   `json:"id"`
	Message  *message `json:"message"`
	Parent   string   `json:"parent"`
	Children []string `json:"children"`
}

type message struct {
	ID     string `json:"id"`
	Author struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    content  `json:"content"`
	Recipient  string   `json:"recipient"`
	Metadata   struct {
		ModelSlug     string `json:"model_slug"`
		Hidden        bool   `json:"is_visually_hidden_from_conversation"`
		FinishDetails struct {
			Type string `json:"type"`
		} `json:"finish_details"`
	} `json:"metadata"`
}

type content struct {
	Type     string    `json:"content_type"`
	Parts    []part    `json:"parts"`
	Text     string    `json:"text"`     // code, execution_output
	Result   string    `json:"result"`   // tether_browsing_display
	Content  string    `json:"content"`  // reasoning_recap
	Thoughts []thought `json:"thoughts"` // thoughts
}

// part is one element of a content's parts, as text: a string, an object's
// text, or "[image]"/"[audio]" for an asset (the picture itself is in the
// zip, not kept). Decoded in place: a long part is never copied raw first.
type part struct{ text string }

func (p *part) UnmarshalJSON(raw []byte) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) != "" {
			p.text = s
		}
		return nil
	}
	var obj struct {
		Type string `json:"content_type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		switch {
		case obj.Text != "":
			p.text = obj.Text
		case strings.Contains(obj.Type, "image"):
			p.text = "[image]"
		case strings.Contains(obj.Type, "audio"):
			p.text = "[audio]"
		}
	}
	return nil
}

type thought struct {
	Summary string `json:"summary"`
	Content string `json:"content"`
}

// text is what a content holds as text: string parts joined by blank
// lines, an image or other asset part as "[image]" (the picture itself is
// in the zip, not kept).
func (c content) text() string {
	switch c.Type {
	case "code", "execution_output":
		return c.Text
	case "tether_browsing_display", "tether_quote":
		if c.Result != "" {
			return c.Result
		}
		return c.Text
	}
	var parts []string
	for _, p := range c.Parts {
		if p.text != "" {
			parts = append(parts, p.text)
		}
	}
	if len(parts) == 0 && c.Text != "" {
		return c.Text
	}
	return strings.Join(parts, "\n\n")
}

func epoch(f float64) time.Time {
	if f <= 0 {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// path is the visible branch: current_node up to the root, root first.
// Without a usable current_node it is the branch ending at the newest leaf.
func (c *conversation) path(items *export.Items) ([]int32, error) {
	cur, ok := items.Lookup(c.CurrentNode)
	if !ok {
		var err error
		if cur, ok, err = newestLeaf(items); err != nil || !ok {
			return nil, err
		}
	}
	return items.Path(cur), nil
}

// newestLeaf is the node with no children written last (the smallest id
// among equals). Rare (an export always names current_node), so it reads
// the nodes again rather than keep their times for every conversation.
func newestLeaf(items *export.Items) (best int, ok bool, err error) {
	bestT, bestID := -1.0, ""
	for i := 0; i < items.Len(); i++ {
		id, raw, err := items.Read(i)
		if err != nil {
			return 0, false, err
		}
		var n struct {
			Children []json.RawMessage `json:"children"`
			Message  *struct {
				CreateTime *float64 `json:"create_time"`
			} `json:"message"`
		}
		_ = json.Unmarshal(raw, &n) // what did not decode is reported when the node is converted
		if len(n.Children) > 0 {
			continue
		}
		t := 0.0
		if n.Message != nil && n.Message.CreateTime != nil {
			t = *n.Message.CreateTime
		}
		if t > bestT || (t == bestT && id < bestID) {
			best, ok, bestT, bestID = i, true, t, id
		}
	}
	return best, ok, nil
}

// link reads a node's parent.
func link(key string, raw []byte) export.Link {
	var n struct {
		Parent string `json:"parent"`
	}
	_ = json.Unmarshal(raw, &n) // what did not decode is reported when the node is converted
	return export.Link{ID: key, Parent: n.Parent}
}

// head decodes a conversation without its mapping.
func head(raw json.RawMessage, t *importer.Tally) (*conversation, store.Session, bool) {
	var c conversation
	if err := json.Unmarshal(raw, &c); err != nil {
		// A field of the wrong kind costs only that field: the decoder
		// filled the others, and the conversation is imported without it.
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || c.ConversationID == "" && c.ID == "" {
			t.Malformed("conversation: %s", importer.DecodeProblem(err))
			return nil, store.Session{}, false
		}
		t.Malformed("conversation: %s (imported without it)", importer.DecodeProblem(err))
	}
	id := c.ConversationID
	if id == "" {
		id = c.ID
	}
	if id == "" {
		t.Malformed("%s", importer.MissingField("conversation", "conversation_id", raw))
		return nil, store.Session{}, false
	}
	c.ID = id
	return &c, store.Session{ID: id, Source: SourceName, Title: textutil.Title(c.Title), Model: c.DefaultModel,
		StartedAt: epoch(c.CreateTime), EndedAt: epoch(c.UpdateTime), Archived: c.Archived}, true
}

// rows converts the visible branch of a conversation, node by node.
func rows(c *conversation, sess *store.Session, items *export.Items, t *importer.Tally, emit func(store.Message) error) error {
	path, err := c.path(items)
	if err != nil {
		return err
	}
	id, start := c.ID, sess.StartedAt
	out := export.NewEmitter(sess, emit)
	var reasoning []string
	var lastCall, lastCallTo string
	for _, i := range path {
		var nd node
		if ok, err := items.Decode(int(i), &nd, t, "node"); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		m := nd.Message
		if m == nil {
			continue
		}
		ts := start
		if m.CreateTime != nil {
			ts = epoch(*m.CreateTime)
		}
		row := store.Message{SessionID: id, Timestamp: ts, SourceKey: m.ID}
		text := m.Content.text()
		switch {
		case m.Metadata.Hidden || m.Content.Type == "user_editable_context" || m.Author.Role == "system":
			// Custom instructions and the empty system root: the same in
			// every conversation, never shown in it.
			t.Skip("system and custom instructions")
			continue
		case m.Content.Type == "thoughts":
			for _, th := range m.Content.Thoughts {
				if s := strings.TrimSpace(th.Content); s != "" {
					reasoning = append(reasoning, s)
				} else if s := strings.TrimSpace(th.Summary); s != "" {
					reasoning = append(reasoning, s)
				}
			}
			continue
		case m.Content.Type == "reasoning_recap":
			t.Skip("reasoning recaps") // "Thought for 12 seconds"
			continue
		case m.Author.Role == "user":
			row.Role, row.Content = "user", text
		case m.Author.Role == "assistant" && m.Recipient != "" && m.Recipient != "all":
			// A call: the recipient is the tool (python, browser, web.run,
			// dalle.text2im, canmore.*, bio), the content its input.
			// The arguments are the content as written (code, a query, JSON),
			// as a custom tool's input is in Codex rollouts.
			call := textutil.ToolCall{ID: m.ID, Type: "function", Function: textutil.ToolFunction{Name: m.Recipient, Arguments: text}}
			row.Role, row.ToolCalls = "assistant", textutil.ToolCallsJSON([]textutil.ToolCall{call})
			lastCall, lastCallTo = m.ID, m.Recipient
		case m.Author.Role == "assistant":
			row.Role, row.Content = "assistant", text
			row.FinishReason = m.Metadata.FinishDetails.Type
		case m.Author.Role == "tool":
			row.Role, row.Content, row.ToolName = "tool", text, m.Author.Name
			if lastCall != "" && (lastCallTo == m.Author.Name || strings.HasPrefix(m.Author.Name, lastCallTo+".") ||
				strings.HasPrefix(lastCallTo, m.Author.Name+".")) {
				row.ToolCallID = lastCall
			}
		default:
			t.Malformed("message %s: unknown author role %q", m.ID, m.Author.Role)
			continue
		}
		if row.Role == "assistant" {
			if m.Metadata.ModelSlug != "" {
				sess.Model = m.Metadata.ModelSlug
			}
			row.Reasoning = strings.Join(reasoning, "\n\n")
			reasoning = nil
		}
		if row.Content == "" && row.ToolCalls == "" && row.Reasoning == "" {
			t.Skip("empty messages") // a placeholder the app left
			continue
		}
		if err := out.Put(row); err != nil {
			return err
		}
	}
	if len(reasoning) > 0 {
		// Thinking with no answer after it (a stopped reply).
		if err := out.Put(store.Message{SessionID: id, Role: "assistant", Reasoning: strings.Join(reasoning, "\n\n"), Timestamp: sess.EndedAt}); err != nil {
			return err
		}
	}
	if out.N == 0 {
		t.Skip("empty conversations") // nothing to find in it
	}
	return nil
}
