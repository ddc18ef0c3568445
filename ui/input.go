package ui

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/recall-dev/recall/ui/termtext"
)

// searchBox is the search line: Bubbles' textinput, which gives readline
// editing (ctrl-a/e, ctrl-b/f, alt-b/f, ctrl-u, ctrl-w, alt-backspace,
// alt-d, ctrl-d/delete, ctrl-v pastes from the system clipboard) and
// horizontal scrolling. recall adds three things around it: what is typed or
// pasted is sanitised like every other text on the screen; alt+letter keys
// it has no use for are dropped rather than typed; and the keys the TUI
// itself needs (tab, up/down, ctrl-j/ctrl-k, ctrl-n/ctrl-p) never reach it.
type searchBox struct {
	textinput.Model
}

func newSearchBox(st *Styles) searchBox {
	return newTextBox(st, "❯ ", "search your agent history (F1: help)")
}

// newTextBox is a one-line input with the search box's keys and looks (the
// detail pane's in-transcript search uses one too).
func newTextBox(st *Styles, prompt, placeholder string) searchBox {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.Placeholder = placeholder
	ti.PromptStyle, ti.TextStyle, ti.PlaceholderStyle = st.Search.Prompt, st.Search.Text, st.Search.Placeholder
	ti.Cursor.Style = st.Search.Cursor
	// A steady cursor, as fzf's: a blinking one would redraw the whole
	// screen twice a second for nothing.
	ti.Cursor.SetMode(cursor.CursorStatic)
	ti.KeyMap = searchKeyMap()
	return searchBox{Model: ti}
}

// searchKeyMap is the search box's editing keys: textinput's, less those
// the TUI takes for itself.
func searchKeyMap() textinput.KeyMap {
	km := textinput.DefaultKeyMap
	// Suggestions are off; their keys (tab, up/down, ctrl-n/p) move the list.
	km.AcceptSuggestion, km.NextSuggestion, km.PrevSuggestion = key.Binding{}, key.Binding{}, key.Binding{}
	// ctrl-k moves up the list (fzf), so it no longer kills to the end of line.
	km.DeleteAfterCursor = key.NewBinding(key.WithKeys("alt+k"))
	return km
}

// SetValue replaces the text (sanitised, one line) and puts the cursor at its end.
func (b *searchBox) SetValue(s string) {
	b.Model.SetValue(termtext.OneLine(termtext.Sanitize(s)))
	b.CursorEnd()
}

// SetWidth sets the cells the text may take, prompt excluded.
func (b *searchBox) SetWidth(w int) {
	// The cursor cell after the last character is drawn beyond Width.
	b.Width = max(1, w-1)
	b.SetCursor(b.Position()) // re-scrolls the text for the new width
}

// Update applies a message (a key, or a paste from the clipboard) and
// reports whether the text changed.
func (b *searchBox) Update(msg tea.Msg) (changed bool, cmd tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.Type == tea.KeyRunes {
		km := &b.KeyMap
		if k.Alt && !key.Matches(k, km.WordBackward, km.WordForward, km.DeleteWordForward, km.DeleteAfterCursor) {
			return false, nil
		}
		k.Runes = []rune(termtext.Sanitize(string(k.Runes)))
		// Letters typed fast arrive together and may spell a key's name
		// ("end", "left", "delete"), which textinput would take for that
		// key: as a paste they are text.
		k.Paste = k.Paste || len(k.Runes) > 1
		msg = k
	}
	before := b.Value()
	b.Model, cmd = b.Model.Update(msg)
	// A paste from the clipboard (ctrl-v) arrives as textinput's own
	// message, unsanitised: clean the value after the fact.
	if v := b.Value(); termtext.Sanitize(v) != v {
		pos := b.Position()
		b.Model.SetValue(termtext.Sanitize(v))
		b.SetCursor(pos)
	}
	return b.Value() != before, cmd
}
