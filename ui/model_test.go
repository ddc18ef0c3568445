package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/charmbracelet/lipgloss"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

func TestBrowseOnStart(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("recent sessions", func() bool { return len(d.m.list.items) == 4 })
	if s := d.screen(); !strings.Contains(s, "Fix the sqlite migration") || !strings.Contains(s, "4 msgs") {
		t.Fatalf("browse screen lacks the newest session:\n%s", s)
	}
}

func TestTypingSearchesAsYouType(t *testing.T) {
	b := demoBackend()
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("migra")
	d.pump("search results", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == "migra" })
	if len(d.m.list.items) != 1 || d.m.list.items[0].SessionID != "cc-1111" {
		t.Fatalf("items = %+v, want cc-1111 only", d.m.list.items)
	}
	b.mu.Lock()
	var first, final int
	for _, r := range b.requests {
		if r.Query == "migra" && r.Filter.Typing && r.Filter.Phase == store.PhaseFirst {
			first++
		}
		if r.Query == "migra" && r.Filter.Typing && r.Filter.Phase == store.PhaseFinal {
			final++
		}
	}
	b.mu.Unlock()
	if first != 1 || final != 1 {
		t.Errorf("requests for migra: %d PhaseFirst, %d PhaseFinal; want one of each", first, final)
	}
	if s := d.screen(); !strings.Contains(s, "unicode61") || !strings.Contains(s, "4 hits") {
		t.Errorf("status/list lack index or hit count:\n%s", s)
	}
	// The snippet's match is highlighted in the styled view.
	if v := d.m.View(); !strings.Contains(v, "migration") {
		t.Errorf("snippet missing")
	}
	// readline editing: ctrl-w deletes the word, the box is empty, browse again.
	d.key("ctrl+w")
	d.pump("browse after ctrl-w", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	if d.m.input.Value() != "" {
		t.Errorf("ctrl-w left %q", d.m.input.Value())
	}
}

func TestStaleResultsDropped(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("deploy")
	d.pump("deploy results", func() bool { return d.m.finalSeq == d.m.seq })
	cur := d.m.seq
	want := d.m.list.items
	// An answer to an older keystroke arrives late: it must be ignored.
	d.send(resultsMsg{seq: cur - 1, phase: store.PhaseFinal, query: "dep", items: []Item{{Result: recall.Result{SessionID: "stale", Title: "stale"}}}})
	// A PhaseFirst answer arriving after its own PhaseFinal too.
	d.send(resultsMsg{seq: cur, phase: store.PhaseFirst, query: "deploy", items: []Item{{Result: recall.Result{SessionID: "early", Title: "early"}}}})
	if got := d.m.list.items; len(got) != len(want) || got[0].SessionID != want[0].SessionID {
		t.Fatalf("stale results replaced the list: %+v", got)
	}
	if strings.Contains(d.screen(), "stale") || strings.Contains(d.screen(), "early") {
		t.Fatal("stale result drawn")
	}
	// The current request's answer is taken.
	d.send(resultsMsg{seq: cur, phase: store.PhaseFinal, query: "deploy", items: []Item{{Result: recall.Result{SessionID: "fresh", Title: "fresh"}}}})
	if d.m.list.items[0].SessionID != "fresh" {
		t.Fatal("current result dropped")
	}
}

