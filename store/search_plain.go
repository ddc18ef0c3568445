package store

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Session-level ranking of plain queries (plain.go says what a plain query is).
//
// Where the index is one store/fts5idx reads, search_plain_exact.go ranks
// the sessions over every matching message. This file is the path for the
// other files (an FTS5 table with options full ranking does not read, a
// rowid range the session map cannot hold), bounded at every step:
//  1. each content word is read newest first from the index alone, at most
//     plainPerWord rowids (Complete=false and a notice when a word has
//     more); where the index is readable (readWords), every row is;
//  2. each row is pre-scored by the idf of the distinct words it holds,
//     then its BM25 from the index where known, and the best plainRows rows
//     that pass the filters are read with their text and session;
//  3. rows are gathered per session: the coverage of distinct query words
//     (weighted by rarity, the title counting) dominates, then the rows'
//     scores with diminishing weights (1, 1/2, ... 1/5), so a session that
//     is about a word beats one that mentions it once. Sessions with a row
//     (with the title) holding every word come first; with a date in the
//     query, sessions of that time come before the rest.
//
// Words with no row at all: a typo is looked for (plain_typo.go); when no
// word has a row, sessions whose title holds one answer (titleRows).

var (
	// plainPerWord is how many matches of one word are read (newest first).
	plainPerWord = 1000
	// plainRows is how many rows are read with their text and scored.
	plainRows = 400
	// plainSessionsBonus is how many of the best sessions have their first
	// prompt looked up (it weighs as much as a title).
	plainSessionsBonus = 40
)

// Session score weights.
const (
	coverageWeight = 1.5 // per unit of idf of a distinct word the session holds
	titleWeight    = 2.0 // extra per unit of idf of a word in the title
	firstPromptMul = 2.0 // the first prompt's row score counts this many times
	phraseWeight   = 1.0 // per unit of idf of the query, for its words in order in a row
	// maxSessionRows: the best rows of a session that count (1, 1/2, ...
	// 1/5): past a few, more mentions say length, not topic.
	maxSessionRows = 5
)

// plainEligible reports whether the plain path may answer: a session
// ranking (Discover) on an FTS index that covers every row, ranked by
// relevance from the first page.
func (s *Store) plainEligible(f SearchFilter) bool {
	l := s.layout
	return f.Sessions && f.Phase == PhaseFinal && f.Sort == SortRank && f.Offset == 0 &&
		l.hasFTS && !l.ftsStale && !l.ftsContentOnly && l.unindexedTo == 0
}

// wordMatcher tells which query words a token of text is.
type wordMatcher struct {
	forms    map[string]uint64 // form -> bitmask of words
	prefixes []string          // per word: the typed prefix, "" for none
}

func newWordMatcher(pq query.Plain) wordMatcher {
	m := wordMatcher{forms: map[string]uint64{}, prefixes: make([]string, len(pq.Words))}
	for i, w := range pq.Words {
		for _, f := range w.Forms {
			m.forms[f] |= 1 << i
		}
		if w.Prefix {
			m.prefixes[i] = strings.ToLower(w.Text)
		}
	}
	return m
}

// count returns per word its occurrences in text, the mask of words
// present and the number of tokens.
func (m wordMatcher) count(text string, tf []float64) (mask uint64, dl float64) {
	clear(tf)
	for _, tok := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		dl++
		bits := m.forms[tok]
		for i, p := range m.prefixes {
			if p != "" && strings.HasPrefix(tok, p) {
				bits |= 1 << i
			}
		}
		for i := 0; bits != 0; i++ {
			if bits&1 != 0 {
				tf[i]++
				mask |= 1 << i
			}
			bits >>= 1
		}
	}
	return mask, dl
}

