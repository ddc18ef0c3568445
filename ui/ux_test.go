package ui

import (
	"context"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/ui/termtext"
	"slices"
	"strings"
	"testing"
)

// F6's status says what enter and esc then do: enter opens the summary
// full-screen, esc shows the transcript, esc again the list. Before it said
// "enter opens the session, esc comes back", and both were wrong.
func TestListOnlyStatusSaysWhatHappens(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("f6")
	status := d.m.status.msg
	for _, want := range []string{"enter: the session's summary", "esc: its transcript", "esc again: the list"} {
		if !strings.Contains(status, want) {
			t.Fatalf("F6 status %q lacks %q", status, want)
		}
	}
	d.key("tab")
	d.key("enter")
	d.settle() // the summary has streamed (while it streams, esc cancels it first)
	if !d.m.summary.open || d.m.focus != focusDetail {
		t.Fatalf("enter: summary open %v, focus %v; the status promised the summary", d.m.summary.open, d.m.focus)
	}
	d.key("esc")
	d.settle()
	if d.m.summary.open || d.m.focus != focusDetail {
		t.Fatalf("esc: summary open %v, focus %v; the status promised the transcript", d.m.summary.open, d.m.focus)
	}
	d.key("esc")
	if d.m.focus != focusList {
		t.Fatalf("esc again: focus %v; the status promised the list", d.m.focus)
	}
}

// ctrl-v pastes from where y copies to (tmux's buffer inside tmux) and says
// where from; when no clipboard can be read it says so. Before, Bubbles'
// ctrl-v tried only xclip/wl-paste and, without them, did nothing silently.
func TestPasteSaysWhere(t *testing.T) {
	d := newDriverWith(t, demoBackend(), 120, 30, Options{Paste: func(context.Context) (string, string, error) {
		return "sqlite\nmigration", "the tmux buffer", nil
	}})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("ctrl+v")
	d.pump("pasted", func() bool { return d.m.input.Value() != "" })
	if got := d.m.input.Value(); got != "sqlite migration" || !strings.Contains(d.m.status.msg, "pasted from the tmux buffer") {
		t.Errorf("query %q, status %q", got, d.m.status.msg)
	}
	d = newDriverWith(t, demoBackend(), 120, 30, Options{Paste: func(context.Context) (string, string, error) {
		return "", "", errNoClipboard
	}})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("ctrl+v")
	d.pump("told", func() bool { return d.m.status.msg != "" })
	if !strings.Contains(d.m.status.msg, "nothing pasted") {
		t.Errorf("status %q; want nothing pasted, and why", d.m.status.msg)
	}
}

// F1 is a boxed popup (lazygit) that lists ctrl-p/ctrl-n and the search
// box's readline keys; before, it was unboxed grey text without them.
func TestHelpIsABoxWithReadlineKeys(t *testing.T) {
	d := newDriver(t, demoBackend(), 200, 60)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("f1")
	s := d.screen()
	for _, want := range []string{"╭─ Help", "╰─", "ctrl+p", "ctrl+n", "ctrl+a/e", "ctrl+w", "alt+b/f", "paste"} {
		if !strings.Contains(s, want) {
			t.Errorf("help lacks %q:\n%s", want, s)
		}
	}
}

// n past the last hit goes back to the first and says so (less and vim
// do); before, it wrapped silently.
func TestNextHitWrapSaysSo(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("migration")
	d.pump("transcript", func() bool {
		return d.m.detail.session.ID == "cc-1111" && !d.m.detail.loading && len(d.m.detail.targets) > 1
	})
	d.key("tab")
	d.key("tab")
	n := len(d.m.detail.targets)
	for range n - 1 - d.m.detail.hit {
		d.key("n")
		if strings.Contains(d.m.status.msg, "back to the first") {
			t.Fatalf("wrap reported before the last hit: %q", d.m.status.msg)
		}
	}
	d.key("n")
	if d.m.detail.hit != 0 || !strings.Contains(d.m.status.msg, "past the last hit: back to the first") {
		t.Errorf("hit %d, status %q", d.m.detail.hit, d.m.status.msg)
	}
}

