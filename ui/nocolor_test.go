package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// colourSGR finds the SGR sequences that set a colour (foreground or
// background, 16, 256 or true colour); resets such as 39 and 49 are fine.
func colourSGR(s string) []string {
	var bad []string
	for _, seq := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(s, -1) {
		for _, p := range strings.Split(seq[1], ";") {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107) {
				bad = append(bad, seq[0])
				break
			}
		}
	}
	return bad
}

// reverseHit matches text shown in reverse video (SGR parameter 7).
func reverseHit(text string) *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m(?:\x1b\[[0-9;]*m)*(?i:` + regexp.QuoteMeta(text) + `)`)
}

func TestColourSGR(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"\x1b[1;7mhit\x1b[0m", 0},
		{"\x1b[39m\x1b[49m\x1b[27m", 0},
		{"\x1b[38;5;252mx", 1},
		{"\x1b[1;48;5;220mx", 1},
		{"\x1b[31mx\x1b[0m\x1b[97mx", 2},
	} {
		if got := len(colourSGR(tc.in)); got != tc.want {
			t.Errorf("colourSGR(%q) found %d, want %d", tc.in, got, tc.want)
		}
	}
}

// Under NO_COLOR the whole screen, markdown transcript included, carries no
// colour, and what colour meant is still visible: hits in reverse video in
// both panes, the selected title too.
func TestNoColorScreen(t *testing.T) {
	d := newDriverWith(t, demoBackend(), 120, 30, Options{NoColor: true})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("migration")
	d.pump("transcript of the hit", func() bool {
		return d.m.finalSeq == d.m.seq && d.m.detail.doc.session.ID == "cc-1111" && d.m.detail.query == "migration"
	})
	v := d.m.View()
	if bad := colourSGR(v); len(bad) > 0 {
		t.Errorf("NO_COLOR screen sets colours %q:\n%q", bad[:min(len(bad), 5)], v)
	}
	left, right := splitPanes(v, d.m.layout.listW)
	if !reverseHit("migration").MatchString(left) {
		t.Errorf("list snippet hit not in reverse video:\n%q", left)
	}
	if !reverseHit("migration").MatchString(right) {
		t.Errorf("transcript hit not in reverse video:\n%q", right)
	}
	if !reverseHit("Fix the sqlite").MatchString(left) {
		t.Errorf("selected title not in reverse video:\n%q", left)
	}

	// The same screen in colour does use colour: the check above can fail.
	c := newDriverWith(t, demoBackend(), 120, 30, Options{})
	c.pump("browse", func() bool { return len(c.m.list.items) == 4 })
	c.typ("migration")
	c.pump("results", func() bool { return c.m.finalSeq == c.m.seq && c.m.lastQuery == "migration" })
	if len(colourSGR(c.m.View())) == 0 {
		t.Errorf("colour screen has no colour: the NO_COLOR check proves nothing")
	}
}

// splitPanes cuts every line of a styled screen at visible column w: the
// list pane and the rest.
func splitPanes(screen string, w int) (left, right string) {
	var l, r strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		l.WriteString(ansi.Truncate(line, w, "") + "\n")
		r.WriteString(ansi.TruncateLeft(line, w, "") + "\n")
	}
	return l.String(), r.String()
}
