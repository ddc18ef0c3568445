package ui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
)

// `o` opens less at the current hit: every term of the query highlighted
// (one search matching any of them), and the first line of the hit's
// message that shows a term put on the screen (after the search, so the
// search cannot carry it past the hit). Before: `+82g +/^Rdocker` landed on
// the first "docker" after the hit and highlighted one word.
func TestPagerOpensAtTheHitWithEveryTermHighlighted(t *testing.T) {
	b := demoBackend()
	long := strings.Repeat("filler line about nothing much\n\n", 40)
	b.msgs["cc-1111"] = append(b.msgs["cc-1111"],
		store.Message{ID: 20, SessionID: "cc-1111", Role: "user", Content: long},
		store.Message{ID: 21, SessionID: "cc-1111", Role: "assistant", Content: long + "the busy timeout stops the sqlite migration from failing\n\n" + long})
	d := newDriver(t, b, 120, 30)
	d.typ("sqlite migration")
	d.pump("transcript", func() bool {
		return d.m.detail.doc.session.ID == "cc-1111" && d.m.detail.query == "sqlite migration" && !d.m.detail.loading
	})
	d.key("tab")
	d.key("tab")
	for d.m.detail.targetMsg[d.m.detail.hit] != len(d.m.detail.doc.msgIDs)-1 { // the last message's hit
		d.key("n")
	}
	msgID, terms := d.m.pagerTarget()
	if msgID != 21 {
		t.Fatalf("the pager would open at message %d, want the current hit's, 21", msgID)
	}
	sess, msgs, _ := b.Transcript(d.m.ctx, "cc-1111")
	var raw strings.Builder
	if err := exportMarkdown(&raw, sess, msgs); err != nil {
		t.Fatal(err)
	}
	lines := d.m.md.RenderLines(raw.String(), readableWidth)
	args := renderedPagerStart("less", d.m.md, readableWidth, lines, sess, msgs, msgID, terms)
	if len(args) != 5 || args[0] != "-R" || args[1] != "-i" || args[2] != "-j4" {
		t.Fatalf("less arguments %q", args)
	}
	if args[3] != "+/sqlite|migration" {
		t.Errorf("the search %q does not match every term", args[3])
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(args[4], "+"), "g"))
	if err != nil || n < 1 || n > len(lines) {
		t.Fatalf("jump %q", args[4])
	}
	if got := ansi.Strip(lines[n-1]); !strings.Contains(got, "sqlite migration from failing") {
		t.Errorf("less would put line %d on screen, %q: not the hit's line", n, got)
	}
}
