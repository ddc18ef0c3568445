package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/recall-dev/recall/ui/termtext"
)

// TestFooterFits: the footer is never cut (no "…" standing for the rest,
// "export…" being a key's name for the box it opens; no key cut in half): at every width and in every pane it names as many
// whole keys as fit, most wanted first, as lazygit's does; F1 always, and
// where there is room the pane's main action and the way back (esc). Before,
// 120 columns ended "ctrl+r resume …" and dropped esc, 80 "ctrl+r resume •…".
func TestFooterFits(t *testing.T) {
	panes := []struct {
		name string
		tabs int
		want []string // keys shown at 120 columns and more
	}{
		{"search", 0, []string{"F1 help", "enter summarise", "tab next pane", "esc clear/quit"}},
		{"list", 1, []string{"F1 help", "enter summarise", "tab next pane", "esc back to query"}},
		{"reading", 2, []string{"F1 help", "n next hit", "/ find", "esc back to list"}},
	}
	for _, w := range []int{50, 80, 100, 120, 200} {
		for _, p := range panes {
			t.Run(fmt.Sprintf("%s_%d", p.name, w), func(t *testing.T) {
				d := newDriver(t, demoBackend(), w, 30)
				d.settle()
				for range p.tabs {
					d.key("tab")
				}
				d.settle()
				lines := strings.Split(strings.TrimRight(d.screen(), "\n"), "\n")
				footer := lines[len(lines)-1]
				if termtext.Width(footer) > w || strings.Contains(strings.ReplaceAll(footer, "export…", "export"), "…") || strings.HasSuffix(strings.TrimSpace(footer), "•") {
					t.Errorf("footer cut at %d columns: %q", w, footer)
				}
				if !strings.Contains(footer, "F1 help") {
					t.Errorf("no F1 at %d columns: %q", w, footer)
				}
				if w >= 120 {
					for _, k := range p.want {
						if !strings.Contains(footer, k) {
							t.Errorf("%s missing at %d columns: %q", k, w, footer)
						}
					}
				}
			})
		}
	}
}
