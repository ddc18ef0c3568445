// Package postings reads the rows a query's terms are in, from the FTS5
// index's own pages (store/fts5idx reads their format): it takes a reader
// connection and a table's name (Indexes.Open), then an FTS5 expression
// (Index.Matches, Indexes.Read) or a plain query's words (ReadWords,
// WordPostings), and gives, per phrase or word, its postings (ascending
// rowids, the count in each row) and the rows the expression matches. It
// scores nothing: a phrase's document frequency and the table's row
// lengths go with its postings, for the scorer.
package postings

import (
	"errors"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/fts5idx"
)

// Full ranking: bm25 over every match, computed in Go from the index
// (here, the rows; store/engine/score, the formula; store/engine/collect,
// the best of them).
//
// FTS5's bm25() costs a %_docsize lookup and an auxiliary-function call per
// matching row, about a second for a word in 40 % of a million messages, so
// the final phase used to rank only the newest pipeline.RankCandidates matches. Here
// each phrase's doclist is read from the index pages themselves
// (store/fts5idx), the expression is evaluated over the rowid lists, and
// every matching row is scored with FTS5's own formula and inputs: the
// phrase's idf from its document frequency over the index's row count, the
// row's token count (rowcache.Lens, a cache of %_docsize) against the average
// from the averages record. The result is FTS5's ranking, with ties broken
// newest first; only the best rows are then read with their text and the
// caller's filters.

// ErrNotApplicable: the table, the index or the expression is not one these
// readers read (another tokenizer, an option, syntax left to FTS5); the
// caller ranks with FTS5.
var ErrNotApplicable = errors.New("full ranking not applicable")

// indexErr is an error of reading an index: one that fts5idx cannot read
// (ErrUnsupported) means full ranking does not apply, others stand.
func indexErr(err error) error {
	if errors.Is(err, fts5idx.ErrUnsupported) {
		return errors.Join(ErrNotApplicable, err)
	}
	return err
}

// Matches is every row matching an expression, ready to be scored.
type Matches struct {
	Rows    []int64 // ascending
	Phrases [][]fts5idx.Posting
	// DF is each phrase's document frequency: the rows of its whole
	// doclist, before a NEAR group or a mixed query's other table trims
	// them (FTS5's idf counts them all).
	DF []int
	// Scanned: a prefix no prefix index holds was read by scanning its
	// terms; FTS5 would scan them again for each row's snippet().
	Scanned bool
	// Tables are what the phrases were read from: phrase i from
	// Tables[Group[i]] (Group nil: all from Tables[0]). One table, but for a
	// mixed CJK + Latin query, whose phrases each come from their own
	// (mixed.go); its row count and lengths weigh the phrase.
	Group  []int
	Tables []*Index
	// held is the doclists phrases' rows are in, given back by Recycle.
	held []fts5idx.Doclist
}

// Recycle gives the doclists' memory back for the next query's: after it,
// no phrase's rows may be used.
func (r *Matches) Recycle() {
	for i := range r.held {
		r.held[i].Recycle()
	}
	r.held, r.Phrases = nil, nil
}

// Index is one FTS5 table's index, opened for reading by full ranking.
type Index struct {
	t    Table
	src  source
	st   fts5idx.Structure
	avg  fts5idx.Averages
	lens []uint32
}

// Open reads table's structure, averages and row lengths;
// ErrNotApplicable when the table is one full ranking does not read.
func (x *Indexes) Open(c engine.Conn, table string) (*Index, error) {
	t, ok, err := x.table(c, table)
	if err != nil || !ok {
		return nil, errors.Join(ErrNotApplicable, err)
	}
	ix := &Index{t: t, src: source{c: c, table: table}}
	sb, err := ix.src.Block(fts5idx.StructureID)
	if err != nil {
		return nil, err
	}
	if ix.st, err = fts5idx.ParseStructure(sb); err != nil {
		return nil, errors.Join(ErrNotApplicable, err)
	}
	ab, err := ix.src.Block(fts5idx.AveragesID)
	if err != nil {
		return nil, err
	}
	if ix.avg, err = fts5idx.ParseAverages(ab); err != nil {
		return nil, errors.Join(ErrNotApplicable, err)
	}
	ix.lens, ok, err = x.rows.Lens(table).Refresh(c)
	if err != nil || !ok {
		return nil, errors.Join(ErrNotApplicable, err)
	}
	return ix, nil
}

