package mcpserver

import (
	"strings"
	"testing"
)

// TestInstructionsSayWhen: Claude Code and Codex defer MCP tools behind
// their tool search, so the instructions (what the model reads first) must
// name the tool, say when to use it and that it may need loading.
func TestInstructionsSayWhen(t *testing.T) {
	for _, want := range []string{"session_search", "tool search", "earlier work", "last time", "before saying you do not remember"} {
		if !strings.Contains(Instructions, want) {
			t.Errorf("instructions lack %q: %s", want, Instructions)
		}
	}
}
