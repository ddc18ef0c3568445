// Package textutil holds the small text and JSON helpers the importers
// share: titles, OpenAI-shaped tool calls, and flattening content parts.
package textutil

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// MaxTitle is Hermes's MAX_TITLE_LENGTH.
const MaxTitle = 100

// Title cleans a title the way Hermes's sanitize_title does (control and
// invisible characters removed, whitespace collapsed), cut to MaxTitle
// characters instead of rejected.
func Title(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case r < 0x20 || r == 0x7f, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e,
			r >= 0x2060 && r <= 0x2069, r == 0xfeff, r == 0xfffc, r >= 0xfff9 && r <= 0xfffb:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	t := b.String()
	if utf8.RuneCountInString(t) > MaxTitle {
		rs := []rune(t)
		t = strings.TrimSpace(string(rs[:MaxTitle-3])) + "..."
	}
	return t
}

// ToolCall is one call in the OpenAI shape Hermes stores in messages.tool_calls.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function ToolFunction `json:"function"`
}

// ToolFunction names the function and carries its arguments as JSON text.
type ToolFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// NewToolCall builds a call whose arguments are args (a JSON value, or
// already a JSON string, kept as text); empty args become "{}".
func NewToolCall(id, name string, args json.RawMessage) ToolCall {
	return ToolCall{ID: id, Type: "function", Function: ToolFunction{Name: name, Arguments: ArgsText(args)}}
}

// ArgsText renders tool arguments as compact JSON text. A JSON string is
// unwrapped (Codex already stores arguments as a string).
func ArgsText(args json.RawMessage) string {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		return "{}"
	}
	if args[0] == '"' {
		var s string
		if json.Unmarshal(args, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, args) != nil {
		return string(args)
	}
	return buf.String()
}

// ToolCallsJSON encodes calls as the JSON list stored in messages.tool_calls
// ("" for none).
func ToolCallsJSON(calls []ToolCall) string {
	if len(calls) == 0 {
		return ""
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(calls); err != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// Join concatenates the non-empty parts with sep.
func Join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// part is the union of the content-part shapes the agents write.
type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// FlattenParts turns content that is a string or a list of parts into
// text: text parts joined by blank lines, an image as "[image]".
func FlattenParts(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []part
	if raw[0] == '[' && json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			switch {
			case p.Text != "":
				texts = append(texts, p.Text)
			case strings.Contains(p.Type, "image"):
				texts = append(texts, "[image]")
			}
		}
		return strings.Join(texts, "\n\n")
	}
	var one part
	if raw[0] == '{' && json.Unmarshal(raw, &one) == nil && one.Text != "" {
		return one.Text
	}
	return string(raw)
}

// ParseTime reads an RFC 3339 timestamp (the form the agents' JSON uses);
// an empty or unreadable one is the zero time, which importers treat as
// unknown.
func ParseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// ParseLocalTime reads a timestamp as Python's isoformat() writes it: RFC
// 3339 when it has a zone, else the machine's local time (what
// datetime.now().isoformat() meant where it was written); the zero time
// when unreadable.
func ParseLocalTime(s string) time.Time {
	if t := ParseTime(s); !t.IsZero() {
		return t
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", s, time.Local)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// DelegatedFrom is the model_config a sub-agent's session gets: Hermes's
// lineage marker naming the session that delegated to it.
func DelegatedFrom(parent string) string {
	raw, _ := json.Marshal(map[string]string{"_delegate_from": parent})
	return string(raw)
}

// uuid is a session UUID as the agents write them into file names.
var uuid = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// IsUUID reports whether s is exactly one session UUID.
func IsUUID(s string) bool {
	return len(s) == 36 && uuid.MatchString(s)
}

// IDFromName is the session id a file's name holds: the last UUID in it
// (rollout-<date>-<uuid>.jsonl, <time>_<uuid>.jsonl), else the name
// without its extension.
func IDFromName(path string) string {
	base := filepath.Base(path)
	if m := uuid.FindAllString(base, -1); len(m) > 0 {
		return m[len(m)-1]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// PromptTitle is the title of a session that has none of its own: its
// first prompt (a user row without a display kind), or "".
func PromptTitle(msgs []store.Message) string {
	for _, m := range msgs {
		if m.Role == "user" && m.DisplayKind == "" {
			return Title(m.Content)
		}
	}
	return ""
}
