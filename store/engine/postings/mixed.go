package postings

import (
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
)

// Full ranking of a query that mixes CJK terms of 1-2 characters with Latin
// words (docker 容器, 部署 rollback): no one FTS5 table answers it, so each
// part is read from the index that holds it, and the rows are intersected.
//
//   - The CJK terms: their expression on recall_fts_cjk (bigrams).
//   - A Latin term of 3+ characters: a substring, the trigram phrase of the
//     term on messages_fts_trigram, as the trigram route reads it (content,
//     tool names, tool calls and reasoning).
//   - A Latin term of 1-2 characters (too short for trigrams): a word of
//     messages_fts (unicode61), or the Latin piece of a mixed-script run in
//     recall_fts_cjk (修改go服务 holds "go" there).
//
// A row matches when it matches the CJK terms and every Latin term. Its
// score is the sum of FTS5's bm25 contributions of the phrases it holds,
// each computed with its own table's statistics (idf from that table's row
// count, the row's length and the average length in that table): what
// bm25() of each table's MATCH would give, added up. A short Latin term a
// row holds as a word counts on messages_fts; one it holds only as the
// piece of a mixed run counts on recall_fts_cjk. No row's text is read:
// checking the Latin terms with LIKE on every candidate costs about a
// second at a million messages.

// The tables a mixed query reads besides its CJK table.
const (
	wordsTable   = "messages_fts"
	trigramTable = "messages_fts_trigram"
)

// mixedRead gathers the phrases of a mixed query, table by table, into one
// Matches whose phrases each know their table.
type mixedRead struct {
	x      *Indexes
	c      engine.Conn
	r      *Matches
	opened map[string]mixedTable
	read   map[[2]string]*Matches // a word the query repeats is read once (it still counts twice, as in FTS5)
}

// mixedTable is a table a mixed query reads: its index and its place in
// Matches.Tables, which weighs its phrases.
type mixedTable struct {
	ix    *Index
	group int
}

// mixed evaluates a mixed CJK + Latin query (p.Expr on p.Table, the CJK
// table, and p.LatinTerms) over the indexes' doclists. ErrNotApplicable
// when a table it needs is missing or not one full ranking reads, or a
// Latin term is longer than a substring read on trigrams
// (plan.MaxSubstringRunes).
func (x *Indexes) mixed(c engine.Conn, p plan.Match, l engine.Layout) (*Matches, error) {
	if p.Table == "" || len(p.LatinTerms) == 0 || !l.HasTrigram {
		return nil, ErrNotApplicable
	}
	for _, t := range p.LatinTerms {
		if utf8.RuneCountInString(t.Text) > plan.MaxSubstringRunes {
			return nil, ErrNotApplicable
		}
	}
	m := &mixedRead{x: x, c: c, r: &Matches{}, opened: map[string]mixedTable{}, read: map[[2]string]*Matches{}}
	rows, err := m.add(p.Table, p.Expr, nil)
	if err != nil {
		return nil, err
	}
	for _, t := range p.LatinTerms {
		if utf8.RuneCountInString(t.Text) >= 3 {
			sub, err := m.add(trigramTable, plan.For(query.Parsed{Toks: []query.Tok{t}}, engine.IndexTrigram, l).Expr, nil)
			if err != nil {
				return nil, err
			}
			rows = intersect(rows, sub)
			continue
		}
		words, err := m.add(wordsTable, query.FTSTerm(t), nil)
		if err != nil {
			return nil, err
		}
		lower := t
		lower.Text = strings.ToLower(t.Text) // the pieces are indexed lowercased
		pieces, err := m.add(p.Table, query.FTSTerm(lower), words)
		if err != nil {
			return nil, err
		}
		rows = intersect(rows, union(words, pieces))
	}
	m.r.Rows = rows
	return m.r, nil
}

// add reads expr on table and appends its phrases; a row of except counts
// none of them (it scores on another table already). It returns the rows
// expr matches, except included.
func (m *mixedRead) add(table, expr string, except []int64) ([]int64, error) {
	t, ok := m.opened[table]
	if !ok {
		ix, err := m.x.Open(m.c, table)
		if err != nil {
			return nil, err
		}
		t = mixedTable{ix: ix, group: len(m.r.Tables)}
		m.opened[table] = t
		m.r.Tables = append(m.r.Tables, ix)
	}
	part, ok := m.read[[2]string{table, expr}]
	if !ok {
		var err error
		if part, err = t.ix.Matches(expr); err != nil {
			return nil, err
		}
		m.read[[2]string{table, expr}] = part
		m.r.held = append(m.r.held, part.held...) // once, however often the query repeats it
	}
	for i, ps := range part.Phrases {
		if except != nil {
			ps = withoutRows(ps, except)
		}
		m.r.Phrases = append(m.r.Phrases, ps)
		m.r.DF = append(m.r.DF, part.DF[i]) // the phrase's whole doclist, as FTS5 counts it
		m.r.Group = append(m.r.Group, t.group)
	}
	m.r.Scanned = m.r.Scanned || part.Scanned
	return part.Rows, nil
}

// withoutRows returns the postings of ps whose row is not in rows (both ascending).
func withoutRows(ps []fts5idx.Posting, rows []int64) []fts5idx.Posting {
	out := make([]fts5idx.Posting, 0, len(ps))
	j := 0
	for _, p := range ps {
		for j < len(rows) && rows[j] < p.Rowid {
			j++
		}
		if j < len(rows) && rows[j] == p.Rowid {
			continue
		}
		out = append(out, p)
	}
	return out
}

// MixedQueryText describes what a fully ranked mixed query asked each
// table, for engine.Result.Query.
func MixedQueryText(p plan.Match, l engine.Layout) string {
	var b strings.Builder
	b.WriteString(p.Expr)
	for _, t := range p.LatinTerms {
		if utf8.RuneCountInString(t.Text) >= 3 {
			b.WriteString(MixedSep + trigramTable + " " + plan.For(query.Parsed{Toks: []query.Tok{t}}, engine.IndexTrigram, l).Expr)
			continue
		}
		b.WriteString(MixedSep + wordsTable + "|" + p.Table + " " + query.FTSTerm(t))
	}
	return b.String()
}

// MixedSep joins the parts of a mixed query's engine.Result.Query.
const MixedSep = " + MATCH "
