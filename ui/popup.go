package ui

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// popup is a boxed dialog drawn over the screen, as lazygit's: export asks
// where to write, with the path editable. While it is open it takes every
// key: enter confirms, esc cancels, the rest edit the path. No key writes a
// file without it.
type popup struct {
	open      bool
	title     string
	input     searchBox
	note      string // under the path: what enter will do, or why it failed
	noteErr   bool
	sessionID string
	replace   string // the path the user was told exists: enter on it again replaces it
	busy      bool   // the export is being written
}

// openExport (e) opens the export popup for the selected session, the path
// prefilled with ./recall-<id>.md in the working directory.
func (m *Model) openExport() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return m.status.set("nothing to export: no session selected", false)
	}
	name := recall.ExportFileName(store.Session{ID: it.SessionID})
	if abs, err := filepath.Abs(name); err == nil {
		name = abs
	}
	in := newTextBox(m.styles, "path: ", "")
	in.SetValue(name)
	in.Focus()
	m.popup = popup{open: true, title: "Export session as markdown", input: in, sessionID: it.SessionID,
		note: "enter writes the file · esc cancels"}
	m.sizePopup()
	return nil
}

// sizePopup gives the popup's input the box's inner width.
func (m *Model) sizePopup() {
	w, _ := m.popupSize()
	m.popup.input.SetWidth(w - 4 - termtext.Width(m.popup.input.Prompt))
}

// popupSize is the box's outer width and the number of lines inside it.
func (m *Model) popupSize() (int, int) {
	return min(m.width-2, max(50, min(100, m.width*2/3))), 3
}

// popupKey handles a key while the popup is open.
func (m *Model) popupKey(msg tea.KeyMsg) tea.Cmd {
	p := &m.popup
	switch {
	case key.Matches(msg, m.keys.Cancel):
		m.popup = popup{}
		return m.status.set("export cancelled", false)
	case msg.Type == tea.KeyEnter:
		if p.busy {
			return nil
		}
		path := expandHome(strings.TrimSpace(p.input.Value()))
		if path == "" {
			p.note, p.noteErr = "type a path, or esc to cancel", true
			return nil
		}
		p.busy = true
		return m.exportTo(p.sessionID, path, path == p.replace)
	}
	if _, cmd := p.input.Update(msg); cmd != nil {
		return cmd
	}
	p.replace, p.note, p.noteErr = "", "enter writes the file · esc cancels", false
	return nil
}

// expandHome turns a leading ~/ into the home directory, as a shell would.
func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

// exportResultMsg is how an export ended: written, stopped at an existing
// file, or failed.
type exportResultMsg struct {
	sessionID, path string
	exists          bool
	err             error
}

// exportDone shows how the export ended: the popup closes on success, and
// stays open (path still editable) on an existing file or an error.
func (m *Model) exportDone(msg exportResultMsg) tea.Cmd {
	p := &m.popup
	if !p.open || p.sessionID != msg.sessionID {
		if msg.err == nil && !msg.exists {
			return m.status.set("exported "+msg.path, false)
		}
		return nil
	}
	p.busy = false
	switch {
	case msg.exists:
		p.replace = msg.path
		p.note, p.noteErr = "this file exists: enter replaces it · edit the path · esc cancels", true
	case msg.err != nil:
		p.note, p.noteErr = "cannot write: "+termtext.OneLine(msg.err.Error()), true
	default:
		m.popup = popup{}
		return m.status.set("exported "+msg.path, false)
	}
	return nil
}

// popupBox renders the open popup as a box of lines.
func (m *Model) popupBox() []string {
	p := &m.popup
	w, _ := m.popupSize()
	inner := w - 4
	note := m.styles.Help.Body.Render(termtext.Fit(p.note, inner))
	if p.noteErr {
		note = m.styles.Status.Error.Render(termtext.Fit(p.note, inner))
	}
	return boxLines(m.styles, p.title, []string{fit(p.input.View(), inner), "", note}, w)
}

// boxLines frames body lines (each at most w-4 cells) in a rounded box w
// cells wide with title in its top edge.
func boxLines(st *Styles, title string, body []string, w int) []string {
	inner := w - 4
	border := st.Popup.Border
	t := " " + termtext.Truncate(title, max(1, w-6)) + " "
	top := border.Render("╭─") + st.Popup.Title.Render(t) + border.Render(strings.Repeat("─", max(0, w-3-termtext.Width(t)))+"╮")
	out := []string{top}
	for _, l := range body {
		out = append(out, border.Render("│")+" "+fit(l, inner)+" "+border.Render("│"))
	}
	return append(out, border.Render("╰"+strings.Repeat("─", w-2)+"╯"))
}

// overlay draws box over the screen's lines, centred; the cells around it
// keep what was under them.
func overlay(screen string, box []string, width int) string {
	lines := strings.Split(screen, "\n")
	if len(box) == 0 || len(lines) == 0 {
		return screen
	}
	bw := termtext.Width(box[0])
	x := max(0, (width-bw)/2)
	y := max(0, (len(lines)-len(box))/2)
	for i, b := range box {
		if y+i >= len(lines) {
			break
		}
		l := lines[y+i]
		left := ansi.Truncate(l, x, "")
		if pad := x - termtext.Width(left); pad > 0 {
			left += strings.Repeat(" ", pad)
		}
		right := ansi.TruncateLeft(l, x+bw, "")
		lines[y+i] = left + "\x1b[0m" + b + "\x1b[0m" + right
	}
	return strings.Join(lines, "\n")
}
