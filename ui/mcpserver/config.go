package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Agents are the agents ConfigSnippet knows, in the order the README lists them.
var Agents = []string{"claude", "codex", "gemini", "hermes"}

// ConfigSnippet returns the MCP server entry that makes agent start
// `bin args...` (bin absolute, args normally ["mcp"]), in the agent's own
// config format, and a one-line note on where it goes. The formats were
// checked against each agent's documentation:
//
//	claude  .mcp.json (project) {"mcpServers": {...}}; `claude mcp add` for the user scope
//	codex   ~/.codex/config.toml [mcp_servers.NAME] command, args
//	gemini  ~/.gemini/settings.json {"mcpServers": {...}}
//	hermes  ~/.hermes/config.yaml mcp_servers: NAME: command, args
func ConfigSnippet(agent, bin string, args []string) (snippet, where string, err error) {
	cmdline := shellQuote(append([]string{bin}, args...))
	switch agent {
	case "claude", "claude-code":
		snippet = jsonSnippet(map[string]any{"mcpServers": map[string]any{"recall": stdioServer{Type: "stdio", Command: bin, Args: args}}})
		where = "save as .mcp.json in a project root, or for every project run: claude mcp add --scope user recall -- " + cmdline
	case "codex":
		snippet = "[mcp_servers.recall]\ncommand = " + quote(bin) + "\nargs = " + quoteList(args) + "\n"
		where = "add to ~/.codex/config.toml, or run: codex mcp add recall -- " + cmdline
	case "gemini", "gemini-cli":
		snippet = jsonSnippet(map[string]any{"mcpServers": map[string]any{"recall": stdioServer{Command: bin, Args: args}}})
		where = "merge into ~/.gemini/settings.json (or .gemini/settings.json in a project)"
	case "hermes":
		snippet = "mcp_servers:\n  recall:\n    command: " + quote(bin) + "\n    args: " + quoteList(args) + "\n"
		where = "merge under mcp_servers in ~/.hermes/config.yaml, then /reload-mcp in a running session"
	default:
		return "", "", fmt.Errorf("unknown agent %q (want %s)", agent, strings.Join(Agents, ", "))
	}
	return snippet, where, nil
}

// stdioServer is an mcpServers entry of Claude Code and Gemini CLI.
type stdioServer struct {
	Type    string   `json:"type,omitempty"` // Claude Code's transport ("stdio")
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func jsonSnippet(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("mcpserver: encode config: %v", err)) // maps of strings
	}
	return string(b) + "\n"
}

// quote writes s as a double-quoted string that TOML basic strings and YAML
// double-quoted scalars both read back exactly: JSON's escapes (\" \\ \n
// \t \uXXXX) are a subset of both.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// quoteList is an inline list of quoted strings, valid TOML and YAML.
func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// shellQuote joins words for a POSIX shell, quoting those that need it.
func shellQuote(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@+,") == "" {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