func TestNavigation(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("down")
	d.key("ctrl+n")
	if got := d.m.list.SelectedID(); got != "h-3333" {
		t.Fatalf("after down, ctrl-n: selected %s, want h-3333", got)
	}
	d.key("ctrl+p")
	if got := d.m.list.SelectedID(); got != "cx-2222" {
		t.Fatalf("after ctrl-p: selected %s", got)
	}
	// j types in the search box, and in the list.
	d.key("j")
	if d.m.input.Value() != "j" {
		t.Fatalf("j in the search box typed %q", d.m.input.Value())
	}
	d.key("backspace")
	d.pump("browse", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	d.key("tab")
	if d.m.Focus() != "list" {
		t.Fatalf("tab: focus %s", d.m.Focus())
	}
	// The query changed (j, then backspace): the selection is on the top result.
	if got := d.m.list.SelectedID(); got != "cc-1111" {
		t.Fatalf("selection after the query changed: %s", got)
	}
	d.key("down")
	d.key("up")
	d.key("ctrl+j")
	if got := d.m.list.SelectedID(); got != "cx-2222" {
		t.Fatalf("down up ctrl+j: selected %s", got)
	}
	d.key("end")
	if got := d.m.list.SelectedID(); got != "tg-4444" {
		t.Fatalf("end: selected %s", got)
	}
	d.key("home")
	if got := d.m.list.SelectedID(); got != "cc-1111" {
		t.Fatalf("home: selected %s", got)
	}
	d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" })
	if s := d.screen(); !strings.Contains(s, "busy_timeout") || !strings.Contains(s, "⚙ Read") {
		t.Fatalf("detail lacks the transcript or the compact tool call:\n%s", s)
	}
	d.key("tab")
	if d.m.Focus() != "detail" {
		t.Fatalf("focus %s, want detail", d.m.Focus())
	}
	d.key("t")
	d.pump("expanded tools", func() bool { return d.m.detail.doc.expanded })
	if s := d.screen(); !strings.Contains(s, "func migrate()") {
		t.Fatalf("expanded tool output missing:\n%s", s)
	}
	d.key("G")
	d.key("g")
	if d.m.detail.view.offset != 0 {
		t.Fatalf("g: detail offset %d", d.m.detail.view.offset)
	}
	d.key("/") // in the detail pane: searches the transcript (find_test.go)
	if !d.m.finding() {
		t.Fatalf("/ in the detail pane opened no in-pane search")
	}
	d.key("esc")       // closes the prompt
	d.key("shift+tab") // list
	d.key("/")         // text, as every printable key in the list
	if d.m.Focus() != "search" || d.m.input.Value() != "/" {
		t.Fatalf("/ in the list: focus %s, query %q", d.m.Focus(), d.m.input.Value())
	}
	d.key("esc") // clears the box
	d.key("esc") // empty box: quits
	d.pump("quit", func() bool { return d.quit })
}

func TestHitJumps(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.typ("migration")
	d.pump("transcript with hits", func() bool {
		return d.m.detail.doc.session.ID == "cc-1111" && d.m.detail.query == "migration"
	})
	hits := d.m.detail.targets
	if len(hits) < 3 {
		t.Fatalf("hit lines = %v, want the matches of three messages", hits)
	}
	d.key("tab")
	d.key("tab")
	d.key("n")
	first := d.m.detail.hit
	d.key("n")
	if d.m.detail.hit != (first+1)%len(hits) {
		t.Errorf("n moved from hit %d to %d", first, d.m.detail.hit)
	}
	d.key("N")
	if d.m.detail.hit != first {
		t.Errorf("N did not go back")
	}
	if !strings.Contains(d.m.View(), newHitPaint(d.m.styles).current) {
		t.Error("no highlighted match in the detail pane")
	}
}

func TestFilters(t *testing.T) {
	b := demoBackend()
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.pump("sources", func() bool { return len(d.m.filters.sources) == 5 })
	d.key("f3") // source: claude-code, the first the database holds
	d.key("f3") // cli
	d.pump("filtered browse", func() bool { return d.m.finalSeq == d.m.seq })
	if s := d.screen(); !strings.Contains(s, "source:cli") {
		t.Fatalf("no source chip:\n%s", s)
	}
	if len(d.m.list.items) != 1 || d.m.list.items[0].Source != "cli" {
		t.Fatalf("source filter: items %+v", d.m.list.items)
	}
	d.key("f5")
	d.pump("unfiltered", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	d.typ("eggs")
	d.key("f2") // role: user
	d.pump("role filtered search", func() bool { return d.m.finalSeq == d.m.seq })
	req := b.lastRequest()
	if len(req.Filter.Roles) != 1 || req.Filter.Roles[0] != "user" {
		t.Fatalf("role filter not sent: %+v", req.Filter)
	}
	d.key("alt+t")
	d.pump("time filtered", func() bool { return d.m.finalSeq == d.m.seq })
	req = b.lastRequest()
	if req.Filter.Since.IsZero() {
		t.Fatal("time filter not sent")
	}
	if s := d.screen(); !strings.Contains(s, "role:user") || !strings.Contains(s, "last 24h") {
		t.Fatalf("chips missing:\n%s", s)
	}
}

func TestResizeNeverOverflows(t *testing.T) {
	sizes := []struct{ w, h int }{{200, 60}, {120, 40}, {100, 30}, {80, 24}, {60, 20}, {59, 20}, {40, 15}, {24, 8}}
	for _, sz := range sizes {
		d := newDriver(t, demoBackend(), sz.w, sz.h)
		d.typ("数据库")
		d.pump("CJK results", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) > 0 })
		d.settle()
		check := func(when string) {
			t.Helper()
			lines := strings.Split(d.m.View(), "\n")
			if len(lines) != sz.h {
				t.Errorf("%dx%d %s: %d lines", sz.w, sz.h, when, len(lines))
			}
			for i, l := range lines {
				if w := lipgloss.Width(l); w > sz.w {
					t.Errorf("%dx%d %s: line %d is %d cells: %q", sz.w, sz.h, when, i, w, l)
				}
			}
		}
		check("search")
		d.key("f1")
		check("help")
		d.key("esc")
		d.key("enter")
		d.pump("summary", func() bool { return d.m.summary.done })
		check("summary")
		mode := d.m.layout.mode
		switch {
		case sz.w >= wideMin && mode != layoutWide, sz.w < wideMin && sz.w >= stackMin && mode != layoutStacked,
			sz.w < stackMin && mode != layoutSingle:
			t.Errorf("%dx%d: layout mode %d", sz.w, sz.h, mode)
		}
		if mode == layoutSingle && d.m.Focus() != "detail" {
			t.Errorf("%dx%d: enter on a narrow screen did not show the detail", sz.w, sz.h)
		}
	}
}

