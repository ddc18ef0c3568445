package ui

import (
	"strings"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/charmbracelet/lipgloss"
)

// truncate and fit are termtext.Truncate and termtext.Fit: every pane
// measures with termtext.Width, the one width function.
func truncate(s string, w int) string { return termtext.Truncate(s, w) }

func fit(s string, w int) string { return termtext.Fit(s, w) }

// fitLines makes every line of s exactly w cells wide and returns exactly h
// lines, so a pane never overflows its box or leaves stale cells behind.
func fitLines(s string, w, h int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fit(l, w)
	}
	blank := strings.Repeat(" ", max(w, 0))
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return lines
}

// trimLastLines drops the last n lines of s (n <= 0: s unchanged): the body
// gives them up when the status bar needs more than its one line.
func trimLastLines(s string, n int) string {
	for ; n > 0; n-- {
		i := strings.LastIndexByte(s, '\n')
		if i < 0 {
			return ""
		}
		s = s[:i]
	}
	return s
}

// styleSnippet renders a sanitised snippet on one line of at most w cells,
// matches (between the store's highlight markers) in hit style. When the
// first match would fall off the right edge the start is trimmed, so the
// match stays visible.
func styleSnippet(snippet string, w int, base, hit lipgloss.Style) string {
	s := termtext.AroundHit(termtext.OneLine(termtext.SanitizeSnippet(snippet)), w)
	var b strings.Builder
	for s != "" {
		i := strings.IndexRune(s, termtext.MarkStart)
		if i < 0 {
			b.WriteString(base.Render(s))
			break
		}
		if i > 0 {
			b.WriteString(base.Render(s[:i]))
		}
		s = s[i+len(string(termtext.MarkStart)):]
		j := strings.IndexRune(s, termtext.MarkEnd)
		if j < 0 {
			j = len(s)
		}
		b.WriteString(hit.Render(s[:j]))
		if j < len(s) {
			s = s[j+len(string(termtext.MarkEnd)):]
		} else {
			s = ""
		}
	}
	return truncate(b.String(), w)
}