// searchPlain answers a plain query at session level; no hits is not an
// error (the caller then tries the ordinary route, which finds substrings).
func (s *Store) searchPlain(c *conn, pq query.Plain, f SearchFilter) (SearchResult, error) {
	// Every match, from the index (search_plain_exact.go), where it reads it.
	if res, err := s.searchPlainExact(c, pq, f); !errors.Is(err, errFullRankNA) {
		return res, err
	} else if errors.Is(err, errNoWordRows) {
		pq.TyposTried = true // what is left is the titles; the typos were looked for
	}
	res := SearchResult{Index: IndexUnicode61, Complete: true}
	n := len(pq.Words)
	words, err := s.readWords(c, &pq)
	if err != nil {
		return res, err
	}
	defer func() { words.done() }()
	ids := make([][]int64, n)
	for i, d := range words.docs {
		if len(d) > 0 {
			ids[i] = []int64{d[0].Rowid} // correctTypos asks which words matched
		}
	}
	if fixed, note, err := s.correctTypos(c, &pq, ids); err != nil {
		return res, err
	} else if fixed {
		pq.Suggestion = note
		words.done()
		if words, err = s.readWords(c, &pq); err != nil {
			return res, err
		}
	}
	describePlain(&res, pq)

	total, _, err := c.scalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
	if err != nil {
		return res, err
	}
	N := float64(max(total, 1))
	idf := make([]float64, n)
	for i, d := range words.docs {
		df := float64(len(d))
		if words.capped[i] {
			if res.Complete {
				res.Notice = joinNotice(res.Notice, fmt.Sprintf("%q is in more than %d messages: sessions were ranked from its newest %d", pq.Words[i].Text, plainPerWord, plainPerWord))
			}
			res.Complete = false
			// Only the newest matches were read: extrapolate their density.
			window := float64(total - d[0].Rowid + 1)
			df = min(N, df*N/max(window, df))
		}
		idf[i] = math.Max(math.Log((N-df+0.5)/(df+0.5)), 0.05)
	}
	var sumIDF float64
	for _, v := range idf {
		sumIDF += v
	}
	spans, err := s.dateSpans(c, pq.Date)
	if err != nil {
		return res, err
	}
	// Every matching row, pre-scored: the rarity of the distinct words it
	// holds first (with a date, rows of sessions of that time before the
	// rest), then its BM25 from the index (each word's count in it, its
	// length in tokens), then newest.
	pres := words.preScores(idf, sumIDF, spans)
	words.done() // what follows reads the best rows' text, not the doclists
	res.Matches = len(pres)
	if len(pres) == 0 {
		// No message holds a word: a session whose title does ("bad
		// gateway") is still an answer, anchored at its first prompt.
		firsts, err := s.titleRows(c, pq)
		if err != nil || len(firsts) == 0 {
			return res, err
		}
		for _, id := range firsts {
			pres = append(pres, plainPre{id: id})
		}
	}
	if len(pres) > plainRows {
		// Sessions are ranked from the best rows, not from all of them.
		res.Complete = false
	}

	// The best rows that pass the filters, with their text and session.
	filter, fargs := s.filterSQL(f)
	var cands []candidate
	for checked, m := 0, plainRows; len(cands) < plainRows && checked < len(pres) && checked < fullRankMaxChecked; m *= 4 {
		best := bestPre(pres, min(m, fullRankMaxChecked))
		batch := best[checked:]
		checked = len(best)
		args := make([]any, 0, len(batch))
		for _, p := range batch {
			args = append(args, p.id)
		}
		sql := "SELECT " + s.hitColumns("''", "0") + ", " + haystack +
			" FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id IN (" + sqlutil.Placeholders(len(args)) + ") AND " + filter
		byID := make(map[int64]candidate, len(batch))
		err = c.query(sql, append(args, fargs...), func(st stmtRow) error {
			h := scanHit(st, IndexUnicode61)
			byID[h.MessageID] = candidate{hit: h, text: analysis.DecodeContent(st.ColumnText(hitColumnCount))}
			return nil
		})
		if err != nil {
			return res, err
		}
		for _, p := range batch { // in rank order
			if cd, ok := byID[p.id]; ok && len(cands) < plainRows {
				cands = append(cands, cd)
			}
		}
		if m >= len(pres) {
			break
		}
	}
	if len(cands) == 0 {
		return res, nil
	}

	// Okapi BM25 per row, and a bonus for the query's words in a row, in
	// order, stopwords included ("too many clients").
	wm := newWordMatcher(pq)
	tfs := make([][]float64, len(cands))
	rowMask := make([]uint64, len(cands))
	dls := make([]float64, len(cands))
	var sumDL float64
	for i := range cands {
		tfs[i] = make([]float64, n)
		rowMask[i], dls[i] = wm.count(cands[i].text, tfs[i])
		sumDL += dls[i]
	}
	avgDL := max(sumDL/float64(len(cands)), 1)
	for i := range cands {
		var sc float64
		for j, tf := range tfs[i] {
			if tf > 0 {
				sc += idf[j] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dls[i]/avgDL))
			}
		}
		if pq.Phrase != "" && strings.Contains(" "+strings.Join(analysis.Tokens(cands[i].text), " ")+" ", " "+pq.Phrase+" ") {
			sc += phraseWeight * sumIDF
		}
		cands[i].score = sc
		cands[i].hit.Rank = -sc
	}

	// Gather per session.
	type sess struct {
		id      string
		rows    []int // indexes into cands, best first
		mask    uint64
		tmask   uint64 // the words in the title
		allRow  bool   // one row (with the title) holds every word
		inRange bool
		score   float64
	}
	byID := map[string]*sess{}
	var list []*sess
	for i := range cands {
		h := cands[i].hit
		se := byID[h.SessionID]
		if se == nil {
			se = &sess{id: h.SessionID}
			tm, _ := wm.count(h.SessionTitle, make([]float64, n))
			se.mask, se.tmask = tm, tm
			for j := 0; j < n; j++ {
				if tm&(1<<j) != 0 {
					se.score += titleWeight * idf[j]
				}
			}
			se.inRange = pq.Date.Contains(h.SessionStarted)
			byID[h.SessionID] = se
			list = append(list, se)
		}
		se.rows = append(se.rows, i)
		se.mask |= rowMask[i]
		se.allRow = se.allRow || rowMask[i]|se.tmask == 1<<n-1
		se.inRange = se.inRange || pq.Date.Contains(h.Timestamp)
	}
	score := func(se *sess, first int64) {
		slices.SortFunc(se.rows, func(a, b int) int {
			return cmpFloatDesc(rowScore(cands[a], first), rowScore(cands[b], first))
		})
		sc, cov := 0.0, 0.0
		for k, r := range se.rows[:min(len(se.rows), maxSessionRows)] {
			sc += rowScore(cands[r], first) / float64(k+1)
		}
		for j := 0; j < n; j++ {
			if se.mask&(1<<j) != 0 {
				cov += idf[j]
			}
		}
		se.score += sc + coverageWeight*cov
	}
	base := make(map[*sess]float64, len(list))
	for _, se := range list {
		base[se] = se.score
		score(se, 0)
	}
	better := func(a, b *sess) int {
		if a.inRange != b.inRange {
			return boolDesc(a.inRange, b.inRange)
		}
		if a.allRow != b.allRow {
			return boolDesc(a.allRow, b.allRow)
		}
		return cmpFloatDesc(a.score, b.score)
	}
	slices.SortStableFunc(list, better)
	// The first prompt says what a session is about: it weighs as much as
	// a title, for the best sessions (one indexed lookup each).
	top := list[:min(len(list), plainSessionsBonus)]
	topIDs := make([]string, len(top))
	for i, se := range top {
		topIDs[i] = se.id
	}
	firsts, err := s.firstMessages(c, topIDs)
	if err != nil {
		return res, err
	}
	for _, se := range top {
		if id := firsts[se.id]; id != 0 {
			se.score = base[se]
			score(se, id)
		}
	}
	slices.SortStableFunc(list, better)

	hq := pq.Highlight()
	for _, se := range list {
		var matched []string
		for j := 0; j < n; j++ {
			if se.mask&(1<<j) != 0 {
				matched = append(matched, res.Words[j])
			}
		}
		for k, r := range se.rows {
			if len(res.Hits) >= f.Limit {
				break
			}
			h := cands[r].hit
			if k == 0 {
				// A session's result shows its best row: the others are
				// counted, not shown, and a snippet costs ~0.2 ms.
				h.Snippet = goSnippet(cands[r].text, hq)
			}
			h.Matched = matched
			res.Hits = append(res.Hits, h)
		}
	}
	res.Parsed = hq.Export()
	return res, nil
}

