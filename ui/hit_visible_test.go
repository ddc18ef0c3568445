package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// The current hit is always on screen: a hit inside a compact tool line
// (a long command output, past the pane's width and past the first 200
// characters) used to be cut behind "…", so the header said "hit 1/1" and
// nothing was highlighted. Now the line holding it is wrapped around the
// match.
func TestCurrentHitVisibleInToolLine(t *testing.T) {
	b := demoBackend()
	long := strings.Repeat("pulling layer sha256:0123456789abcdef done; ", 12) + "Error: docker network bridge0 not found" +
		strings.Repeat(" retrying", 20)
	b.msgs["h-3333"] = append(b.msgs["h-3333"], store.Message{ID: 30, SessionID: "h-3333", Role: "tool", ToolName: "Bash",
		Content: long, Timestamp: testNow})
	for _, w := range []int{80, 120, 200} {
		d := newDriver(t, b, w, 30)
		d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
		d.typ("bridge0")
		d.pump("hit shown", func() bool {
			return d.m.detail.session.ID == "h-3333" && !d.m.detail.loading && d.m.detail.hit == 0
		})
		if d.m.layout.mode == layoutSingle {
			d.key("enter")
		}
		// The current hit's line holds the highlighted word, and it is in
		// the pane's window.
		dv := &d.m.detail
		line := dv.targets[dv.hit]
		raw := strings.ReplaceAll(dv.doc.raw[line], string(termtext.MarkEnd), "")
		if !strings.Contains(raw, string(termtext.MarkStart)+"bridge0") {
			t.Errorf("%d columns: the current hit's line %q lacks the highlighted match", w, raw)
		}
		if line < dv.view.offset || line >= dv.view.offset+dv.view.height {
			t.Errorf("%d columns: the hit's line %d is outside the window %d+%d", w, line, dv.view.offset, dv.view.height)
		}
		shown := ansi.Strip(dv.doc.lines[line])
		if !strings.Contains(shown, "bridge0") || !strings.Contains(d.screen(), shown) {
			t.Errorf("%d columns: the hit is not on screen (line %q):\n%s", w, shown, d.screen())
		}
	}
}
