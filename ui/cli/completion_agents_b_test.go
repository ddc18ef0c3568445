package cli

import (
	"slices"
	"testing"
)

// TestCompleteNewSourceAliases: the short names of Qwen Code and Copilot CLI
// are offered after `import`, as claude and gemini are, and the sources of
// issue 33 by their names.
func TestCompleteNewSourceAliases(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"import", "qw"}, []string{"qwen", "qwen-code"}},
		{[]string{"import", "qod"}, []string{"qoder"}},
		{[]string{"import", "openc"}, []string{"openclaw", "opencode"}},
		{[]string{"import", "aug"}, []string{"auggie"}},
		{[]string{"import", "grok-"}, []string{"grok-build", "grok-cli"}},
		{[]string{"import", "copi"}, []string{"copilot", "copilot-chat", "copilot-cli"}},
		{[]string{"import", "dee"}, []string{"deepseek-harness"}},
		{[]string{"import", "dev"}, []string{"devin"}},
		{[]string{"import", "war"}, []string{"warp"}},
		{[]string{"import", "roo"}, []string{"roo-code"}},
		{[]string{"import", "tra"}, []string{"trae-cli"}},
		{[]string{"import", "wind"}, []string{"windsurf"}},
		{[]string{"import", "cli"}, []string{"cline"}},
	} {
		if got := completeWords(t, tc.words...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
}