// describePlain fills what a plain query's answer says of how it was read: its
// words, the expression they stand for, a replaced typo, the date.
func describePlain(res *SearchResult, pq query.Plain) {
	exprs := make([]string, len(pq.Words))
	res.Words = make([]string, len(pq.Words))
	for i, w := range pq.Words {
		exprs[i], res.Words[i] = w.Expr(), w.Text
	}
	res.Query = "(" + strings.Join(exprs, ") OR (") + ")"
	res.Suggestion = pq.Suggestion
	if !pq.Date.Zero() {
		res.DateFilter, res.DateFrom, res.DateTo = pq.Date.Text, pq.Date.From, pq.Date.To
	}
}

// rowScore is a row's score, the session's first prompt counting more.
func rowScore(c candidate, first int64) float64 {
	if first != 0 && c.hit.MessageID == first {
		return c.score * firstPromptMul
	}
	return c.score
}

func cmpFloatDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func boolDesc(a, b bool) int {
	if a == b {
		return 0
	}
	if a {
		return -1
	}
	return 1
}

// wordRows reads the newest plainPerWord rowids matching expr from the index alone.
func (s *Store) wordRows(c *conn, expr string) ([]int64, error) {
	var out []int64
	err := c.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?", []any{expr, plainPerWord},
		func(st stmtRow) error {
			out = append(out, st.ColumnInt64(0))
			return nil
		})
	return out, err
}

