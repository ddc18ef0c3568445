package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/ui/termtext"
)

// syntaxRows are the query syntax part of the help view: what the store
// does with each kind of query (store/plain.go reads plain words, FTS5 runs
// the rest), each example with what it means. The example column is as
// wide as its widest cell (measured with termtext.Width, so a long NEAR(…)
// or a CJK example cannot push its meaning out of line).
var syntaxRows = [][2]string{
	{"docker network", "plain words: any may match, sessions holding more of them first"},
	{"how did we fix it?", "a question: its content words, read the same way"},
	{"docker AND network", "both words in one message (any syntax keeps FTS5's meaning)"},
	{"sqlite OR postgres", "either word"},
	{`"exact phrase"`, "the words next to each other, in order"},
	{"migrat*", "prefix: migrate, migration, migrations…"},
	{"deploy NOT rollback", "the first without the second (deploy -rollback too)"},
	{"NEAR(deploy rollback, 5)", "both words within 5 tokens of each other"},
	{"数据库 / データベース", "CJK of any length (trigram and bigram indexes)"},
}

// helpNotes follow the syntax table.
const helpNotes = "Plain words also find their forms (network: networks, networking). While you " +
	"type, the last word is a prefix; a pause ranks the list. A word that matches nothing is retried as " +
	"its nearest spelling (dokcer → docker), and the status line says so, with the index that served " +
	"the query and how long it took."

// helpIntro opens the help: the one rule of the keys.
const helpIntro = "Typing is text: in the search box and the list every printable key edits the query; " +
	"actions are on enter, ctrl, alt and F keys. The reading pane (tab, or enter on a narrow screen) is a pager: " +
	"its letters are commands, as in less, and esc goes back. (↑/↓ scroll this help, esc closes it.)"

// helpView is the help's text, w cells wide: key bindings and query syntax.
func (m *Model) helpView(w int) string {
	st := m.styles.Help
	var b strings.Builder
	b.WriteString(st.Title.Render("Keys"))
	for _, l := range termtext.Wrap("  "+helpIntro, max(10, w), "  ") {
		b.WriteString("\n" + st.Body.Render(l))
	}
	b.WriteString("\n\n")
	b.WriteString(m.keyTable(w))
	b.WriteString("\n\n")
	b.WriteString(st.Title.Render("Query syntax"))
	col := 0
	for _, r := range syntaxRows {
		col = max(col, termtext.Width(r[0]))
	}
	for _, r := range syntaxRows {
		b.WriteString("\n  " + st.Example.Render(termtext.PadRight(r[0], col)) + st.Body.Render("  "+r[1]))
	}
	b.WriteString("\n")
	for _, l := range termtext.Wrap("  "+helpNotes, max(10, w), "  ") {
		b.WriteString("\n" + st.Body.Render(l))
	}
	return b.String()
}

// helpGroups are the actions the help lists, in groups, by config name.
// An empty name is a blank row between the group's parts.
var helpGroups = [][]string{
	{"up", "down", "page_up", "page_down", "top", "bottom", "next_focus", "prev_focus", "layout", "", "help", "cancel", "quit", "force_quit", "paste"},
	{"open", "summarize", "summarize_all", "next_hit", "prev_hit", "focus_search", "toggle_tools", "toggle_thinking", "reveal_secrets"},
	{"resume", "pager", "yank", "yank_resume", "export", "", "filter_role", "filter_source", "filter_time", "clear_filters", "scope", "sort"},
}

// helpDesc is the help's description of an action where the footer's is
// too short to explain it.
var helpDesc = map[string]string{
	"resume": "resume in its agent", "pager": "open in $PAGER", "yank_resume": "copy resume line",
	"export": "export (asks where)", "open": "summarise (pick)", "focus_search": "find in session",
	"cancel": "back / clear / quit", "force_quit": "quit", "yank": "copy message",
}

