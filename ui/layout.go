package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// layoutMode is how the list and the detail pane share the screen.
type layoutMode uint8

const (
	layoutWide    layoutMode = iota // list left, detail right
	layoutStacked                   // list above detail
	layoutSingle                    // one pane at a time (< 60 columns, or the layout toggle)
)

// Width thresholds of the layouts.
const (
	wideMin   = 100
	stackMin  = 60
	headerH   = 2 // search box, filter chips
	footerH   = 1 // status line
	minBodyH  = 3
	listMinW  = 30
	listMaxW  = 72
	stackList = 40 // percent of the body the list gets when stacked
)

// layout is the geometry of the regions, recomputed on every resize.
type layout struct {
	mode         layoutMode
	bodyY, bodyH int
	listW, listH int
	detW, detH   int // detail region including its header line
	detX, detY   int // top-left of the detail region
}

// computeLayout lays out a w x h screen; listOnly is the user's layout
// toggle: the list takes the screen and the detail pane opens over it.
func computeLayout(w, h int, listOnly bool) layout {
	l := layout{bodyY: headerH, bodyH: max(minBodyH, h-headerH-footerH)}
	switch {
	case listOnly:
		l.mode = layoutSingle
		l.listW, l.listH = w, l.bodyH
		l.detX, l.detY = 0, l.bodyY
		l.detW, l.detH = w, l.bodyH
	case w >= wideMin:
		l.mode = layoutWide
		l.listW = min(max(w*2/5, listMinW), listMaxW)
		l.listH = l.bodyH
		l.detX, l.detY = l.listW+2, l.bodyY // list, separator, a space
		l.detW, l.detH = w-l.listW-2, l.bodyH
	case w >= stackMin:
		l.mode = layoutStacked
		l.listW = w
		l.listH = max(itemHeight, l.bodyH*stackList/100/itemHeight*itemHeight)
		l.detX, l.detY = 0, l.bodyY+l.listH+1
		l.detW, l.detH = w, max(2, l.bodyH-l.listH-1)
	default:
		l.mode = layoutSingle
		l.listW, l.listH = w, l.bodyH
		l.detX, l.detY = 0, l.bodyY
		l.detW, l.detH = w, l.bodyH
	}
	return l
}

// resize lays the regions out for a w x h terminal and re-renders what
// depends on the width.
func (m *Model) resize(w, h int) tea.Cmd {
	if m.opts.Height > 0 {
		h = min(h, m.opts.Height)
	}
	w, h = max(w, 20), max(h, headerH+footerH+minBodyH)
	oldDetW := m.layout.detW
	m.width, m.height = w, h
	m.layout = computeLayout(w, h, m.listOnly)
	m.input.SetWidth(w - ansi.StringWidth(m.input.Prompt) - 13)
	m.help.Width = w
	m.list.SetSize(m.layout.listW, m.layout.listH)
	m.detail.view.SetSize(m.layout.detW, m.layout.detH-1)
	m.summary.view.SetSize(m.layout.detW, m.layout.detH-1)
	m.sizePopup()
	if m.layout.detW == oldDetW {
		return nil
	}
	var cmds []tea.Cmd
	if m.detail.sessionID != "" && !m.detail.loading {
		cmds = append(cmds, m.rerenderDetail())
	}
	if m.summary.open && m.summary.stream != nil {
		m.summary.rendered, m.summary.done = 0, false
		if !m.summary.ticking {
			m.summary.ticking = true
			cmds = append(cmds, summaryTick(m.summary.seq))
		}
	}
	return tea.Batch(cmds...)
}

// toggleLayout switches between the list alone (the detail pane opens
// over it on enter, as on a narrow screen) and list + detail.
func (m *Model) toggleLayout() tea.Cmd {
	if m.width < stackMin {
		return m.status.set(fmt.Sprintf("list + detail needs %d columns; enter opens the session", stackMin), false)
	}
	m.listOnly = !m.listOnly
	if m.listOnly && m.focus == focusDetail {
		m.setFocus(focusList)
	}
	text := "list + detail"
	if m.listOnly {
		text = "list only · enter: the session's summary full-screen · esc: its transcript · esc again: the list"
	}
	return tea.Batch(m.resize(m.width, m.height), m.status.set(text, false))
}

// View draws the screen from already-rendered parts; it never renders markdown.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	w := m.width
	var b strings.Builder
	b.Grow(w * m.height * 2)
	b.WriteString(m.searchLine(w))
	b.WriteByte('\n')
	chips := m.filters.chips(m.styles, &m.allKeys, w)
	if m.byRecency {
		chips = m.styles.Chip.Active.Render("sort:recent") + " " + chips
	}
	b.WriteString(fit(chips, w))
	b.WriteByte('\n')
	status := m.status.view(w, &m.help, m.keys.ShortHelp())
	b.WriteString(trimLastLines(m.body(), strings.Count(status, "\n"))) // a long status message wraps upwards
	b.WriteByte('\n')
	b.WriteString(status)
	if m.popup.open {
		return overlay(b.String(), m.popupBox(), w)
	}
	return b.String()
}

// searchLine is the search box with the request state on the right.
func (m *Model) searchLine(w int) string {
	right := ""
	if m.searching {
		right = m.styles.Search.Spinner.Render("searching…")
	}
	rw := ansi.StringWidth(right)
	return fit(m.input.View(), w-rw) + right
}

// body draws the list and detail regions for the current layout.
func (m *Model) body() string {
	l := m.layout
	if m.showHelp {
		return m.helpBody(l.bodyH)
	}
	switch l.mode {
	case layoutWide:
		list := strings.Split(m.list.View(), "\n")
		det := m.detailLines()
		sep := m.styles.Pane.Separator
		if m.focus == focusDetail {
			sep = m.styles.Pane.FocusedSeparator
		}
		bar := sep.Render("│")
		rows := make([]string, l.bodyH)
		for i := range rows {
			rows[i] = list[i] + bar + " " + det[i]
		}
		return strings.Join(rows, "\n")
	case layoutStacked:
		rule := m.styles.Pane.Separator.Render(strings.Repeat("─", m.width))
		return m.list.View() + "\n" + rule + "\n" + strings.Join(m.detailLines(), "\n")
	}
	if m.focus == focusDetail {
		return strings.Join(m.detailLines(), "\n")
	}
	return m.list.View()
}

// detailLines is the detail region: a header line and the transcript or
// the summary panel, exactly detH lines.
func (m *Model) detailLines() []string {
	w := m.layout.detW
	lines := make([]string, 0, m.layout.detH)
	if m.summary.open {
		title := m.summary.title
		if !m.summary.done {
			title += " · streaming… (esc cancels)"
		}
		lines = append(lines, m.styles.Summary.Header.Render(fit(" "+truncate(title, w-1), w)))
		lines = append(lines, strings.Split(m.summary.view.View(), "\n")...)
		return lines
	}
	lines = append(lines, m.detail.header(w, m.focus == focusDetail))
	if m.emptyDB {
		return append(lines, fitLines("", w, m.layout.detH-1)...)
	}
	return append(lines, strings.Split(m.detail.view.View(), "\n")...)
}