// firstMessages returns each session's first message id (by time), one
// indexed lookup per session (idx_messages_session).
func (s *Store) firstMessages(c *conn, ids []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	sql := "SELECT v.column1, (SELECT id FROM messages WHERE session_id = v.column1 AND role = 'user' ORDER BY timestamp, id LIMIT 1) FROM (VALUES " +
		strings.TrimSuffix(strings.Repeat("(?),", len(ids)), ",") + ") v"
	err := c.query(sql, args, func(st stmtRow) error {
		out[st.ColumnText(0)] = st.ColumnInt64(1)
		return nil
	})
	return out, err
}

// titleRows finds up to plainTitleSessions sessions whose title holds a
// word of pq and returns their first prompts' ids.
func (s *Store) titleRows(c *conn, pq query.Plain) ([]int64, error) {
	if !s.layout.sessionCols["title"] {
		return nil, nil
	}
	var conds []string
	var args []any
	for _, w := range pq.Words {
		conds = append(conds, "s.title LIKE ? ESCAPE '\\'")
		args = append(args, "%"+sqlutil.EscapeLike(strings.ToLower(w.Text))+"%")
	}
	var ids []string
	err := c.query("SELECT s.id FROM sessions s WHERE "+strings.Join(conds, " OR ")+" ORDER BY s.started_at DESC LIMIT ?",
		append(args, plainTitleSessions), func(st stmtRow) error {
			ids = append(ids, st.ColumnText(0))
			return nil
		})
	if err != nil {
		return nil, err
	}
	firsts, err := s.firstMessages(c, ids)
	var out []int64
	for _, id := range ids {
		if f := firsts[id]; f != 0 {
			out = append(out, f)
		}
	}
	return out, err
}

// plainTitleSessions bounds the sessions found by their title alone.
const plainTitleSessions = 20

// idSpans are message id ranges [lo, hi].
type idSpans [][2]int64

func (sp idSpans) contain(id int64) bool {
	for _, r := range sp {
		if id >= r[0] && id <= r[1] {
			return true
		}
	}
	return false
}

// maxDateSessions bounds the sessions of a date whose rows are preferred.
const maxDateSessions = 200

// dateSpans returns the message id span of each session started in d
// (none for a zero range), newest sessions first, at most maxDateSessions.
func (s *Store) dateSpans(c *conn, d query.DateRange) (idSpans, error) {
	if d.Zero() {
		return nil, nil
	}
	var out idSpans
	err := c.query("SELECT (SELECT MIN(id) FROM messages WHERE session_id = s.id), (SELECT MAX(id) FROM messages WHERE session_id = s.id)"+
		" FROM sessions s WHERE s.started_at >= ? AND s.started_at < ? ORDER BY s.started_at DESC LIMIT ?",
		[]any{toEpoch(d.From), toEpoch(d.To), maxDateSessions}, func(st stmtRow) error {
			out = append(out, [2]int64{st.ColumnInt64(0), st.ColumnInt64(1)})
			return nil
		})
	return out, err
}