// --here starts scoped to this repository (its chip shows), F7 cycles this
// repo / all, and the scope reaches both the browse list and the search.
func TestScopeThisRepoOrAll(t *testing.T) {
	b := demoBackend()
	d := newDriverWith(t, b, 120, 30, Options{Project: "/src/myrepo", Here: true})
	d.pump("browse", func() bool { return len(b.browses) > 0 && d.m.finalSeq == d.m.seq })
	b.mu.Lock()
	cwd := b.browses[len(b.browses)-1].Cwd
	b.mu.Unlock()
	if cwd != "/src/myrepo" || !strings.Contains(d.screen(), "repo:myrepo") {
		t.Fatalf("--here: browse cwd %q; screen:\n%s", cwd, d.screen())
	}
	d.typ("migration")
	d.pump("search", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == "migration" })
	if got := b.lastRequest().Filter.Cwd; got != "/src/myrepo" {
		t.Errorf("search cwd %q, want the repo", got)
	}
	d.key("f7")
	d.pump("all", func() bool { return d.m.finalSeq == d.m.seq && b.lastRequest().Filter.Cwd == "" })
	if strings.Contains(d.screen(), "repo:myrepo") || !strings.Contains(d.screen(), "this repo") {
		t.Errorf("after F7 the chip should be gone and the hint offer this repo:\n%s", d.screen())
	}
}

// F8 switches a query's results between relevance (the engine's order)
// and recency (newest hit first), with a chip saying which.
func TestSortToggle(t *testing.T) {
	b := demoBackend()
	slices.Reverse(b.sessions) // the "relevance" order: oldest first
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("e")
	d.pump("results", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == "e" })
	ids := func() []string {
		var out []string
		for _, it := range d.m.list.items {
			out = append(out, it.SessionID)
		}
		return out
	}
	rel := ids()
	d.key("f8")
	d.pump("re-sorted", func() bool { return d.m.finalSeq == d.m.seq && !slices.Equal(ids(), rel) })
	want := []string{"cc-1111", "cx-2222", "h-3333", "tg-4444"}
	if got := ids(); !slices.Equal(got[:len(want)], want) || !strings.Contains(d.screen(), "sort:recent") {
		t.Errorf("by recency: %v; want %v and a sort chip:\n%s", got, want, d.screen())
	}
	d.key("f8")
	d.pump("relevance", func() bool { return d.m.finalSeq == d.m.seq && slices.Equal(ids(), rel) })
}

// On a wide screen the transcript's prose is set at most readableWidth
// cells wide (glow), not the pane's 130-odd.
func TestProseCappedOnWideScreens(t *testing.T) {
	b := demoBackend()
	b.msgs["h-3333"][1].Content = strings.Repeat("Keep the previous release and switch the symlink back. ", 12)
	d := newDriver(t, b, 250, 40)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("symlink")
	d.pump("transcript", func() bool { return d.m.detail.session.ID == "h-3333" && !d.m.detail.loading })
	if d.m.layout.detW <= readableWidth+10 {
		t.Fatalf("the pane is only %d wide", d.m.layout.detW)
	}
	widest := 0
	for _, l := range d.m.detail.doc.lines {
		if strings.Contains(l, "symlink") {
			widest = max(widest, termtext.Width(strings.TrimRight(ansi.Strip(l), " ")))
		}
	}
	if widest == 0 || widest > readableWidth {
		t.Errorf("prose lines up to %d cells wide, want 1..%d", widest, readableWidth)
	}
}

// A status message goes when what it spoke of does: "hit 2 of 3" of one
// session is not left under another, nor under a new query.
func TestStaleStatusCleared(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("e")
	d.pump("results", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) > 1 })
	d.pump("transcript", func() bool { return !d.m.detail.loading && d.m.detail.session.ID != "" })
	d.key("tab")
	d.key("tab")
	d.key("n")
	if !strings.Contains(d.m.status.msg, "hit") {
		t.Fatalf("n: status %q", d.m.status.msg)
	}
	d.key("shift+tab")
	d.key("down")
	if d.m.status.msg != "" {
		t.Errorf("after moving to another session the status still says %q", d.m.status.msg)
	}
	d.key("tab")
	d.key("n")
	d.key("esc")
	d.key("esc")
	d.typ("x")
	if strings.Contains(d.m.status.msg, "hit") {
		t.Errorf("after a new query the status still says %q", d.m.status.msg)
	}
}

// The start-up notice (opened read-only, a command the first word may be a
// slip of) is on the first screen and stays until the query is edited.
// Before, the first search cleared it before anything was drawn.
func TestStartupNoticeStays(t *testing.T) {
	d := newDriverWith(t, demoBackend(), 120, 30, Options{Query: "serach", Notice: `searching for "serach" (for the command: recall search …)`})
	d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq })
	if s := d.screen(); !strings.Contains(s, "for the command: recall search") {
		t.Fatalf("no notice on the first screen:\n%s", s)
	}
	d.key("backspace")
	if strings.Contains(d.screen(), "for the command") {
		t.Errorf("the notice outlived the query it spoke of")
	}
}
