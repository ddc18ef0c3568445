package termtext

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// OneLine collapses runs of whitespace (newlines, tabs) into single spaces
// and trims both ends, so a multi-line text fits a list row or a status line.
func OneLine(s string) string {
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

// Clip cuts s to at most n characters (runes), marking a cut with "…".
func Clip(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// Line is stored text made safe and short for one line of terminal output:
// sanitised, whitespace collapsed, clipped to n characters.
func Line(s string, n int) string { return Clip(OneLine(Sanitize(s)), n) }

// Thousands prints n with thousands separators: 41,200.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Clock prints a duration as a clock, for an ETA: 0:42, 12:05, 1:02:03.
func Clock(d time.Duration) string {
	s := int64(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// RelTime says how long before now t was, compactly: "now", "5m ago",
// "3h ago", "2d ago", "Jan 2" this year, "2023-04-05" before it. The zero
// time is "".
func RelTime(now, t time.Time) string {
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
		return t.Local().Format("Jan 2")
	}
	return t.Local().Format("2006-01-02")
}
