package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// rerankBackend answers the ranked phase in the reverse order of the first
// phase, as bm25 re-ranks the newest hits the first paint shows.
type rerankBackend struct{ *fakeBackend }

func (b rerankBackend) Discover(ctx context.Context, query string, f store.SearchFilter) (*recall.Discovery, error) {
	d, err := b.fakeBackend.Discover(ctx, query, f)
	if d != nil && f.Phase == store.PhaseFinal {
		slices.Reverse(d.Results)
	}
	return d, err
}

// allDeploy is a history where every session matches "deploy".
func allDeploy() *fakeBackend {
	b := demoBackend()
	for id, msgs := range b.msgs {
		b.msgs[id] = append(msgs, store.Message{ID: int64(100 + len(id)), SessionID: id, Role: "user", Content: "deploy " + id})
	}
	return b
}

// After every query change the selection is on the top result, also when
// the ranked answer re-orders the first paint; a move by the user wins
// until the next keystroke in the search box. Before, the bar stayed on the
// row it was on while the list re-ranked, and enter summarised that one.
func TestSelectionOnTopResultAfterQueryChange(t *testing.T) {
	d := newDriver(t, rerankBackend{allDeploy()}, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("deploy")
	d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	if top, got := d.m.list.items[0].SessionID, d.m.list.SelectedID(); got != top {
		t.Fatalf("after typing, selected %s; the top result is %s\n%s", got, top, d.screen())
	}

	// The user moves between the first paint and the ranked answer: the
	// ranked answer keeps the user's session.
	d.key(" ")
	d.pump("first paint", func() bool { return d.m.lastQuery == "deploy" && d.m.finalSeq != d.m.seq && len(d.m.list.items) == 4 })
	d.key("down")
	chosen := d.m.list.SelectedID()
	d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq })
	if got := d.m.list.SelectedID(); got != chosen {
		t.Fatalf("the ranked answer moved the user's selection from %s to %s", chosen, got)
	}
	// The next keystroke puts it on the top result again.
	d.key("backspace")
	d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq })
	if top, got := d.m.list.items[0].SessionID, d.m.list.SelectedID(); got != top {
		t.Fatalf("after the next keystroke, selected %s; the top result is %s", got, top)
	}
}

// A key held down arrives as one key message ("jjj"): in the reading pane
// it acts once per repeat (before, "jjj" did nothing); in the list a run of
// letters is text for the query, whatever its letters, as in the box.
func TestBatchedKeysAllAct(t *testing.T) {
	b := demoBackend()
	long := strings.Repeat("line of a long answer\n\n", 60)
	b.msgs["cc-1111"] = append(b.msgs["cc-1111"], store.Message{ID: 50, SessionID: "cc-1111", Role: "assistant", Content: long})
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.pump("transcript", func() bool { return d.m.detail.session.ID == "cc-1111" && !d.m.detail.loading })
	d.key("tab")
	d.key("tab")
	d.key("gg")
	before := d.m.detail.view.offset
	d.key("jjj")
	if got := d.m.detail.view.offset; got != before+3 {
		t.Fatalf(`"jjj" in the detail pane scrolled from %d to %d, want %d`, before, got, before+3)
	}
	d.key("esc") // back to the list
	d.key("jj")
	if d.m.Focus() != "search" || d.m.input.Value() != "jj" || d.m.list.selected != 0 {
		t.Fatalf(`"jj" in the list: focus %s, query %q, cursor %d; want the query "jj"`, d.m.Focus(), d.m.input.Value(), d.m.list.selected)
	}
	// In the search box a batch is text, whatever its letters.
	d.key("rq")
	if d.m.input.Value() != "jjrq" || d.quit {
		t.Fatalf("a batch in the search box: query %q, quit %v", d.m.input.Value(), d.quit)
	}
}

// ctrl-j/ctrl-k move the selection from the search box (fzf), without
// touching the query.
func TestCtrlJKMoveFromTheSearchBox(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("a")
	d.key("ctrl+a")
	d.pump("results", func() bool { return d.m.finalSeq == d.m.seq })
	d.send(tea.KeyMsg{Type: tea.KeyCtrlJ})
	d.send(tea.KeyMsg{Type: tea.KeyCtrlJ})
	d.send(tea.KeyMsg{Type: tea.KeyCtrlK})
	if d.m.Focus() != "search" || d.m.input.Value() != "a" {
		t.Fatalf("focus %s, query %q after ctrl-j ctrl-j ctrl-k", d.m.Focus(), d.m.input.Value())
	}
	if got, want := d.m.list.selected, 1; got != want || len(d.m.list.items) < 2 {
		t.Fatalf("ctrl-j ctrl-j ctrl-k: row %d of %d, want row %d", got, len(d.m.list.items), want)
	}
}

