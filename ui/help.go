package ui

import (
	"strings"

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

// helpView is the full-screen help: key bindings and query syntax.
func (m *Model) helpView() string {
	st := m.styles.Help
	var b strings.Builder
	b.WriteString(st.Title.Render("Keys"))
	b.WriteString("  (any key closes this help; letter keys act when the list or detail pane has focus)\n")
	m.help.Width = m.width
	all := DefaultKeyMap() // every binding, whatever the focus
	b.WriteString(m.help.FullHelpView(all.FullHelp()))
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
