package ui

import (
	"encoding/json"
	"strings"

	"github.com/recall-dev/recall/ui/termtext"
)

// toolCall is the part of a stored tool call the compact view reads. Hermes
// and recall store OpenAI's form ({"function":{"name","arguments"}}, the
// arguments a JSON string); importers of other agents may store a bare
// {"name","input"} form, accepted too.
type toolCall struct {
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// mainArgKeys are the arguments that say what a call did, most telling first.
var mainArgKeys = []string{"command", "cmd", "file_path", "path", "pattern", "query", "url", "goal", "description", "prompt"}

// describeToolCalls renders a tool_calls list as `Bash docker ps · Read
// /etc/hosts`: each call's name and its most telling argument. Anything it
// cannot read is shown as one compact line of the raw text.
func describeToolCalls(raw string) string {
	var calls []toolCall
	if err := json.Unmarshal([]byte(raw), &calls); err != nil || len(calls) == 0 {
		return compactLine(raw)
	}
	parts := make([]string, 0, len(calls))
	for _, c := range calls {
		name, args := c.Function.Name, []byte(c.Function.Arguments)
		if name == "" {
			name, args = c.Name, c.Input
		}
		if name == "" {
			return compactLine(raw)
		}
		parts = append(parts, strings.TrimSpace(name+" "+mainArg(args)))
	}
	return compactLine(strings.Join(parts, " · "))
}

// mainArg picks the most telling string argument, else the compact JSON.
func mainArg(args []byte) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return termtext.OneLine(string(args))
	}
	for _, k := range mainArgKeys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	if len(m) == 0 {
		return ""
	}
	b, _ := json.Marshal(m)
	return string(b)
}