// Name is the table's name.
func (ix *Index) Name() string { return ix.src.table }

// Trigram reports a tokenize='trigram' table.
func (ix *Index) Trigram() bool { return ix.t.trigram }

// Rows is the index's row count (for idf), at least 1.
func (ix *Index) Rows() float64 { return float64(max(ix.avg.Rows, 1)) }

// Lens are the table's row lengths in tokens by rowid (shared, read-only).
func (ix *Index) Lens() []uint32 { return ix.lens }

// AvgDL is the index's mean row length in tokens.
func (ix *Index) AvgDL() float64 {
	if a := float64(ix.avg.TotalTokens()) / ix.Rows(); a > 0 {
		return a
	}
	return 1
}

// DL is a row's length in tokens (the mean for a row not cached yet).
func (ix *Index) DL(id int64) float64 {
	if id >= 0 && id < int64(len(ix.lens)) {
		return float64(ix.lens[id])
	}
	return ix.AvgDL()
}

// Read evaluates p's expression over its table's doclists; a mixed CJK +
// Latin query reads several tables (mixed.go), as l has them.
func (x *Indexes) Read(c engine.Conn, p plan.Match, l engine.Layout) (*Matches, error) {
	if p.Latin != "" {
		return x.mixed(c, p, l)
	}
	if p.Table == "" {
		return nil, ErrNotApplicable
	}
	ix, err := x.Open(c, p.Table)
	if err != nil {
		return nil, err
	}
	return ix.Matches(p.Expr)
}

// Matches evaluates expr over the index's doclists.
func (ix *Index) Matches(expr string) (*Matches, error) {
	t, src, st := ix.t, ix.src, ix.st
	tokenize := analysis.Unicode61Tokens
	if t.trigram {
		tokenize = analysis.TrigramTokens
	}
	tree, ok := parseFTSExpr(expr, tokenize, t.names)
	if !ok {
		return nil, ErrNotApplicable
	}
	var err error
	r := &Matches{Tables: []*Index{ix}, Phrases: make([][]fts5idx.Posting, len(tree.phrases)), DF: make([]int, len(tree.phrases))}
	starts := make([][][]int64, len(tree.phrases))
	for i, ph := range tree.phrases {
		var held []fts5idx.Doclist
		r.Phrases[i], starts[i], held, err = phrasePostings(src, st, t, ph)
		r.held = append(r.held, held...)
		if err != nil {
			r.Recycle()
			return nil, err
		}
		r.Scanned = r.Scanned || (ph.prefix && !slices.Contains(t.prefixes, utf8.RuneCountInString(ph.tokens[len(ph.tokens)-1])))
	}
	for i, ps := range r.Phrases {
		r.DF[i] = len(ps)
	}
	// A NEAR group's phrases count only their instances that take part in
	// a match (their idf stays the phrase's own, from DF, as FTS5 computes it).
	trimNear(tree.root, tree.phrases, r.Phrases, starts)
	r.Rows = evalExpr(tree.root, r.Phrases)
	return r, nil
}

// trimNear replaces, for every NEAR group under n, its phrases' postings by
// the rows where the group matches, each counting the instances that take
// part in a match: FTS5's fts5ExprNearIsMatch, step for step.
func trimNear(n *exprNode, phrases []exprPhrase, postings [][]fts5idx.Posting, starts [][][]int64) {
	if n.op != opNear {
		for _, k := range n.kids {
			trimNear(k, phrases, postings, starts)
		}
		return
	}
	ids := make([]int, len(n.kids))
	nTerms := make([]int64, len(n.kids))
	for i, k := range n.kids {
		ids[i] = k.phrase
		nTerms[i] = int64(len(phrases[k.phrase].tokens))
	}
	out := make([][]fts5idx.Posting, len(ids))
	cur := make([]int, len(ids))
	at := make([][]int64, len(ids))
	for _, first := range postings[ids[0]] {
		row, all := first.Rowid, true
		for i, ph := range ids {
			if !SeekRow(postings[ph], &cur[i], row) {
				all = false
				break
			}
			at[i] = starts[ph][cur[i]]
		}
		if !all {
			continue
		}
		if counts, ok := nearMatch(at, nTerms, int64(n.near)); ok {
			for i := range ids {
				out[i] = append(out[i], fts5idx.Posting{Rowid: row, Tf: counts[i]})
			}
		}
	}
	for i, ph := range ids {
		postings[ph] = out[i]
	}
}

