package recall

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// A snippet is cut by FTS5's snippet() out of what the index holds for a
// message: its content, its tool name and its tool_calls JSON, one after the
// other. So a hit in a command the agent ran shows up as a fragment of
// doubly escaped JSON (`[{"id":"toolu_…","type":"function","function":
// {"name":"Bash","arguments":"{\"command\": \"docker …`), and a hit in prose
// as markdown cut anywhere (a fence opened and never closed, a lone `**`).
// Readable turns both into what a person reads in the transcript: the tool
// call as `Bash docker network ls`, the prose without markup that cannot be
// rendered on one line. It reads, it never invents: every word shown is a
// word of the message, and the highlight markers around matches are kept.

// ToolCall is one call of a stored tool_calls list.
type ToolCall struct {
	ID   string
	Name string
	// Args is the decoded arguments object; nil when the arguments are not
	// a JSON object (then RawArgs holds them as stored).
	Args    map[string]any
	RawArgs string
}

// toolCallJSON is the stored form: OpenAI's ({"id","type":"function",
// "function":{"name","arguments"}}, the arguments a JSON string), or the
// bare {"name","input"} or {"name","arguments"} form other agents' importers
// store.
type toolCallJSON struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Arguments json.RawMessage `json:"arguments"`
	Function  struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// ParseToolCalls decodes a tool_calls column. It reports false when raw is
// neither empty nor a JSON list of named calls.
func ParseToolCalls(raw string) ([]ToolCall, bool) {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "[]" || raw == "null" {
		return nil, true
	}
	var calls []toolCallJSON
	if json.Unmarshal([]byte(raw), &calls) != nil || len(calls) == 0 {
		return nil, false
	}
	out := make([]ToolCall, 0, len(calls))
	for _, c := range calls {
		name, args := c.Function.Name, c.Function.Arguments
		if name == "" {
			name, args = c.Name, c.Input
			if len(args) == 0 {
				args = c.Arguments
			}
		}
		if name == "" {
			return nil, false
		}
		tc := ToolCall{ID: c.ID, Name: name}
		// Arguments are an object, or a JSON string holding one.
		var s string
		if json.Unmarshal(args, &s) == nil {
			args = json.RawMessage(s)
		}
		tc.RawArgs = string(args)
		var obj map[string]any
		if json.Unmarshal(args, &obj) == nil {
			tc.Args = obj
		}
		out = append(out, tc)
	}
	return out, true
}

// mainArgKeys are the arguments that say what a call did, most telling first.
var mainArgKeys = []string{"command", "cmd", "file_path", "path", "pattern", "query", "url", "goal", "description", "prompt"}

