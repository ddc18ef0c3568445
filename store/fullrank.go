package store

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Full ranking: bm25 over every match, computed in Go from the index.
//
// FTS5's bm25() costs a %_docsize lookup and an auxiliary-function call per
// matching row, about a second for a word in 40 % of a million messages, so
// the final phase used to rank only the newest rankCandidates matches. Here
// each phrase's doclist is read from the index pages themselves
// (store/fts5idx), the expression is evaluated over the rowid lists, and
// every matching row is scored with FTS5's own formula and inputs: the
// phrase's idf from its document frequency over the index's row count, the
// row's token count (docLens, a cache of %_docsize) against the average
// from the averages record. The result is FTS5's ranking, with ties broken
// newest first; only the best rows are then read with their text and the
// caller's filters.

// fullRankMaxChecked bounds how many of the best-scored rows are read to
// fill a page when the caller's filters reject most of them; past it the
// answer is what passed so far, marked incomplete.
var fullRankMaxChecked = 50000

// snippetTextMax bounds the text a Go snippet reads of one row (a tool
// output may hold 30 MB).
const snippetTextMax = 65536

// errFullRankNA: full ranking does not apply; the caller ranks with FTS5.
var errFullRankNA = errors.New("full ranking not applicable")

// indexErr is an error of reading an index: one that fts5idx cannot read
// (ErrUnsupported) means full ranking does not apply, others stand.
func indexErr(err error) error {
	if errors.Is(err, fts5idx.ErrUnsupported) {
		return errors.Join(errFullRankNA, err)
	}
	return err
}

// scored is one matching row and its bm25 score (higher is better).
type scored struct {
	rowid int64
	score float64
}

// better orders rows best first: higher score, then newer.
func (a scored) better(b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.rowid > b.rowid
}

// rankedMatches is every row matching an expression, ready to be scored.
type rankedMatches struct {
	rows    []int64 // ascending
	phrases [][]fts5idx.Posting
	idf     []float64
	// scanned: a prefix no prefix index holds was read by scanning its
	// terms; FTS5 would scan them again for each row's snippet().
	scanned bool
	// tables normalise the phrases' contributions: phrase i by
	// tables[group[i]] (group nil: all by tables[0]). One table, but for a
	// mixed CJK + Latin query, whose phrases each come from their own
	// (fullrank_mixed.go).
	group  []int
	tables []normTable
	// held is the doclists phrases' rows are in, given back by recycle.
	held []fts5idx.Doclist
}

// recycle gives the doclists' memory back for the next query's: after it,
// no phrase's rows may be used.
func (r *rankedMatches) recycle() {
	for i := range r.held {
		r.held[i].Recycle()
	}
	r.held, r.phrases = nil, nil
}

// normTable is one table's row lengths and average, which normalise the
// bm25 contributions of the phrases read from it.
type normTable struct {
	name  string
	lens  []uint32
	avgdl float64
}

// norm is BM25's length normalisation of row id, k1 (1 - b + b dl/avgdl),
// as FTS5 computes it (a row not cached yet: the average length).
func (t normTable) norm(id int64) float64 {
	d := t.avgdl
	if id >= 0 && id < int64(len(t.lens)) {
		d = float64(t.lens[id])
	}
	return bm25K1 * (1 - bm25B + bm25B*d/t.avgdl)
}

// normTable is the table the index reads, for scoring.
func (ix *ftsIndex) normTable() normTable {
	return normTable{name: ix.src.table, lens: ix.lens, avgdl: ix.avgdl()}
}

