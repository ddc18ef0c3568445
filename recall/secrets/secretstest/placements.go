package secretstest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/store"
)

// Fixture is a session holding one secret: its title and messages (ids,
// session id and times are the caller's).
type Fixture struct {
	Title    string
	Messages []store.Message
}

// Placement is one place a transcript holds a secret.
type Placement struct {
	Name string
	// Make builds a session holding f, findable by word (a search for word
	// matches the text that holds the secret, so snippets show it).
	Make func(f Form, word string) Fixture
}

// toolCall is an OpenAI-style tool_calls list with one call whose
// arguments (a JSON string holding JSON, as stored) are args.
func toolCall(name string, args map[string]string) string {
	inner, _ := json.Marshal(args)
	outer, _ := json.Marshal([]map[string]any{{"id": "call_1", "type": "function",
		"function": map[string]string{"name": name, "arguments": string(inner)}}})
	return string(outer)
}

func opening(word string) store.Message {
	return store.Message{Role: "user", Content: "please help with the " + word + " deploy"}
}

// Placements are the places of issue 30: user text, assistant text, tool
// output, tool-call arguments, reasoning, the session title, and tool-call
// arguments with the secret JSON-escaped (\uXXXX) and followed by an
// escaped quote.
var Placements = []Placement{
	{"user", func(f Form, w string) Fixture {
		return Fixture{Messages: []store.Message{
			{Role: "user", Content: w + " is failing, here is my setup:\n" + f.Line + "\nwhat is wrong?"},
			{Role: "assistant", Content: "Let me look at the " + w + " setup."}}}
	}},
	{"assistant", func(f Form, w string) Fixture {
		return Fixture{Messages: []store.Message{opening(w),
			{Role: "assistant", Content: "For " + w + " run this:\n\n```bash\n" + f.Line + "\n```\n\nThen retry."}}}
	}},
	{"tool-output", func(f Form, w string) Fixture {
		return Fixture{Messages: []store.Message{opening(w),
			{Role: "assistant", ToolCalls: toolCall("Bash", map[string]string{"command": "cat .env"})},
			{Role: "tool", ToolName: "Bash", ToolCallID: "call_1", Content: "# " + w + " settings\n" + f.Line + "\nLOG_LEVEL=debug"},
			{Role: "assistant", Content: "The " + w + " settings are loaded."}}}
	}},
	{"tool-args", func(f Form, w string) Fixture {
		return Fixture{Messages: []store.Message{opening(w),
			{Role: "assistant", Content: "Setting up " + w + ".", ToolCalls: toolCall("Bash", map[string]string{"command": w + " setup; " + f.Line})},
			{Role: "tool", ToolName: "Bash", ToolCallID: "call_1", Content: w + " configured"}}}
	}},
	{"reasoning", func(f Form, w string) Fixture {
		return Fixture{Messages: []store.Message{opening(w),
			{Role: "assistant", Content: "I checked the " + w + " configuration.", Reasoning: "The " + w + " config holds " + f.Line + " so I should not print it."}}}
	}},
	{"title", func(f Form, w string) Fixture {
		return Fixture{Title: w + " " + strings.Join(strings.Fields(f.Line), " "), Messages: []store.Message{opening(w),
			{Role: "assistant", Content: "Done with " + w + "."}}}
	}},
	{"json-escaped", func(f Form, w string) Fixture {
		// {"command":"<word> setup; <line with the secret's first
		// character as \uXXXX>"} as a string inside the tool call: every
		// escape is written twice, and a quote follows the secret.
		line := strings.Replace(f.Line, f.Secret, fmt.Sprintf(`\u%04x`, f.Secret[0])+f.Secret[1:], 1)
		args := `{"command":"` + w + ` setup; ` + strings.ReplaceAll(strings.ReplaceAll(line, `"`, `\"`), "\n", `\n`) + `"}`
		outer, _ := json.Marshal(args) // the arguments string: \u becomes \\u, " becomes \"
		calls := `[{"id":"call_1","type":"function","function":{"name":"Bash","arguments":` + string(outer) + `}}]`
		return Fixture{Messages: []store.Message{opening(w),
			{Role: "assistant", Content: "Running the " + w + " setup.", ToolCalls: calls},
			{Role: "tool", ToolName: "Bash", ToolCallID: "call_1", Content: w + " ok"}}}
	}},
}