// MainArg is the argument that says what the call did (the command it ran,
// the file it read), else the arguments as compact JSON; "" without any.
func (c ToolCall) MainArg() string {
	if c.Args == nil {
		return strings.TrimSpace(c.RawArgs)
	}
	for _, k := range mainArgKeys {
		switch v := c.Args[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any: // argv form: ["bash", "-lc", "ls"]
			parts := make([]string, 0, len(v))
			for _, p := range v {
				if s, ok := p.(string); ok {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				return strings.Join(parts, " ")
			}
		}
	}
	if len(c.Args) == 0 {
		return ""
	}
	b, _ := json.Marshal(c.Args)
	return string(b)
}

// Describe is the call as the transcript shows it: `Bash docker ps`.
func (c ToolCall) Describe() string {
	return strings.TrimSpace(c.Name + " " + oneLine(c.MainArg()))
}

// PrettyArgs is the arguments indented for reading, with their strings
// decoded once (not the stored, doubly escaped form) and no HTML escaping.
func (c ToolCall) PrettyArgs() string {
	if c.Args == nil {
		return c.RawArgs
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(c.Args) != nil {
		return c.RawArgs
	}
	return strings.TrimRight(b.String(), "\n")
}

// argKeys are the call's argument names, the telling ones first (in
// mainArgKeys' order), then the rest sorted: a map has no order of its own.
func (c ToolCall) argKeys() []string {
	keys := make([]string, 0, len(c.Args))
	for _, k := range mainArgKeys {
		if _, ok := c.Args[k]; ok {
			keys = append(keys, k)
		}
	}
	var rest []string
	for k := range c.Args {
		if !slices.Contains(mainArgKeys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

// argText is one argument value for a person: a string decoded (as the
// agent passed it), anything else as compact JSON without HTML escaping.
func argText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimRight(b.String(), "\n")
}

// ReadableArgs is the call's arguments for a person to read: one
// `key: value` line each, the telling argument first, every string decoded
// (a command's quotes and newlines as the agent wrote them, never `\"` or
// `\n`); a value of several lines follows `key: |` indented, as in YAML.
// Arguments that are not an object are RawArgs.
func (c ToolCall) ReadableArgs() string {
	if c.Args == nil {
		return strings.TrimSpace(c.RawArgs)
	}
	var b strings.Builder
	for _, k := range c.argKeys() {
		v := argText(c.Args[k])
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if !strings.Contains(v, "\n") {
			b.WriteString(k + ": " + v)
			continue
		}
		b.WriteString(k + ": |")
		for _, l := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
			b.WriteString("\n  " + l)
		}
	}
	return b.String()
}

// FlatArgs is ReadableArgs on one line, `key=value` pairs (the telling
// argument first), strings decoded and their line breaks spaces.
func (c ToolCall) FlatArgs() string {
	if c.Args == nil {
		return oneLine(c.RawArgs)
	}
	parts := make([]string, 0, len(c.Args))
	for _, k := range c.argKeys() {
		parts = append(parts, k+"="+oneLine(argText(c.Args[k])))
	}
	return strings.Join(parts, " ")
}

// DescribeToolCalls is a tool_calls column as one line, `Bash docker ps ·
// Read /etc/hosts`; what it cannot decode is the raw text on one line.
func DescribeToolCalls(raw string) string {
	calls, ok := ParseToolCalls(raw)
	if !ok {
		return oneLine(raw)
	}
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = c.Describe()
	}
	return strings.Join(parts, " · ")
}

// ReadableText is a message as one readable line: its prose without the
// markup that cannot be shown on one line, then its tool calls described.
// Tool output is kept as it is (it is not markdown). "" means the message
// says nothing (no text, no call).
func ReadableText(m store.Message) string {
	text := m.Content
	if m.Role != "tool" {
		text = plainMarkdown(text)
	}
	text = oneLine(text)
	if calls := strings.TrimSpace(m.ToolCalls); calls != "" && calls != "[]" {
		if d := DescribeToolCalls(calls); d != "" {
			text = strings.TrimSpace(text + " ⚙ " + d)
		}
	}
	return text
}

// ReadableSnippet is an FTS snippet made readable (see the top of the file):
// a tool-call JSON fragment becomes `Bash docker network connect …`, prose
// loses fences, emphasis markers and backticks. The store's highlight
// markers stay around the matched words, balanced.
func ReadableSnippet(s string) string {
	lead, body, trail := cutEllipses(s)
	prose, js := body, ""
	if i := strings.Index(body, `[{"`); i >= 0 {
		prose, js = body[:i], body[i:]
	} else if looksLikeToolJSON(body) {
		prose, js = "", body
	}
	var parts []string
	if p := oneLine(plainMarkdown(prose)); p != "" {
		parts = append(parts, p)
	}
	if js != "" {
		t := strings.TrimSpace(js)
		// Cut inside a string literal, unless it starts at a key ("command": …).
		midString := !strings.HasPrefix(t, "[") && !strings.HasPrefix(t, "{") && !keyStartRE.MatchString(t)
		if d := describeFragment(js, midString); d != "" {
			parts = append(parts, "⚙ "+d)
		}
	}
	out := strings.Join(parts, " ")
	if out == "" {
		return ""
	}
	if lead {
		out = "…" + out
	}
	if trail {
		out += "…"
	}
	return balanceMarks(out)
}

// cutEllipses strips the "…" snippet() puts where it cut.
func cutEllipses(s string) (lead bool, body string, trail bool) {
	body = strings.TrimSpace(s)
	if strings.HasPrefix(body, "…") {
		lead, body = true, strings.TrimPrefix(body, "…")
	}
	if strings.HasSuffix(body, "…") {
		trail, body = true, strings.TrimSuffix(body, "…")
	}
	return lead, body, trail
}

// toolJSONRE finds what only a stored tool call holds: its keys, its ids,
// and the escaped quotes and doubly escaped newlines of its arguments string.
var toolJSONRE = regexp.MustCompile(`"(?:arguments|function|input|name|type|command|cmd|file_path|old_string|new_string|content|pattern)"\s*:|\\"|\\\\[nt]|"toolu_|"call_|"\}+\]`)

// keyStartRE is a JSON text that starts at an object key.
var keyStartRE = regexp.MustCompile(`^"[^"\\]*"\s*:`)

// doubleEscapeRE finds what only a JSON string inside a JSON string holds
// (the arguments of an OpenAI tool call): an escaped quote or newline
// escaped again.
var doubleEscapeRE = regexp.MustCompile(`\\\\\\"|\\\\[nt]`)

func looksLikeToolJSON(s string) bool { return toolJSONRE.MatchString(s) }

// describeFragment turns a (possibly cut) tool_calls JSON text into call
// descriptions. midString says the text starts inside a string literal
// (snippet() cut into it).
func describeFragment(js string, midString bool) string {
	var out []string
	name := ""
	flush := func(arg string) {
		if d := strings.TrimSpace(name + " " + oneLine(arg)); d != "" {
			out = append(out, d)
		}
		name = ""
	}
	for _, lit := range scanJSONStrings(js, midString) {
		switch {
		case lit.key == "name":
			if name != "" {
				flush("")
			}
			name = lit.val
		case lit.key == "arguments", lit.key == "?" && (looksLikeToolJSON(lit.val) || doubleEscapeRE.MatchString(js)):
			// Cut inside the arguments string: its text is JSON again,
			// decoded a second time (`\\n` is a newline, not "\n").
			flush(mainArgOfFragment(lit.val, lit.key == "?"))
		case lit.key == "?" || isMainArgKey(lit.key):
			flush(lit.val)
		}
	}
	if name != "" {
		flush("")
	}
	return strings.Join(out, " · ")
}

// mainArgOfFragment is the most telling argument of an arguments object's
// (possibly cut) JSON text.
func mainArgOfFragment(js string, midString bool) string {
	best, rank := "", len(mainArgKeys)
	var loose []string
	for _, lit := range scanJSONStrings(js, midString && !strings.HasPrefix(strings.TrimSpace(js), "{")) {
		if lit.key == "?" {
			loose = append(loose, lit.val)
			continue
		}
		for i, k := range mainArgKeys {
			if lit.key == k && i < rank {
				best, rank = lit.val, i
			}
		}
	}
	if best == "" {
		return strings.Join(loose, " ")
	}
	return best
}

func isMainArgKey(k string) bool {
	for _, m := range mainArgKeys {
		if k == m {
			return true
		}
	}
	return false
}

// jsonString is one string literal of a scanned JSON text.
type jsonString struct {
	key string // the key it is the value of; "?" before the text's first key
	val string // decoded
}

// scanJSONStrings returns the string values of a JSON text that may be cut
// at either end, each with its key, decoded once. Keys, numbers and
// punctuation are left out. With midString the text starts inside a
// literal, whose key is unknown ("?").
func scanJSONStrings(s string, midString bool) []jsonString {
	var out []jsonString
	key := "?"
	i := 0
	inString := midString
	for i < len(s) {
		if !inString {
			switch s[i] {
			case '"':
				inString = true
			case '{', '[', ',':
				if s[i] != ',' || key != "?" {
					key = ""
				}
			}
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		lit := unescapeJSON(s[i:min(j, len(s))])
		inString = false
		i = j + 1
		k := i
		for k < len(s) && (s[k] == ' ' || s[k] == '\n') {
			k++
		}
		if k < len(s) && s[k] == ':' {
			key = lit
			i = k + 1
			continue
		}
		if key != "" {
			out = append(out, jsonString{key: key, val: lit})
		}
		if key != "?" {
			key = ""
		}
	}
	return out
}

// unescapeJSON decodes the escapes of a JSON string literal's body; a cut
// escape at the end is dropped.
func unescapeJSON(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(s) {
			break
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r', 'b', 'f':
			b.WriteByte(' ')
		case 'u':
			if i+4 >= len(s) {
				i = len(s)
				continue
			}
			v, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				b.WriteByte('u')
				continue
			}
			i += 4
			r := rune(v)
			if utf16.IsSurrogate(r) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if v2, err := strconv.ParseUint(s[i+3:i+7], 16, 32); err == nil {
					r = utf16.DecodeRune(r, rune(v2))
					i += 6
				}
			}
			b.WriteRune(r)
		default: // \" \\ \/
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

var (
	fenceRE    = regexp.MustCompile("(?:```|~~~)[A-Za-z0-9_+.-]*")
	emphasisRE = regexp.MustCompile(`\*\*|__|(?m)^\s{0,3}#{1,6}\s+`)
)

// plainMarkdown removes the markup that means nothing on one line: code
// fences and their language, bold markers, heading hashes and backticks.
func plainMarkdown(s string) string {
	s = fenceRE.ReplaceAllString(s, " ")
	s = emphasisRE.ReplaceAllString(s, "")
	return strings.ReplaceAll(s, "`", "")
}

// oneLine collapses whitespace runs into single spaces and trims the ends.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// balanceMarks drops highlight markers left without their partner.
func balanceMarks(s string) string {
	if !strings.Contains(s, store.HighlightStart) && !strings.Contains(s, store.HighlightEnd) {
		return s
	}
	var b strings.Builder
	open := -1 // byte offset in b of an unclosed start marker
	for _, r := range s {
		switch string(r) {
		case store.HighlightStart:
			if open >= 0 {
				continue
			}
			open = b.Len()
		case store.HighlightEnd:
			if open < 0 {
				continue
			}
			open = -1
		}
		b.WriteRune(r)
	}
	out := b.String()
	if open >= 0 {
		out = out[:open] + out[open+utf8.RuneLen([]rune(store.HighlightStart)[0]):]
	}
	return out
}