// best returns the m best matching rows, best first, scored by FTS5's
// bm25 (fts5_aux.c fts5Bm25Function), phrase by phrase, in one pass over
// every match. Scores are not kept: a common word has hundreds of
// thousands of rows, of which a page needs a few.
func (r *rankedMatches) best(m int) []scored {
	m = min(m, len(r.rows))
	h := make([]scored, 0, max(m, 0)) // keepBest's heap: h[0] is the worst kept
	tables := r.tables
	if len(r.phrases) == 1 && len(tables) == 1 && len(r.phrases[0]) == len(r.rows) {
		// One phrase (a word, a prefix): its rows are the matches, scored
		// as below without looking each up.
		t, idf := tables[0], r.idf[0]
		for _, p := range r.phrases[0] {
			tf := float64(p.Tf)
			if x := (scored{rowid: p.Rowid, score: idf * tf * (bm25K1 + 1) / (tf + t.norm(p.Rowid))}); len(h) < m || x.better(h[0]) {
				h = keepBest(h, m, x, scored.better)
			}
		}
		return sortBest(h, scored.better)
	}
	cur := make([]int, len(r.phrases))
	norm := make([]float64, len(tables))
	for _, id := range r.rows {
		for g, t := range tables {
			norm[g] = t.norm(id)
		}
		var sc float64
		for i, ps := range r.phrases {
			if seekRow(ps, &cur[i], id) {
				g := 0
				if r.group != nil {
					g = r.group[i] // a mixed query's phrase, normalised by its own table
				}
				tf := float64(ps[cur[i]].Tf)
				sc += r.idf[i] * tf * (bm25K1 + 1) / (tf + norm[g])
			}
		}
		if x := (scored{rowid: id, score: sc}); len(h) < m || x.better(h[0]) {
			h = keepBest(h, m, x, scored.better)
		}
	}
	return sortBest(h, scored.better)
}

// ftsIndex is one FTS5 table's index, opened for reading by full ranking.
type ftsIndex struct {
	t    ftsTable
	src  ftsSource
	st   fts5idx.Structure
	avg  fts5idx.Averages
	lens []uint32
}

// openIndex reads table's structure, averages and row lengths;
// errFullRankNA when the table is one full ranking does not read.
func (s *Store) openIndex(c *conn, table string) (*ftsIndex, error) {
	t, ok, err := s.ftsTable(c, table)
	if err != nil || !ok {
		return nil, errors.Join(errFullRankNA, err)
	}
	ix := &ftsIndex{t: t, src: ftsSource{c: c, table: table}}
	sb, err := ix.src.Block(fts5idx.StructureID)
	if err != nil {
		return nil, err
	}
	if ix.st, err = fts5idx.ParseStructure(sb); err != nil {
		return nil, errors.Join(errFullRankNA, err)
	}
	ab, err := ix.src.Block(fts5idx.AveragesID)
	if err != nil {
		return nil, err
	}
	if ix.avg, err = fts5idx.ParseAverages(ab); err != nil {
		return nil, errors.Join(errFullRankNA, err)
	}
	ix.lens, ok, err = s.docLens(table).refresh(c, table, s)
	if err != nil || !ok {
		return nil, errors.Join(errFullRankNA, err)
	}
	return ix, nil
}

// rows is the index's row count (for idf), at least 1.
func (ix *ftsIndex) rows() float64 { return float64(max(ix.avg.Rows, 1)) }

// avgdl is the index's mean row length in tokens.
func (ix *ftsIndex) avgdl() float64 {
	if a := float64(ix.avg.TotalTokens()) / ix.rows(); a > 0 {
		return a
	}
	return 1
}

// dl is a row's length in tokens (the mean for a row not cached yet).
func (ix *ftsIndex) dl(id int64) float64 {
	if id >= 0 && id < int64(len(ix.lens)) {
		return float64(ix.lens[id])
	}
	return ix.avgdl()
}

// fullRankMatches evaluates p's expression over its table's doclists; a
// mixed CJK + Latin query reads several tables (fullrank_mixed.go).
func (s *Store) fullRankMatches(c *conn, p match) (*rankedMatches, error) {
	if p.latin != "" {
		return s.fullRankMixed(c, p)
	}
	if p.table == "" {
		return nil, errFullRankNA
	}
	ix, err := s.openIndex(c, p.table)
	if err != nil {
		return nil, err
	}
	return ix.matches(p.expr)
}

