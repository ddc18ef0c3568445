package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/ui/termtext"
)

// findBar is the detail pane's own search, as in less: / types a pattern
// in the pane's header, enter highlights every case-insensitive occurrence
// in the open transcript (instead of the query's terms), n/N visit them and
// esc goes back to the query's hits.
type findBar struct {
	typing  bool
	input   searchBox
	pattern string // applied; "" when the query's hits are shown
}

// findTerms are the highlight terms of an in-pane search: the pattern as a
// substring anywhere, like less.
func findTerms(pattern string) []hlTerm {
	return []hlTerm{{text: pattern, prefix: true, anywhere: true}}
}

// finding reports whether the in-pane search is being typed (it takes every key).
func (m *Model) finding() bool { return m.detail.find.typing }

// startFind opens the in-pane search prompt over the detail header; its
// keys are said once, at the right of the line (view), not again in the
// placeholder, where a narrow pane cut them.
func (m *Model) startFind() tea.Cmd {
	d := &m.detail
	if d.sessionID == "" || m.summary.open {
		return nil
	}
	st := m.styles
	d.find.typing = true
	d.find.input = newTextBox(st, "/", "search this session")
	d.find.input.SetWidth(max(1, d.view.width-2))
	d.find.input.Focus()
	d.find.input.SetValue(d.find.pattern)
	return nil
}

// findKey handles a key while the in-pane search is typed.
func (m *Model) findKey(msg tea.KeyMsg) tea.Cmd {
	d := &m.detail
	switch msg.Type {
	case tea.KeyEsc, tea.KeyCtrlC:
		d.find.typing = false
		return nil
	case tea.KeyEnter:
		d.find.typing = false
		pattern := strings.TrimSpace(d.find.input.Value())
		if pattern == d.find.pattern {
			return m.jumpHit(1)
		}
		d.find.pattern = pattern
		return m.rerenderDetail()
	}
	_, cmd := d.find.input.Update(msg)
	return cmd
}

// clearFind leaves the in-pane search; it reports false when none was on.
func (m *Model) clearFind() (tea.Cmd, bool) {
	if m.detail.find.pattern == "" {
		return nil, false
	}
	m.detail.find.pattern = ""
	return tea.Batch(m.rerenderDetail(), m.status.set("back to the query's hits", false)), true
}

// view is the prompt line drawn in place of the detail header.
func (f *findBar) view(w int, st *Styles) string {
	hint := st.Detail.Dim.Render(" enter: find · esc: cancel ")
	if termtext.Width(hint) > w/2 {
		hint = ""
	}
	f.input.SetWidth(max(1, w-termtext.Width(f.input.Prompt)-termtext.Width(hint)))
	return termtext.Fit(f.input.View(), w-termtext.Width(hint)) + hint
}

// pagerTarget is where `o` opens the pager: the message of the current hit
// (else the best hit) and the terms to find and highlight there: the
// in-pane search's pattern, else every term the query highlights.
func (m *Model) pagerTarget() (msgID int64, terms []hlTerm) {
	d := &m.detail
	if d.hit >= 0 && d.hit < len(d.targets) {
		k := d.targetMsg[d.hit]
		if k < 0 {
			k = d.doc.messageAt(d.targets[d.hit])
		}
		if k < len(d.doc.msgIDs) {
			msgID = d.doc.msgIDs[k]
		}
	}
	if msgID == 0 {
		msgID = d.item.MatchMessageID
	}
	if d.find.pattern != "" {
		return msgID, findTerms(d.find.pattern)
	}
	return msgID, m.highlightTerms(d.item)
}
