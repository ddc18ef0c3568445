package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/ui/termtext"
)

// syntaxRows are the query syntax part of the help view: FTS5 as the store
// runs it, each example with what it means. The example column is as wide
// as its widest cell (measured with termtext.Width, so a long NEAR(…) or a
// CJK example cannot push its meaning out of line).
var syntaxRows = [][2]string{
	{"sqlite migration", "both words, anywhere (AND is the default)"},
	{"sqlite OR postgres", "either word — OR finds more than the default AND"},
	{`"exact phrase"`, "the words next to each other, in order"},
	{"migrat*", "prefix: migrate, migration, migrations…"},
	{"sqlite NOT postgres", "the first without the second"},
	{"NEAR(deploy rollback, 5)", "both words within 5 tokens of each other"},
	{"数据库 / データベース", "CJK works (trigram and bigram indexes)"},
}

// helpNotes follow the syntax table.
const helpNotes = `While you type, the last word is a prefix. The status line shows which index
served the query (unicode61, trigram, cjk, like) and how long it took.
In the detail pane, / finds text in the open session, n/N move between its
matches (else between the query's hits), o opens $PAGER at the current one.`

// helpView is the help's text, w cells wide: key bindings and query syntax.
func (m *Model) helpView(w int) string {
	st := m.styles.Help
	var b strings.Builder
	b.WriteString(st.Title.Render("Keys"))
	intro := "  (↑/↓ scroll, any other key closes.) In the list and detail panes a letter typed alone runs its command below; any other letter, and a word typed or pasted at once, goes to the search box."
	for i, l := range termtext.Wrap(intro, max(10, w-2), "  ") {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(st.Body.Render(l))
	}
	b.WriteString("\n")
	all := m.allKeys // every binding in force, whatever the focus
	b.WriteString(m.keyTable(all.FullHelp(), w))
	b.WriteString("\n\n")
	b.WriteString(st.Title.Render("Query syntax (SQLite FTS5)"))
	col := 0
	for _, r := range syntaxRows {
		col = max(col, termtext.Width(r[0]))
	}
	for _, r := range syntaxRows {
		b.WriteString("\n  " + st.Example.Render(termtext.PadRight(r[0], col)) + st.Body.Render("  "+r[1]))
	}
	for _, l := range strings.Split(helpNotes, "\n") {
		b.WriteString("\n" + st.Body.Render(l))
	}
	return b.String()
}

// helpInnerW is the width of the help's text inside its box.
func (m *Model) helpInnerW() int { return max(10, m.width-4) }

// helpLines is the help view cut into lines of exactly the box's inner width.
func (m *Model) helpLines() []string {
	iw := m.helpInnerW()
	lines := strings.Split(m.helpView(iw), "\n")
	for i, l := range lines {
		lines[i] = fit(l, iw)
	}
	return lines
}

// helpBody is the help in h lines: a box (lazygit's popups) over the
// screen's body. When it is taller (80x24 cannot hold the key table and
// the syntax), the movement keys scroll it, and the last line says where
// the window is and how to move it, as less does.
func (m *Model) helpBody(h int) string {
	lines, iw, ih := m.helpLines(), m.helpInnerW(), max(1, h-2)
	if len(lines) <= ih {
		lines = fitLines(strings.Join(lines, "\n"), iw, ih)
	} else {
		s := m.helpScroll // a copy: drawing never moves the window
		s.SetLines(lines)
		s.SetSize(iw, ih-1)
		pct, _ := s.Percent()
		footer := fmt.Sprintf("── %d%% · ↑/↓ pgup/pgdn g/G scroll · any other key closes ", pct)
		lines = append(strings.Split(s.View(), "\n"), fit(m.styles.Help.Title.Render(footer), iw))
	}
	return strings.Join(boxLines(m.styles, "Help · the keys in force", lines, m.width), "\n")
}

// helpKey handles a key while the help is open: the movement keys (in any
// focus: j and k scroll here even from the search box) scroll it, any other
// key closes it.
func (m *Model) helpKey(msg tea.KeyMsg) {
	all := m.allKeys
	if s := m.helpWindow(); !s.Move(msg, &all) {
		m.showHelp = false
		s.GotoTop()
	}
}

// helpWindow is the help's scroller, set to the current content and size.
func (m *Model) helpWindow() *scroller {
	m.helpScroll.SetLines(m.helpLines())
	m.helpScroll.SetSize(m.helpInnerW(), max(1, m.layout.bodyH-3))
	return &m.helpScroll
}

// keyTable lays the key groups out as columns, each as wide as its widest
// key and description (measured with termtext.Width), as many side by side
// as fit in width; the others continue in a band below, so no group is cut
// off on a narrow terminal.
func (m *Model) keyTable(groups [][]key.Binding, width int) string {
	const gap = 3
	ks := m.styles.Keys
	type column struct {
		rows []string
		w    int
	}
	var cols []column
	for _, g := range groups {
		kw, dw := 0, 0
		for _, k := range g {
			kw, dw = max(kw, termtext.Width(k.Help().Key)), max(dw, termtext.Width(k.Help().Desc))
		}
		c := column{w: kw + 1 + dw}
		for _, k := range g {
			c.rows = append(c.rows, ks.FullKey.Render(termtext.PadRight(k.Help().Key, kw))+" "+ks.FullDesc.Render(termtext.PadRight(k.Help().Desc, dw)))
		}
		cols = append(cols, c)
	}
	var bands []string
	for len(cols) > 0 {
		n, w := 1, cols[0].w
		for n < len(cols) && w+gap+cols[n].w <= width {
			w += gap + cols[n].w
			n++
		}
		height := 0
		for _, c := range cols[:n] {
			height = max(height, len(c.rows))
		}
		lines := make([]string, height)
		for i := range lines {
			var l strings.Builder
			for j, c := range cols[:n] {
				cell := strings.Repeat(" ", c.w)
				if i < len(c.rows) {
					cell = c.rows[i]
				}
				if j > 0 {
					l.WriteString(strings.Repeat(" ", gap))
				}
				l.WriteString(cell)
			}
			lines[i] = strings.TrimRight(l.String(), " ")
		}
		bands = append(bands, strings.Join(lines, "\n"))
		cols = cols[n:]
	}
	return strings.Join(bands, "\n\n")
}
