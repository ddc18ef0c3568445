package termtext

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Every pane measures text with Width and cuts it with Truncate and Fit, so
// the list, the transcript, the summary, the help and the status line agree
// on how many cells a character takes: East Asian wide characters and emoji
// two, combining marks and zero-width joiners none, escape sequences none.
// It is the measure lipgloss lays panes out with (grapheme clusters, as
// charmbracelet/x/ansi counts them), so a pane's own arithmetic and the
// layout around it cannot drift apart.

// Width is the number of terminal cells s takes; escape sequences take none.
func Width(s string) int { return ansi.StringWidth(s) }

// Truncate cuts a (possibly styled) string to at most w cells, marking a cut
// with "…". Wide characters are never split: one that would straddle the
// edge is dropped whole.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Fit truncates s to w cells and pads it with spaces to exactly w. Styling
// left open is closed before the padding, so a cut inside a highlight does
// not paint the rest of the row.
func Fit(s string, w int) string {
	s = Truncate(s, w)
	if strings.Contains(s, "\x1b[") && !strings.HasSuffix(s, "\x1b[0m") {
		s += "\x1b[0m"
	}
	if n := Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// PadRight pads s with spaces to w cells (never cuts it).
func PadRight(s string, w int) string {
	if n := Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// ExpandTabs replaces each tab with the spaces up to the next multiple of
// tab cells, so a tab's width is known: terminals give it up to eight cells
// while Width counts none, which would push a line past its pane.
func ExpandTabs(s string, tab int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0
	var state byte
	for len(s) > 0 {
		seq, w, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		switch {
		case seq == "\t":
			pad := tab - col%tab
			b.WriteString(strings.Repeat(" ", pad))
			col += pad
		case seq == "\n":
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteString(seq)
			col += w
		}
		s = s[n:]
	}
	return b.String()
}
