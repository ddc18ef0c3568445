package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// truncate cuts a (possibly styled) string to at most w cells, counting wide
// CJK characters and emoji as two, and marks the cut with an ellipsis.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// fit truncates s to w cells and pads it with spaces to exactly w.
func fit(s string, w int) string {
	s = truncate(s, w)
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

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

// oneLine collapses runs of whitespace (newlines, tabs) into single spaces.
func oneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// relTime says how long ago t was, compactly ("5m", "3h", "2d", "Jan 2", "2023-04-05").
func relTime(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("2006-01-02")
}

// styleSnippet renders a sanitised snippet on one line of at most w cells,
// matches (between the store's highlight markers) in hit style. When the
// first match would fall off the right edge the start is trimmed, so the
// match stays visible.
func styleSnippet(snippet string, w int, base, hit lipgloss.Style) string {
	s := oneLine(sanitizeSnippet(snippet))
	if i := strings.IndexRune(s, markStart); i > 0 {
		if pre := ansi.StringWidth(s[:i]); pre > w/3 {
			s = "…" + trimLeftCells(s[:i], pre-w/4) + s[i:]
		}
	}
	var b strings.Builder
	for s != "" {
		i := strings.IndexRune(s, markStart)
		if i < 0 {
			b.WriteString(base.Render(s))
			break
		}
		if i > 0 {
			b.WriteString(base.Render(s[:i]))
		}
		s = s[i+len(string(markStart)):]
		j := strings.IndexRune(s, markEnd)
		if j < 0 {
			j = len(s)
		}
		b.WriteString(hit.Render(s[:j]))
		if j < len(s) {
			s = s[j+len(string(markEnd)):]
		} else {
			s = ""
		}
	}
	return truncate(b.String(), w)
}

// trimLeftCells drops leading characters of s until n cells are gone.
func trimLeftCells(s string, n int) string {
	for i, r := range s {
		if n <= 0 {
			return s[i:]
		}
		n -= ansi.StringWidth(string(r))
	}
	return ""
}