// matches evaluates expr over the index's doclists.
func (ix *ftsIndex) matches(expr string) (*rankedMatches, error) {
	t, src, st := ix.t, ix.src, ix.st
	tokenize := analysis.Unicode61Tokens
	if t.trigram {
		tokenize = analysis.TrigramTokens
	}
	tree, ok := parseFTSExpr(expr, tokenize, t.names)
	if !ok {
		return nil, errFullRankNA
	}
	var err error
	r := &rankedMatches{tables: []normTable{ix.normTable()}, phrases: make([][]fts5idx.Posting, len(tree.phrases)), idf: make([]float64, len(tree.phrases))}
	starts := make([][][]int64, len(tree.phrases))
	for i, ph := range tree.phrases {
		var held []fts5idx.Doclist
		r.phrases[i], starts[i], held, err = phrasePostings(src, st, t, ph)
		r.held = append(r.held, held...)
		if err != nil {
			r.recycle()
			return nil, err
		}
		r.scanned = r.scanned || (ph.prefix && !slices.Contains(t.prefixes, utf8.RuneCountInString(ph.tokens[len(ph.tokens)-1])))
	}
	nRow := ix.rows()
	for i, ps := range r.phrases {
		n := float64(len(ps))
		r.idf[i] = math.Log((nRow - n + 0.5) / (n + 0.5))
		if r.idf[i] <= 0 {
			r.idf[i] = 1e-6
		}
	}
	// A NEAR group's phrases count only their instances that take part in
	// a match (their idf stays the phrase's own, as FTS5 computes it).
	trimNear(tree.root, tree.phrases, r.phrases, starts)
	r.rows = evalExpr(tree.root, r.phrases)
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
			if !seekRow(postings[ph], &cur[i], row) {
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
func phrasePostings(src fts5idx.Source, st fts5idx.Structure, t ftsTable, ph exprPhrase) (_ []fts5idx.Posting, _ [][]int64, held []fts5idx.Doclist, _ error) {
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
				return nil, nil, lists[:i], errFullRankNA // positions of a prefix no index holds: FTS5 ranks it
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
func phraseCover(t ftsTable, ph exprPhrase) []int {
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
			all = seekRow(lists[k].Rows, &idx[k], id)
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

// seekRow advances *cur along ps (ascending rowids) to the first row not
// before row, and reports whether that row is row.
func seekRow(ps []fts5idx.Posting, cur *int, row int64) bool {
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

// fullRank answers the final phase of a relevance-ordered search over
// every match. It returns errFullRankNA when the query or the table is one
// it does not read; the caller then ranks as before.
func (s *Store) fullRank(c *conn, q query.Parsed, f SearchFilter, p match, res SearchResult) (SearchResult, error) {
	return s.fullRankTry(c, q, f, p, res, false)
}

func (s *Store) fullRankTry(c *conn, q query.Parsed, f SearchFilter, p match, res SearchResult, again bool) (SearchResult, error) {
	orig := res
	all, err := s.fullRankMatches(c, p)
	if err != nil {
		return res, err
	}
	defer all.recycle()
	res.Matches = len(all.rows)
	need := f.Offset + f.Limit
	filter, fargs := s.filterSQL(f)
	var (
		passed  []candidate // in rank order
		checked int
		// The best rows are chosen once for four pages' worth: scoring
		// every match again costs more than reading a few more rows.
		m    = 4*need + 16
		best = all.best(m)
	)
	for {
		if checked >= len(best) && len(best) == m {
			m = min(checked*4, fullRankMaxChecked)
			best = all.best(m)
		}
		// Read the next rows in batches of about a page and a half (a few
		// rows per session the caller lists, for a ranking by session).
		size := need + need/2 + 16
		if f.Sessions && f.SessionLimit > 0 {
			size = min(size, max(64, 4*f.SessionLimit))
		}
		batch := best[checked:min(len(best), checked+size)]
		if len(batch) > 0 {
			ids := make([]any, len(batch))
			for i, b := range batch {
				ids[i] = b.rowid
			}
			byID := make(map[int64]candidate, len(batch))
			sql := "SELECT " + s.hitColumns("''", "0") + " FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id IN (" +
				sqlutil.Placeholders(len(ids)) + ") AND " + filter
			err := c.query(sql, append(ids, fargs...), func(st stmtRow) error {
				h := scanHit(st, p.index)
				byID[h.MessageID] = candidate{hit: h}
				return nil
			})
			if err != nil {
				return res, err
			}
			for _, b := range batch {
				if cd, ok := byID[b.rowid]; ok {
					cd.score = b.score
					cd.hit.Rank = -b.score
					passed = append(passed, cd)
				}
			}
			checked += len(batch)
		}
		if len(passed) >= need || checked >= len(all.rows) || enoughSessions(f, passed) {
			break
		}
		if checked >= fullRankMaxChecked {
			res.Complete = false
			res.Notice = joinNotice(res.Notice, fmt.Sprintf("the filters passed %d of the best %d matches: showing those", len(passed), checked))
			break
		}
	}
	ids := make([]int64, 0, len(passed))
	for i := f.Offset; i < len(passed) && len(res.Hits) < f.Limit; i++ {
		res.Hits = append(res.Hits, passed[i].hit)
		ids = append(ids, passed[i].hit.MessageID)
	}
	if err := s.snippets(c, q, f, p, all.scanned, res.Hits); err != nil {
		return res, err
	}
	stale := false
	for _, t := range all.tables {
		same, err := verifyLens(c, t.name, t.lens, ids)
		if err != nil {
			return res, err
		}
		if !same {
			// A row was rewritten in place since its length was cached:
			// read every length again, once, and rank again.
			s.docLens(t.name).drop()
			s.removeRankCache("lens-" + t.name)
			stale = true
		}
	}
	if stale && !again {
		return s.fullRankTry(c, q, f, p, orig, true)
	}
	return res, nil
}

// snippetsByIndexMax is the most rows whose snippet the index's own
// snippet() makes: each is a MATCH evaluated again for one rowid (a
// doclist seek per phrase, more for a prefix or an OR), which a page of a
// few dozen rows pays gladly and Discover's 300 hits do not.
const snippetsByIndexMax = 24

// snippets fills the hits' snippets: every hit's, or with f.Sessions each
// session's first (the others are counted, not shown). A few rows get the
// index's snippet(), which marks what matched (a typed prefix its whole
// word) and reads no text beyond its window; more rows, a prefix no prefix
// index holds (scanned) and the CJK table are snippeted in Go from each
// row's first snippetTextMax characters.
func (s *Store) snippets(c *conn, q query.Parsed, f SearchFilter, p match, scanned bool, hits []Hit) error {
	var want []any
	at := map[int64]int{}
	seen := map[string]bool{}
	for i, h := range hits {
		if f.Sessions {
			if seen[h.SessionID] {
				continue
			}
			seen[h.SessionID] = true
		}
		want = append(want, h.MessageID)
		at[h.MessageID] = i
	}
	if len(want) == 0 {
		return nil
	}
	if len(want) <= snippetsByIndexMax && !scanned && !p.goMark {
		args := append(append(append([]any{}, p.snipArg...), p.expr), want...)
		return c.query("SELECT "+p.table+".rowid, "+p.snippet+" FROM "+p.table+" WHERE "+p.table+" MATCH ? AND "+p.table+".rowid IN ("+sqlutil.Placeholders(len(want))+")",
			args, func(st stmtRow) error {
				if i, ok := at[st.ColumnInt64(0)]; ok {
					hits[i].Snippet = strings.TrimSpace(st.ColumnText(1))
				}
				return nil
			})
	}
	return snippetTexts(c, want, func(id int64, text string) {
		if i, ok := at[id]; ok {
			hits[i].Snippet = goSnippet(text, q)
		}
	})
}

// snippetTexts reads the searchable text of the messages ids, the first
// snippetTextMax characters of each, for snippets made in Go.
func snippetTexts(c *conn, ids []any, fn func(id int64, text string)) error {
	if len(ids) == 0 {
		return nil
	}
	sql := fmt.Sprintf("SELECT m.id, substr(%s, 1, %d) FROM messages m WHERE m.id IN (%s)", haystack, snippetTextMax, sqlutil.Placeholders(len(ids)))
	return c.query(sql, ids, func(st stmtRow) error {
		fn(st.ColumnInt64(0), analysis.DecodeContent(st.ColumnText(1)))
		return nil
	})
}

// enoughSessions reports, for a ranking by session with a SessionLimit,
// whether the rows read so far name that many sessions: the caller lists
// no more, and the rows are in rank order, so the first hit of each is
// final.
func enoughSessions(f SearchFilter, passed []candidate) bool {
	if !f.Sessions || f.SessionLimit <= 0 || f.Offset > 0 || len(passed) < f.SessionLimit {
		return false
	}
	seen := make(map[string]bool, f.SessionLimit)
	for _, c := range passed {
		seen[c.hit.SessionID] = true
		if len(seen) >= f.SessionLimit {
			return true
		}
	}
	return false
}