// keyTable is the bindings in force as tables, one per group: each action,
// its keys where the query is typed (the list; the search box is the same
// but for its editing keys) and its keys in the reading pane, "–" where it
// has none. Every table has the same columns, as wide as their widest cell
// (termtext.Width); as many tables stand side by side as fit in width, the
// others continue below.
func (m *Model) keyTable(width int) string {
	const gap = 3
	ks := m.styles.Keys
	all := m.allKeys
	cell := func(name string, f focus) string {
		if keys := liveKeys(name, all.base[name], f); len(keys) > 0 {
			return helpKeys(keys)
		}
		return "–"
	}
	type row [3]string
	head := row{"", "search · list", "reading pane"}
	widths := [3]int{}
	var groups [][]row
	for _, g := range helpGroups {
		rows := []row{}
		for _, name := range g {
			if name == "" {
				rows = append(rows, row{})
				continue
			}
			desc := all.binding(name).Help().Desc
			if d, ok := helpDesc[name]; ok {
				desc = d
			}
			r := row{desc, cell(name, focusList), cell(name, focusDetail)}
			if name == "paste" {
				r[1] = cell(name, focusSearch) + " (box)"
			}
			rows = append(rows, r)
		}
		groups = append(groups, rows)
	}
	for _, r := range append(slices.Concat(groups...), head) {
		for i, c := range r {
			widths[i] = max(widths[i], termtext.Width(c))
		}
	}
	tableW := widths[0] + widths[1] + widths[2] + 4
	if tableW > width { // a narrow screen: the descriptions give way
		widths[0] = max(8, widths[0]-(tableW-width))
		tableW = widths[0] + widths[1] + widths[2] + 4
	}
	line := func(r row, title bool) string {
		desc, keys := ks.FullDesc, ks.FullKey
		if title {
			desc, keys = m.styles.Help.Title, m.styles.Help.Title
		}
		return desc.Render(termtext.PadRight(termtext.Truncate(r[0], widths[0]), widths[0])) + "  " +
			keys.Render(termtext.PadRight(termtext.Truncate(r[1], widths[1]), widths[1])) + "  " +
			keys.Render(termtext.PadRight(termtext.Truncate(r[2], widths[2]), widths[2]))
	}
	per := max(1, (width-2+gap)/(tableW+gap))
	var bands []string
	for len(groups) > 0 {
		band := groups[:min(per, len(groups))]
		groups = groups[len(band):]
		height := 0
		for _, g := range band {
			height = max(height, len(g))
		}
		lines := make([]string, height+1)
		for j := range band {
			sep := "  "
			if j > 0 {
				sep = strings.Repeat(" ", gap)
			}
			lines[0] += sep + line(head, true)
			for i := 0; i < height; i++ {
				if i < len(band[j]) {
					lines[i+1] += sep + line(band[j][i], false)
				} else {
					lines[i+1] += sep + strings.Repeat(" ", tableW)
				}
			}
		}
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " ")
		}
		bands = append(bands, strings.Join(lines, "\n"))
	}
	var rl []string
	for _, k := range readlineHelp() {
		rl = append(rl, k.Help().Key+" "+k.Help().Desc)
	}
	out := strings.Join(bands, "\n\n") + "\n"
	for _, l := range termtext.Wrap("  In the search box: "+strings.Join(rl, " · "), max(10, width), "    ") {
		out += "\n" + ks.FullDesc.Render(l)
	}
	return out
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
		footer := fmt.Sprintf("── %d%% · ↑/↓ pgup/pgdn g/G scroll · esc closes ", pct)
		lines = append(strings.Split(s.View(), "\n"), fit(m.styles.Help.Title.Render(footer), iw))
	}
	return strings.Join(boxLines(m.styles, "Help · the keys in force", lines, m.width), "\n")
}

// helpKey handles a key while the help is open: the movement keys (in any
// focus: j and k scroll here even from the search box) scroll it; esc, q,
// enter and the help keys close it; any other key does nothing, so a word
// typed at the help neither types nor runs a command.
func (m *Model) helpKey(msg tea.KeyMsg) {
	all := m.allKeys
	s := m.helpWindow()
	if s.Move(msg, &all) {
		return
	}
	switch {
	case key.Matches(msg, all.Cancel, all.Help, all.Quit, all.Open), msg.Type == tea.KeyEsc, msg.Type == tea.KeyEnter:
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