// nearMatch is fts5ExprNearIsMatch over one row: at holds each phrase's
// instance starts (column<<32 | offset, ascending). It returns how many of
// each phrase's instances take part in a match, and whether any does.
func nearMatch(at [][]int64, nTerms []int64, near int64) ([]int32, bool) {
	n := len(at)
	idx := make([]int, n)
	counts := make([]int32, n)
	last := make([]int64, n)
	for {
		iMax := at[0][idx[0]]
		for match := false; !match; {
			match = true
			for i := 0; i < n; i++ {
				iMin := iMax - nTerms[i] - near
				if pos := at[i][idx[i]]; pos < iMin || pos > iMax {
					match = false
					for at[i][idx[i]] < iMin {
						if idx[i]++; idx[i] >= len(at[i]) {
							return counts, counts[0] > 0
						}
					}
					if at[i][idx[i]] > iMax {
						iMax = at[i][idx[i]]
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			if pos := at[i][idx[i]]; counts[i] == 0 || pos != last[i] {
				counts[i]++
				last[i] = pos
			}
		}
		// Advance the phrase whose next instance comes first.
		adv, next := 0, int64(math.MaxInt64)
		for i := 0; i < n; i++ {
			la := int64(math.MaxInt64)
			if idx[i]+1 < len(at[i]) {
				la = at[i][idx[i]+1]
			}
			if la < next {
				adv, next = i, la
			}
		}
		if idx[adv]++; idx[adv] >= len(at[adv]) {
			return counts, counts[0] > 0
		}
	}
}

// phrasePostings returns the rows holding the phrase and, as Tf, how many
// times it occurs in each, and the doclists they are in (to Recycle once
// they are used).
func phrasePostings(src fts5idx.Source, st fts5idx.Structure, t Table, ph exprPhrase) (_ []fts5idx.Posting, _ [][]int64, held []fts5idx.Doclist, _ error) {
	use := phraseCover(t, ph)
	lists := make([]fts5idx.Doclist, len(use))
	for i, k := range use {
		tok := ph.tokens[k]
		key, scan := append([]byte{fts5idx.Main}, tok...), false
		if ph.prefix && k == len(ph.tokens)-1 {
			scan = true
			for k, n := range t.prefixes {
				if n == utf8.RuneCountInString(tok) {
					key[0], scan = byte(fts5idx.Main+k+1), false
					break
				}
			}
			if scan && ph.positional() {
				return nil, nil, lists[:i], ErrNotApplicable // positions of a prefix no index holds: FTS5 ranks it
			}
		}
		var err error
		if lists[i], err = fts5idx.Postings(src, st, key, scan, ph.positional()); err != nil {
			return nil, nil, lists[:i], indexErr(err)
		}
	}
	if !ph.positional() {
		return lists[0].Rows, nil, lists, nil
	}
	var starts [][]int64
	keep := &starts
	if !ph.near {
		keep = nil
	}
	rows := phraseRowsAt(lists, use, ph.cols, ph.initial, keep)
	for i := range lists {
		lists[i].Recycle() // the phrase's rows are copied out: the next phrase reuses their memory
	}
	return rows, starts, nil, nil
}

// phraseCover returns which of the phrase's tokens must be read to find
// it: all of them, except on a trigram table. There token k of a phrase is
// the trigram that starts at its character k, and the index gives each
// trigram of a text its starting character as position; so the text holds
// the phrase at p exactly when it holds tokens 0, 3, 6, ... and the last
// at p plus their offsets (they cover every character, and the trigrams
// between them are then there too). "rollback" reads rol, lba and ack,
// not six doclists: the cost of a substring is its doclists' size.
func phraseCover(t Table, ph exprPhrase) []int {
	n := len(ph.tokens)
	use := make([]int, 0, n)
	if !t.trigram || ph.prefix || n < 3 {
		for k := range n {
			use = append(use, k)
		}
		return use
	}
	for k := 0; k < n-1; k += 3 {
		use = append(use, k)
	}
	return append(use, n-1)
}

// phraseRows keeps the rows where the tokens occur one after another in a
// column, counting each occurrence of the whole phrase; with cols, only in
// those columns (a bit each), with initial, only at a column's start.
// With starts, each kept row's instance start positions (column<<32 |
// offset) are appended to it, for a NEAR group.
func phraseRows(lists []fts5idx.Doclist, cols uint64, initial bool, starts *[][]int64) []fts5idx.Posting {
	return phraseRowsAt(lists, nil, cols, initial, starts)
}

// phraseRowsAt is phraseRows for lists that are the phrase's tokens at
// offsets offs (nil: 0, 1, 2, ...), as phraseCover picks them.
func phraseRowsAt(lists []fts5idx.Doclist, offs []int, cols uint64, initial bool, starts *[][]int64) []fts5idx.Posting {
	if offs == nil {
		offs = make([]int, len(lists))
		for k := range offs {
			offs[k] = k
		}
	}
	shortest := len(lists[0].Rows)
	for _, l := range lists {
		shortest = min(shortest, len(l.Rows))
	}
	out := make([]fts5idx.Posting, 0, shortest)
	idx := make([]int, len(lists))
	pos := make([][]uint64, len(lists))
	for i0, first := range lists[0].Rows {
		id := first.Rowid
		idx[0] = i0
		all := true
		for k := 1; k < len(lists) && all; k++ {
			all = SeekRow(lists[k].Rows, &idx[k], id)
		}
		if !all {
			continue
		}
		for k := range lists {
			pl := lists[k].Pos(idx[k])
			pos[k] = fts5idx.AppendPositions(pos[k][:0], pl)
		}
		var n int32
		var at []int64
		for _, start := range pos[0] {
			if col := start >> 32; (cols != 0 && (col >= 64 || cols&(1<<col) == 0)) || (initial && uint32(start) != 0) {
				continue
			}
			ok := true
			for k := 1; k < len(pos) && ok; k++ {
				_, ok = slices.BinarySearch(pos[k], start+uint64(offs[k]-offs[0]))
			}
			if ok {
				n++
				if starts != nil {
					at = append(at, int64(start))
				}
			}
		}
		if n > 0 {
			out = append(out, fts5idx.Posting{Rowid: id, Tf: n})
			if starts != nil {
				*starts = append(*starts, at)
			}
		}
	}
	return out
}

// SeekRow advances *cur along ps (ascending rowids) to the first row not
// before row, and reports whether that row is row.
func SeekRow(ps []fts5idx.Posting, cur *int, row int64) bool {
	*cur = fts5idx.Seek(ps, *cur, row)
	return *cur < len(ps) && ps[*cur].Rowid == row
}

// evalExpr returns the rowids (ascending) that satisfy the expression.
func evalExpr(n *exprNode, phrases [][]fts5idx.Posting) []int64 {
	switch n.op {
	case opPhrase:
		ps := phrases[n.phrase]
		out := make([]int64, len(ps))
		for i, p := range ps {
			out[i] = p.Rowid
		}
		return out
	case opNot:
		return difference(evalExpr(n.kids[0], phrases), evalExpr(n.kids[1], phrases))
	case opNear:
		return evalExpr(n.kids[0], phrases) // trimNear left only the rows where the group matches
	}
	acc := evalExpr(n.kids[0], phrases)
	for _, k := range n.kids[1:] {
		if n.op == opAnd {
			acc = intersect(acc, evalExpr(k, phrases))
		} else {
			acc = union(acc, evalExpr(k, phrases))
		}
	}
	return acc
}

func intersect(a, b []int64) []int64 {
	var out []int64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func union(a, b []int64) []int64 {
	out := make([]int64, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

func difference(a, b []int64) []int64 {
	var out []int64
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}
