package ui

import (
	"strings"
	"unicode"

	"github.com/recall-dev/recall/ui/termtext"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// lineInput is the search box: one line with readline editing (ctrl-a/e,
// ctrl-b/f, alt-b/f, ctrl-u/k/w, alt-backspace, ctrl-d/delete, paste). It is
// our own rather than Bubbles' textinput, which pulls in a clipboard
// dependency the module does not carry; recall copies with OSC 52 instead.
type lineInput struct {
	value       []rune
	pos         int
	focused     bool
	prompt      string
	placeholder string
	width       int // cells for the text, prompt excluded
	promptStyle lipgloss.Style
	textStyle   lipgloss.Style
	phStyle     lipgloss.Style
	cursorStyle lipgloss.Style
}

// Value returns the text.
func (in *lineInput) Value() string { return string(in.value) }

// SetValue replaces the text and puts the cursor at its end.
func (in *lineInput) SetValue(s string) {
	in.value = []rune(termtext.OneLine(termtext.Sanitize(s)))
	in.pos = len(in.value)
}

// Update applies one key and reports whether the text changed.
func (in *lineInput) Update(msg tea.KeyMsg) bool {
	before := string(in.value)
	switch msg.Type {
	case tea.KeyRunes, tea.KeySpace:
		if msg.Alt && len(msg.Runes) == 1 {
			in.altKey(msg.Runes[0])
			break
		}
		in.insert(msg.Runes)
	case tea.KeyBackspace, tea.KeyCtrlH:
		if msg.Alt {
			in.deleteWordBack()
		} else if in.pos > 0 {
			in.value = append(in.value[:in.pos-1], in.value[in.pos:]...)
			in.pos--
		}
	case tea.KeyDelete, tea.KeyCtrlD:
		if in.pos < len(in.value) {
			in.value = append(in.value[:in.pos], in.value[in.pos+1:]...)
		}
	case tea.KeyLeft, tea.KeyCtrlB:
		in.pos = max(0, in.pos-1)
	case tea.KeyRight, tea.KeyCtrlF:
		in.pos = min(len(in.value), in.pos+1)
	case tea.KeyHome, tea.KeyCtrlA:
		in.pos = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		in.pos = len(in.value)
	case tea.KeyCtrlU:
		in.value = append([]rune{}, in.value[in.pos:]...)
		in.pos = 0
	case tea.KeyCtrlK:
		in.value = in.value[:in.pos]
	case tea.KeyCtrlW:
		in.deleteWordBack()
	case tea.KeyCtrlLeft:
		in.wordBack()
	case tea.KeyCtrlRight:
		in.wordForward()
	}
	return string(in.value) != before
}

func (in *lineInput) altKey(r rune) {
	switch r {
	case 'b':
		in.wordBack()
	case 'f':
		in.wordForward()
	case 'd':
		start := in.pos
		in.wordForward()
		in.value = append(in.value[:start], in.value[in.pos:]...)
		in.pos = start
	}
}

// insert adds typed or pasted runes; pasted newlines and controls become spaces.
func (in *lineInput) insert(rs []rune) {
	clean := []rune(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, termtext.Sanitize(string(rs))))
	v := make([]rune, 0, len(in.value)+len(clean))
	v = append(v, in.value[:in.pos]...)
	v = append(v, clean...)
	in.value = append(v, in.value[in.pos:]...)
	in.pos += len(clean)
}

func (in *lineInput) wordBack() {
	for in.pos > 0 && unicode.IsSpace(in.value[in.pos-1]) {
		in.pos--
	}
	for in.pos > 0 && !unicode.IsSpace(in.value[in.pos-1]) {
		in.pos--
	}
}

func (in *lineInput) wordForward() {
	for in.pos < len(in.value) && unicode.IsSpace(in.value[in.pos]) {
		in.pos++
	}
	for in.pos < len(in.value) && !unicode.IsSpace(in.value[in.pos]) {
		in.pos++
	}
}

func (in *lineInput) deleteWordBack() {
	end := in.pos
	in.wordBack()
	in.value = append(in.value[:in.pos], in.value[end:]...)
}

// View renders prompt, text and cursor; long text scrolls so the cursor stays
// visible.
func (in *lineInput) View() string {
	prompt := in.promptStyle.Render(in.prompt)
	if len(in.value) == 0 {
		cur := " "
		if in.focused {
			cur = in.cursorStyle.Render(" ")
		}
		return prompt + cur + in.phStyle.Render(truncate(in.placeholder, max(0, in.width-1)))
	}
	// Scroll: show the widest window ending at the cursor that fits.
	start, w := 0, 1
	for i := in.pos - 1; i >= 0; i-- {
		w += ansi.StringWidth(string(in.value[i]))
		if w > in.width {
			start = i + 1
			break
		}
	}
	before := string(in.value[start:in.pos])
	var at, after string
	if in.pos < len(in.value) {
		at, after = string(in.value[in.pos]), string(in.value[in.pos+1:])
	} else {
		at = " "
	}
	if in.focused {
		at = in.cursorStyle.Render(at)
	}
	room := in.width - ansi.StringWidth(before) - ansi.StringWidth(at)
	return prompt + in.textStyle.Render(before) + at + in.textStyle.Render(truncate(after, max(0, room)))
}
