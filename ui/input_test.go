package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// The search box keeps the readline keys it had as a hand-written editor,
// now from Bubbles' textinput, and still sanitises what is typed or pasted.
func TestSearchBoxEditing(t *testing.T) {
	in := newSearchBox(DefaultStyles())
	in.SetWidth(20)
	in.Focus()
	for _, r := range "hello big world" {
		in.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	steps := []struct {
		key  tea.KeyMsg
		want string
		pos  int
	}{
		{tea.KeyMsg{Type: tea.KeyCtrlW}, "hello big ", 10},
		{tea.KeyMsg{Type: tea.KeyCtrlA}, "hello big ", 0},
		{tea.KeyMsg{Type: tea.KeyDelete}, "ello big ", 0},
		{tea.KeyMsg{Type: tea.KeyCtrlE}, "ello big ", 9},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}, "ello big ", 5},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k"), Alt: true}, "ello ", 5},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q"), Alt: true}, "ello ", 5}, // unbound alt keys type nothing
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("数据\x1b[31m库\n"), Paste: true}, "ello 数据库 ", 9},
		{tea.KeyMsg{Type: tea.KeyCtrlB}, "ello 数据库 ", 8},
		{tea.KeyMsg{Type: tea.KeyBackspace}, "ello 数据 ", 7},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f"), Alt: true}, "ello 数据 ", 8},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}, "ello 数据 ", 5},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d"), Alt: true}, "ello  ", 5},
		{tea.KeyMsg{Type: tea.KeyCtrlU}, " ", 0},
	}
	for i, s := range steps {
		in.Update(s.key)
		if in.Value() != s.want || in.Position() != s.pos {
			t.Fatalf("step %d (%v): value %q pos %d, want %q pos %d", i, s.key, in.Value(), in.Position(), s.want, s.pos)
		}
	}
	// A long value scrolls; the view never exceeds prompt + width + cursor.
	in.SetValue(strings.Repeat("数据库", 20) + "END")
	if w := ansi.StringWidth(in.View()); w > 2+20+1 {
		t.Fatalf("view too wide: %d cells: %q", w, ansi.Strip(in.View()))
	}
	if !strings.HasSuffix(strings.TrimRight(ansi.Strip(in.View()), " "), "库END") {
		t.Fatalf("the end of a long value (and the cursor) is not in view: %q", ansi.Strip(in.View()))
	}
}
