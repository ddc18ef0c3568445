package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKey routes a key. Runes that arrive together (a held key, typing
// over ssh, tmux send-keys -l, a fast typist) come from Bubble Tea as one
// message; each of them acts as if typed alone, until the search box has
// focus, which takes the rest as text. A paste stays one piece of text.
func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Type != tea.KeyRunes || len(msg.Runes) < 2 || msg.Paste || msg.Alt {
		return m.handleOneKey(msg)
	}
	if m.popup.open {
		return m.popupKey(msg)
	}
	// The rule for letters in the panes: a letter typed alone is the pane's
	// command (the set F1 lists), any other letter goes to the search box;
	// letters that arrive together and are not one key held down (a word
	// typed or sent fast, as tmux send-keys does) are text: all of them go
	// to the search box, so "network" never runs n, e and t.
	if m.focus != focusSearch && !m.showHelp && !m.finding() && !heldKey(msg.Runes) {
		m.setFocus(focusSearch)
		return m.updateInput(msg)
	}
	var cmds []tea.Cmd
	for i := range msg.Runes {
		if m.quitting {
			break
		}
		if m.focus == focusSearch && !m.showHelp {
			// Straight to the box: a run of letters is text even when it
			// spells a key's name ("up", "tab", "f6" match bindings).
			cmds = append(cmds, m.updateInput(tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes[i:]}))
			break
		}
		cmds = append(cmds, m.handleOneKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes[i : i+1]}))
	}
	return tea.Batch(cmds...)
}

// handleOneKey routes one key: bindings that act everywhere first, then the
// search box when it has focus, else the pane bindings.
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
	}
	if m.focus == focusSearch {
		if key.Matches(msg, k.Paste) {
			return m.paste()
		}
		return m.updateInput(msg)
	}
	return m.handlePaneKey(msg)
}

// heldKey reports whether runes are one key repeated (a key held down,
// which acts once per repeat).
func heldKey(runes []rune) bool {
	for _, r := range runes[1:] {
		if r != runes[0] {
			return false
		}
	}
	return true
}

// typesInSearch reports whether a key a pane has no use for belongs to the
// search box: text, and the editing keys. Such a key moves focus there and
// acts, so no key goes nowhere (with zero results Backspace still edits
// the query, as in fzf, where the list never takes the keyboard away).
func typesInSearch(msg tea.KeyMsg) bool {
	switch msg.Type {
	case tea.KeyRunes:
		return !msg.Alt
	case tea.KeySpace, tea.KeyBackspace, tea.KeyCtrlH, tea.KeyCtrlW, tea.KeyCtrlU, tea.KeyDelete:
		return true
	}
	return false
}

// handlePaneKey handles the single-letter actions of the list and detail panes.
func (m *Model) handlePaneKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.FocusSearch) && m.focus == focusDetail && !m.summary.open:
		return m.startFind() // / in the transcript searches it, as in less
	case key.Matches(msg, k.FocusSearch):
		m.setFocus(focusSearch)
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Summarize):
		return m.summarizeSelected()
	case key.Matches(msg, k.SummarizeAll):
		return m.startSummary(topItems(m.list.items, m.opts.SummarizeTop))
	case key.Matches(msg, k.NextHit):
		return m.jumpHit(1)
	case key.Matches(msg, k.PrevHit):
		return m.jumpHit(-1)
	case key.Matches(msg, k.ToggleTools):
		return m.toggleTools()
	case key.Matches(msg, k.ToggleThinking):
		return m.toggleThinking()
	case key.Matches(msg, k.RevealSecrets):
		return m.toggleReveal()
	case key.Matches(msg, k.Resume):
		return m.resume()
	case key.Matches(msg, k.Export):
		return m.openExport()
	case key.Matches(msg, k.Yank):
		return m.yank()
	case key.Matches(msg, k.YankResume):
		return m.yankResume()
	case key.Matches(msg, k.Pager):
		return m.pager()
	case typesInSearch(msg):
		m.setFocus(focusSearch)
		return m.updateInput(msg)
	}
	return nil
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
