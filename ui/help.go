package ui

import "strings"

// syntaxHelp is the query syntax part of the help view: FTS5 as the store
// runs it, with the tip users most need.
const syntaxHelp = `Query syntax (SQLite FTS5)
  sqlite migration        both words, anywhere (AND is the default)
  sqlite OR postgres      either word — OR finds more than the default AND
  "exact phrase"          the words next to each other, in order
  migrat*                 prefix: migrate, migration, migrations…
  sqlite NOT postgres     the first without the second
  NEAR(deploy rollback, 5) both words within 5 tokens of each other
  数据库 / データベース     CJK works (trigram and bigram indexes)
While you type, the last word is a prefix. The status line shows which index
served the query (unicode61, trigram, cjk, like) and how long it took.`

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
	lines := strings.Split(syntaxHelp, "\n")
	b.WriteString(st.Title.Render(lines[0]))
	for _, l := range lines[1:] {
		b.WriteByte('\n')
		if strings.HasPrefix(l, "  ") {
			i := strings.Index(l[2:], "  ")
			if i > 0 {
				b.WriteString("  " + st.Example.Render(l[2:2+i]) + st.Body.Render(l[2+i:]))
				continue
			}
		}
		b.WriteString(st.Body.Render(l))
	}
	return b.String()
}
