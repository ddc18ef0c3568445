package ui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKey routes a key. Typing is text: where the query is typed (the
// search box, the list) every printable key edits it, alone or in a run of
// keys that arrive together (a fast typist, ssh, tmux send-keys -l, a
// paste); no timing decides anything. In the reading pane letters are
// commands, as in less, each one of a run acting in turn, until one opens a
// text box (/ finds, e asks for a path), which takes the rest as text. A
// paste is text for the query wherever it lands.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Type != tea.KeyRunes || msg.Alt || len(msg.Runes) < 2 && !msg.Paste {
		return m.handleOneKey(msg)
	}
	switch {
	case m.popup.open:
		return m.popupKey(msg)
	case m.finding():
		return m.findKey(msg)
	case m.showHelp:
		for _, r := range msg.Runes {
			m.helpKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
		return nil
	case msg.Paste || m.focus != focusDetail:
		m.setFocus(focusSearch)
		return m.updateInput(msg)
	}
	var cmds []tea.Cmd
	for i, r := range msg.Runes {
		if m.quitting {
			break
		}
		if m.popup.open || m.finding() || m.focus != focusDetail {
			// A command opened a text box (or left the pane): the rest is
			// typed, not run.
			cmds = append(cmds, m.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes[i:]}))
			break
		}
		cmds = append(cmds, m.handleOneKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
	}
	return tea.Batch(cmds...)
}

// handleOneKey routes one key: the open dialog, help or find prompt first;
// then the bindings live in the focus (updateKeys: where the query is typed
// they hold no key that types); then the search box takes what is left as
// text or editing, the list hands it to the search box, and the reading
// pane says the key does nothing there.
func (m *Model) handleOneKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if key.Matches(msg, k.ForceQuit) {
		return m.quit()
	}
	if m.popup.open {
		return m.popupKey(msg)
	}
	if m.showHelp {
		m.helpKey(msg)
		return nil
	}
	if m.finding() { // the in-pane search prompt takes every key (find.go)
		return m.findKey(msg)
	}
	switch {
	case key.Matches(msg, k.Cancel):
		return m.escape()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil
	case key.Matches(msg, k.NextFocus):
		m.cycleFocus(1)
		return nil
	case key.Matches(msg, k.PrevFocus):
		m.cycleFocus(-1)
		return nil
	case key.Matches(msg, k.FilterRole, k.FilterSource, k.FilterTime, k.ClearFilters, k.Scope):
		return m.changeFilter(msg)
	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom):
		return m.move(msg)
	case key.Matches(msg, k.Open):
		return m.open()
	case key.Matches(msg, k.Layout):
		return m.toggleLayout()
	case key.Matches(msg, k.Sort):
		return m.toggleSort()
	case key.Matches(msg, k.Paste):
		return m.paste()
	}
	if cmd, ok := m.actionKey(msg); ok {
		return cmd
	}
	switch {
	case m.focus == focusSearch:
		return m.updateInput(msg)
	case m.focus == focusList && typesInSearch(msg):
		m.setFocus(focusSearch)
		return m.updateInput(msg)
	case m.focus == focusDetail && (typesInSearch(msg) || msg.Type == tea.KeyRunes):
		return m.status.set(m.notAPagerKey(msg), false)
	}
	return nil
}

// notAPagerKey is what the status line says when a key that is no command
// is pressed in the reading pane (less beeps; recall says where to go).
func (m *Model) notAPagerKey(msg tea.KeyMsg) string {
	k := &m.keys
	return fmt.Sprintf("%s does nothing in the reading pane: %s finds in this session, %s goes back to the list, %s lists the keys",
		helpKeys([]string{msg.String()}), k.FocusSearch.Help().Key, k.Cancel.Help().Key, k.Help.Help().Key)
}

// typesInSearch reports whether a key belongs to the search box: text, and
// the editing keys. From the list such a key moves focus there and acts,
// so no key goes nowhere (with zero results Backspace still edits the
// query, as in fzf, where the list never takes the keyboard away).
func typesInSearch(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyRunes:
		return !msg.Alt
	case tea.KeySpace, tea.KeyBackspace, tea.KeyCtrlH, tea.KeyCtrlW, tea.KeyCtrlU, tea.KeyDelete:
		return true
	}
	return false
}