func TestNarrowTogglesDetail(t *testing.T) {
	d := newDriver(t, demoBackend(), 50, 20)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" })
	if strings.Contains(d.screen(), "busy_timeout") {
		t.Fatal("narrow screen shows the detail with the list")
	}
	d.key("tab")
	d.key("tab")
	if s := d.screen(); !strings.Contains(s, "busy_timeout") {
		t.Fatalf("detail focus did not show the transcript full-screen:\n%s", s)
	}
	d.key("esc")
	if s := d.screen(); !strings.Contains(s, "Fix the sqlite") {
		t.Fatalf("esc did not return to the list:\n%s", s)
	}
}

func TestFirstRunMessage(t *testing.T) {
	d := newDriver(t, &fakeBackend{}, 100, 30)
	d.pump("empty browse", func() bool { return d.m.finalSeq == d.m.seq })
	s := d.screen()
	if !strings.Contains(s, "No sessions yet") || !strings.Contains(s, "recall demo") {
		t.Fatalf("empty database screen:\n%s", s)
	}
}

func TestSummaryStreamsAndCancels(t *testing.T) {
	b := demoBackend()
	b.hasModel = true
	b.summary = strings.Repeat("word ", 400)
	b.delay = 500 * time.Microsecond
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("enter")
	d.pump("summary done", func() bool { return d.m.summary.done })
	renders := d.m.summary.cache.Renders()
	if renders >= 400 {
		t.Errorf("%d renders for 400 deltas: rendering is not frame-bounded", renders)
	}
	if s := d.screen(); !strings.Contains(s, "word word") || !strings.Contains(s, "summary by fake") {
		t.Fatalf("summary panel:\n%s", s)
	}
	// A slow stream is cancelled with esc and keeps what arrived.
	b.delay = 20 * time.Millisecond
	d.key("tab")
	d.key("tab")
	d.key("s")
	d.pump("some text", func() bool { doc, _, _ := d.m.summary.stream.snapshot(); return strings.Count(doc, "word") > 3 })
	d.key("esc")
	d.pump("cancelled render", func() bool { return d.m.summary.done })
	if s := d.screen(); !strings.Contains(s, "summary cancelled") {
		t.Fatalf("cancelled summary not labelled:\n%s", s)
	}
	d.key("esc")
	if d.m.summary.open {
		t.Fatal("second esc did not close the panel")
	}
}

func TestStaleTranscriptDropped(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("first transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" })
	old := d.m.seqDetail
	d.key("down")
	d.send(transcriptMsg{seq: old, doc: transcriptDoc{session: store.Session{ID: "stale"}, lines: []string{"STALE"}}})
	if strings.Contains(d.screen(), "STALE") || d.m.detail.doc.session.ID == "stale" {
		t.Fatal("a transcript for an old selection was shown")
	}
	d.pump("second transcript", func() bool { return d.m.detail.doc.session.ID == "cx-2222" })
}

func TestMouseWheel(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" })
	// Wheel over the list moves the selection.
	d.send(tea.MouseMsg{X: 5, Y: 4, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if got := d.m.list.SelectedID(); got != "cx-2222" {
		t.Fatalf("wheel over list: selected %s", got)
	}
	// A click selects the row under the pointer (rows are 3 lines from y=3,
	// under the list's header line).
	d.send(tea.MouseMsg{X: 5, Y: 3 + 2*itemHeight, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if got := d.m.list.SelectedID(); got != "h-3333" {
		t.Fatalf("click: selected %s", got)
	}
	// Wheel over the detail pane scrolls it, not the list.
	d.m.detail.view.SetLines(make([]string, 100))
	d.send(tea.MouseMsg{X: 80, Y: 10, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if d.m.detail.view.offset != 3 || d.m.list.SelectedID() != "h-3333" {
		t.Fatalf("wheel over detail: offset %d, selected %s", d.m.detail.view.offset, d.m.list.SelectedID())
	}
}
