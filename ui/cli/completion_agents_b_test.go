package cli

import (
	"slices"
	"testing"
)

// TestCompleteNewSourceAliases: the short names of Qwen Code and Copilot CLI
// are offered after `import`, as claude and gemini are.
func TestCompleteNewSourceAliases(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"import", "q"}, []string{"qwen", "qwen-code"}},
		{[]string{"import", "copi"}, []string{"copilot", "copilot-cli"}},
		{[]string{"import", "cli"}, []string{"cline"}},
	} {
		if got := completeWords(t, tc.words...); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.words, got, tc.want)
		}
	}
}
