package ui

import (
	"context"
	"strings"
	"testing"
)

// goneFake is the demo backend with sessions whose files are gone.
type goneFake struct {
	*fakeBackend
	gone map[string]bool
}

func (g goneFake) SourceGone(context.Context) (map[string]bool, error) { return g.gone, nil }

// TestListMarksSourceGone: a session whose source file the agent deleted
// is kept, and its row says "file deleted"; the others do not.
func TestListMarksSourceGone(t *testing.T) {
	d := newDriver(t, goneFake{demoBackend(), map[string]bool{"cx-2222": true}}, 100, 30)
	d.pump("recent sessions with markers", func() bool { return len(d.m.list.items) == 4 && d.m.list.gone != nil })
	d.settle()
	screen := d.screen()
	if n := strings.Count(screen, goneMark); n != 1 {
		t.Fatalf("%d %q markers, want 1:\n%s", n, goneMark, screen)
	}
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, goneMark) && !strings.Contains(line, "codex") {
			t.Errorf("the marker is on a line that is not the codex session's: %q", line)
		}
	}
}