// Keys a pane has no use for are never lost: text and editing keys go to
// the search box (with zero results, Backspace still edits the query).
func TestKeysNeverGoNowhere(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.typ("zzzq")
	d.pump("no results", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 0 })
	d.key("tab")
	d.key("backspace")
	if d.m.input.Value() != "zzz" || d.m.Focus() != "search" {
		t.Fatalf("backspace in the empty list: query %q, focus %s; want \"zzz\" in the search box", d.m.input.Value(), d.m.Focus())
	}
	d.key("ctrl+u")
	d.pump("browse", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	d.key("tab")
	d.key("x") // no action in the list: it is text
	if d.m.input.Value() != "x" || d.m.Focus() != "search" {
		t.Fatalf("x in the list: query %q, focus %s", d.m.input.Value(), d.m.Focus())
	}
	// A filter that empties the list while a pane has focus hands the
	// keyboard back to the search box, and the hint names the filters.
	d.key("ctrl+u")
	d.pump("browse", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 4 })
	d.typ("eggs")
	d.pump("eggs", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 1 })
	d.key("tab")
	d.key("f3") // source: claude-code, which has no eggs
	d.pump("filtered", func() bool { return d.m.finalSeq == d.m.seq && len(d.m.list.items) == 0 })
	if d.m.Focus() != "search" {
		t.Errorf("focus %s after the list emptied", d.m.Focus())
	}
	if s := d.screen(); !strings.Contains(s, "source:claude-code") || !strings.Contains(s, "F5/alt+x clears the filters") {
		t.Errorf("the zero-results hint does not mention the filters:\n%s", s)
	}
}

// The source filter offers exactly the sources the database holds.
func TestSourceFilterCyclesThroughPresentSources(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("sources", func() bool { return len(d.m.filters.sources) == 5 })
	var seen []string
	for range 5 {
		d.key("f3")
		seen = append(seen, d.m.filters.sources[d.m.filters.source])
	}
	if want := []string{"claude-code", "cli", "codex", "telegram", ""}; !slices.Equal(seen, want) {
		t.Fatalf("f3 cycles through %q, want %q", seen, want)
	}
}

// The layout key shows the list alone (the detail opens over it on enter,
// as on a narrow screen) and brings the detail pane back.
func TestLayoutToggle(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("f6")
	if d.m.layout.mode != layoutSingle || d.m.layout.listW != 120 {
		t.Fatalf("f6: layout %+v, want the list alone", d.m.layout)
	}
	if s := d.screen(); strings.Contains(s, "│ ▍ user") {
		t.Fatalf("the detail pane is still drawn:\n%s", s)
	}
	d.key("tab")
	d.key("enter")
	if d.m.Focus() != "detail" {
		t.Fatalf("enter in list-only: focus %s, want detail", d.m.Focus())
	}
	d.key("esc")
	d.key("esc")
	d.send(tea.KeyMsg{Type: tea.KeyCtrlUnderscore}) // ctrl-/
	if d.m.layout.mode != layoutWide {
		t.Fatalf("ctrl-/: layout mode %d, want list + detail", d.m.layout.mode)
	}
	d.send(tea.WindowSizeMsg{Width: 50, Height: 20})
	d.key("f6")
	if d.m.listOnly || !strings.Contains(d.m.status.msg, "needs 60 columns") {
		t.Fatalf("f6 at 50 columns: listOnly %v, status %q", d.m.listOnly, d.m.status.msg)
	}
}

// Resizing through tiny sizes and back keeps every row reachable. Before,
// 120x40 → 40x12 → 20x6 → 200x60 showed "4 sessions" with the first ones
// scrolled out of a list that had room for all.
func TestResizeKeepsListValid(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 40)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	d.key("end")
	for _, sz := range [][2]int{{40, 12}, {20, 6}, {200, 60}} {
		d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
	}
	d.settle()
	s := d.screen()
	for _, title := range []string{"Fix the sqlite migration", "数据库索引优化", "Deploy rollback plan", "Grocery list"} {
		if !strings.Contains(s, title) {
			t.Errorf("%q is not on the 200x60 screen:\n%s", title, s)
		}
	}
}

// The empty database tells the command that works.
func TestFirstRunHintNamesAWorkingCommand(t *testing.T) {
	d := newDriver(t, &fakeBackend{}, 100, 20)
	d.pump("empty", func() bool { return d.m.emptyDB })
	if s := d.screen(); !strings.Contains(s, "recall import all") {
		t.Fatalf("first-run hint lacks 'recall import all':\n%s", s)
	}
}

// A fast typist's letters arrive as one message whose text may spell a
// key's name; in the search box they are text all the same.
func TestBatchedTextThatSpellsAKey(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	for _, word := range []string{"tab", "up", "f6", "end", "esc"} {
		d.key("ctrl+u")
		d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)})
		if d.m.input.Value() != word || d.m.Focus() != "search" || d.m.listOnly || d.quit {
			t.Errorf("typing %q fast: query %q, focus %s, listOnly %v", word, d.m.input.Value(), d.m.Focus(), d.m.listOnly)
		}
	}
}