// actionKey runs the action bound to msg in the current focus (the keys
// left live there: ctrl/alt where the query is typed, the letters too in
// the reading pane); ok is false when msg is bound to none.
func (m *Model) actionKey(msg tea.KeyMsg) (cmd tea.Cmd, ok bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.FocusSearch) && m.focus == focusDetail && !m.summary.open:
		return m.startFind(), true // / in the transcript searches it, as in less
	case key.Matches(msg, k.FocusSearch):
		m.setFocus(focusSearch)
	case key.Matches(msg, k.Quit):
		return m.quit(), true
	case key.Matches(msg, k.Summarize):
		return m.summarizeSelected(), true
	case key.Matches(msg, k.SummarizeAll):
		return m.startSummary(topItems(m.list.items, m.opts.SummarizeTop)), true
	case key.Matches(msg, k.NextHit):
		return m.jumpHit(1), true
	case key.Matches(msg, k.PrevHit):
		return m.jumpHit(-1), true
	case key.Matches(msg, k.ToggleTools):
		return m.toggleTools(), true
	case key.Matches(msg, k.ToggleThinking):
		return m.toggleThinking(), true
	case key.Matches(msg, k.RevealSecrets):
		return m.toggleReveal(), true
	case key.Matches(msg, k.Resume):
		return m.resume(), true
	case key.Matches(msg, k.Export):
		return m.openExport(), true
	case key.Matches(msg, k.Yank):
		return m.yank(), true
	case key.Matches(msg, k.YankResume):
		return m.yankResume(), true
	case key.Matches(msg, k.Pager):
		return m.pager(), true
	default:
		return nil, false
	}
	return nil, true
}

// toggleSort switches a query's results between relevance and recency
// and asks again (the engine's order is relevance; recency reorders it).
func (m *Model) toggleSort() tea.Cmd {
	m.byRecency = !m.byRecency
	text := "sorted by relevance"
	if m.byRecency {
		text = "sorted by recency: newest hit first"
	}
	return tea.Batch(m.refresh(), m.status.set(text, false))
}

// escape backs out one level: a streaming summary is cancelled, an open
// summary closed, a pane returns focus towards the search box, a query is
// cleared, and an empty search box quits (as in fzf).
func (m *Model) escape() tea.Cmd {
	switch {
	case m.summary.open && m.stopSummary():
		return m.status.set("summary cancelled", false)
	case m.summary.open:
		m.closeSummary()
		m.keys.updateKeys(m.focus, false)
	case m.focus == focusDetail && m.detail.find.pattern != "":
		cmd, _ := m.clearFind()
		return cmd
	case m.focus == focusDetail:
		m.setFocus(focusList)
	case m.focus == focusList:
		m.setFocus(focusSearch)
	case m.input.Value() != "":
		m.input.SetValue("")
		return m.queryChanged()
	default:
		return m.quit()
	}
	return nil
}

// cycleFocus moves focus search → list → detail → search.
func (m *Model) cycleFocus(dir int) {
	m.setFocus(focus((int(m.focus) + dir + 3) % 3))
}

// open (enter) summarises the selected session; on a narrow screen it also
// shows the detail pane full-screen. In a picker it picks the session.
func (m *Model) open() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	if m.opts.Pick {
		m.picked = it.SessionID
		return m.quit()
	}
	if m.layout.mode == layoutSingle {
		m.setFocus(focusDetail)
	}
	return m.summarizeSelected()
}

func (m *Model) summarizeSelected() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	cmd := m.startSummary([]Item{it})
	m.keys.updateKeys(m.focus, true)
	return cmd
}

// topItems returns the first n items.
func topItems(items []Item, n int) []Item {
	return items[:min(n, len(items))]
}

// changeFilter cycles or clears a filter and searches again.
func (m *Model) changeFilter(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.FilterRole):
		m.filters.cycleRole()
	case key.Matches(msg, k.FilterSource):
		m.filters.cycleSource()
	case key.Matches(msg, k.FilterTime):
		m.filters.cycleTime()
	case key.Matches(msg, k.Scope):
		if m.filters.project == "" {
			return m.status.set("no repository to scope to: start recall inside one", false)
		}
		m.filters.cycleScope()
	default:
		m.filters.clear()
	}
	return m.queryChanged()
}

// handleMouse scrolls the pane under the pointer and selects clicked rows.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	l := m.layout
	inDetail := msg.Y >= l.detY && msg.Y < l.detY+l.detH && msg.X >= l.detX &&
		(l.mode != layoutSingle || m.focus == focusDetail)
	inList := !inDetail && msg.Y >= l.bodyY && msg.Y < l.bodyY+l.listH && msg.X < l.listW
	delta := 0
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		delta = -1
	case tea.MouseButtonWheelDown:
		delta = 1
	case tea.MouseButtonLeft:
		if msg.Action == tea.MouseActionPress && inList {
			if i := m.list.ItemAt(msg.Y - l.bodyY); i >= 0 && m.list.Select(i) {
				m.userMoved = true
				return m.selectionChanged()
			}
		}
		return nil
	default:
		return nil
	}
	switch {
	case m.showHelp:
		m.helpWindow().ScrollBy(3 * delta)
		return nil
	case inDetail:
		v := m.detailScroller()
		v.ScrollBy(3 * delta)
		if v == &m.summary.view {
			m.summary.follow = v.AtBottom()
		}
	case inList && m.list.Scroll(delta):
		m.userMoved = true
		return m.selectionChanged()
	}
	return nil
}
