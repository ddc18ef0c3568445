package mcpserver

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// parsedEntry is a server entry read back from a snippet.
type parsedEntry struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Type    string   `json:"type"`
}

// TestConfigSnippets: each agent's snippet parses in its own format (JSON
// here; TOML and YAML with python3's tomllib and PyYAML, since the module
// has no Go parser for them) and names exactly the binary and arguments,
// whatever characters the path holds.
func TestConfigSnippets(t *testing.T) {
	bins := []string{"/usr/local/bin/recall", `/Users/Ann Lee/bin/re"call\x`, "/opt/レコール/bin/recall", "/tmp/a: b #c/<recall>&"}
	args := []string{"mcp", "--db", "/data/my state.db"}
	docs := map[string][]string{} // agent -> snippet per bin
	for _, bin := range bins {
		for _, agent := range Agents {
			snippet, where, err := ConfigSnippet(agent, bin, args)
			if err != nil || where == "" {
				t.Fatalf("%s: %v", agent, err)
			}
			docs[agent] = append(docs[agent], snippet)
		}
	}
	parsed := map[string][]parsedEntry{
		"codex":  pythonParse(t, "tomllib", "tomllib.loads(doc)", docs["codex"]),
		"hermes": pythonParse(t, "yaml", "yaml.safe_load(doc)", docs["hermes"]),
	}
	for _, agent := range []string{"claude", "gemini"} {
		for _, snippet := range docs[agent] {
			var doc struct {
				MCPServers map[string]parsedEntry `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(snippet), &doc); err != nil {
				t.Fatalf("%s snippet is not JSON: %v\n%s", agent, err, snippet)
			}
			parsed[agent] = append(parsed[agent], doc.MCPServers["recall"])
		}
	}
	for agent, entries := range parsed {
		for i, got := range entries {
			if got.Command != bins[i] || !slices.Equal(got.Args, args) {
				t.Errorf("%s with %q: parsed command %q args %q\n%s", agent, bins[i], got.Command, got.Args, docs[agent][i])
			}
			if agent == "claude" && got.Type != "stdio" {
				t.Errorf("claude entry type %q", got.Type)
			}
		}
	}
	if _, _, err := ConfigSnippet("cursor", "/bin/recall", nil); err == nil || !strings.Contains(err.Error(), "claude, codex, gemini, hermes") {
		t.Errorf("unknown agent: %v", err)
	}
}

// pythonParse loads each doc with python3 (module imported, load the
// expression over doc) and returns its mcp_servers.recall entries; it
// skips the test where python3 or the module is missing.
func pythonParse(t *testing.T, module, load string, docs []string) []parsedEntry {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	script := "import json, sys\ntry:\n    import " + module + "\nexcept ImportError:\n    print('MISSING'); sys.exit(0)\n" +
		"out = []\nfor doc in json.load(sys.stdin):\n    d = " + load + "['mcp_servers']['recall']\n    out.append({'command': d['command'], 'args': d['args']})\nprint(json.dumps(out))\n"
	in, _ := json.Marshal(docs)
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3 %s could not parse the snippets: %v\n%s\n%s", module, err, out, strings.Join(docs, "\n"))
	}
	if strings.TrimSpace(string(out)) == "MISSING" {
		t.Skipf("python3 has no %s module", module)
	}
	var entries []parsedEntry
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return entries
}
