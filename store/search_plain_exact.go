package store

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/fts5idx"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Session ranking of a plain query over every match.
//
// A session's score is search_plain.go's, with every input read for every
// matching row: each word's rows and counts from its doclists (all its
// forms, plainDocs), idf from its exact document frequency, each row's BM25
// from its length in %_docsize, its session, time and the session's first
// message from sessionMap, the session's title words from the same map. A
// session is ranked by
//
//  1. a date the query names: a session started then, or with a matching
//     message then, comes first;
//  2. one message (with the title) holding every word;
//  3. titleWeight x the idf of its title's words, plus coverageWeight x
//     the idf of every distinct word it holds (title included), plus its
//     best messages' values weighted 1, 1/2 ... 1/5, where a message's
//     value is its BM25, plus phraseWeight x the query's idf when its text
//     holds the query's words in order, doubled for the session's first
//     message;
//  4. newest.
//
// Every matching message counts, whatever its role: the caller's role and
// visibility filters choose which sessions are listed (those with a
// matching message that passes them) and which of their messages are shown,
// not the evidence a session is ranked by; since/until bound the evidence.
//
// Every input is in the index or the map, the in-order bonus included (a
// phrase match of the query's words, stopwords too, read from the position
// lists of the messages that hold every word), so every session's key is
// exact before any message is read; messages are then read only to list
// the best sessions that pass the filters, in key order.

var (
	// plainListed is how many sessions are listed at most (the MCP tool
	// returns at most 10; a TUI screen shows ~20), and plainSessionHits how
	// many of a session's messages are listed with it.
	plainListed      = 60
	plainSessionHits = 10
)

// plainRow is one matching message as the index scores it.
type plainRow struct {
	id    int64
	value float64 // BM25 over the query's words, with the in-order bonus and the first prompt's weight
}

// sessRank is one session's place in the ranking, before its messages are read.
type sessRank struct {
	o      int32
	count  int    // its matching messages
	oldest int64  // its oldest matching message (newest is in key)
	mask   uint64 // the words the session holds, title included
	key    sessKey
}

// plainSess is one session, its key and, once read, its messages that
// pass the filters.
type plainSess struct {
	sessRank
	rows []plainRow // every matching message (since/until applied), once gathered
	hits []Hit      // its messages that pass the filters, best first
}

// value returns the value of the session's message id.
func (se *plainSess) value(id int64) float64 {
	i, ok := slices.BinarySearchFunc(se.rows, id, func(r plainRow, id int64) int { return cmp.Compare(r.id, id) })
	if !ok {
		return 0
	}
	return se.rows[i].value
}

// sessKey orders sessions: in the date's range, one message with every
// word, score, newest.
type sessKey struct {
	inRange, allRow bool
	score           float64
	newest          int64
}

func (a sessKey) cmp(b sessKey) int {
	if a.inRange != b.inRange {
		return boolDesc(a.inRange, b.inRange)
	}
	if a.allRow != b.allRow {
		return boolDesc(a.allRow, b.allRow)
	}
	if c := cmpFloatDesc(a.score, b.score); c != 0 {
		return c
	}
	return cmp.Compare(b.newest, a.newest) // newer first
}

// plainScorer holds a query's weights.
type plainScorer struct {
	n           int
	idf         []float64
	full        uint64
	phraseBonus float64
}

func (p plainScorer) weigh(m uint64, w float64) float64 {
	var sc float64
	for j := 0; j < p.n; j++ {
		if m&(1<<j) != 0 {
			sc += w * p.idf[j]
		}
	}
	return sc
}

// key is a session's order: its title's and its words' idf, and its best
// messages' values weighted 1, 1/2 ... (search_plain.go's score).
func (p plainScorer) key(a *sessAcc) sessKey {
	k := sessKey{inRange: a.inRange, allRow: a.allRow, newest: a.newest}
	k.score = p.weigh(a.tmask, titleWeight) + p.weigh(a.mask, coverageWeight)
	for i, v := range a.top {
		k.score += v / float64(i+1)
	}
	return k
}

// searchPlainExact answers a plain query at session level over every
// match; errFullRankNA when the index or the file is not one it reads (the
// caller then ranks as searchPlain does).
func (s *Store) searchPlainExact(c *conn, pq query.Plain, f SearchFilter) (SearchResult, error) {
	res, err := s.searchPlainExactOnce(c, pq, f)
	if errors.Is(err, errStaleMap) {
		// A session was renamed or a message moved since the map was read.
		s.sessionMap().drop()
		s.removeRankCache("sessions")
		res, err = s.searchPlainExactOnce(c, pq, f)
		if errors.Is(err, errStaleMap) {
			err = errFullRankNA
		}
	}
	return res, err
}

// errNoWordRows: no message holds a word of the query, typos looked for.
var errNoWordRows = errors.Join(errFullRankNA, errors.New("no message holds a word"))

// errStaleMap: a row read with its session disagrees with sessionMap.
var errStaleMap = errors.New("session map out of date")

func (s *Store) searchPlainExactOnce(c *conn, pq query.Plain, f SearchFilter) (SearchResult, error) {
	res := SearchResult{Index: IndexUnicode61, Complete: true}
	if !s.layout.hasFTS || len(pq.Words) > 64 {
		return res, errFullRankNA
	}
	ix, err := s.openIndex(c, "messages_fts")
	if err != nil {
		return res, err
	}
	if ix.t.trigram {
		return res, errFullRankNA
	}
	sm := s.sessionMap()
	if ok, err := sm.refresh(c, s.layout, s); err != nil || !ok {
		return res, errors.Join(errFullRankNA, err)
	}
	phrase := analysis.Unicode61Tokens(pq.Phrase)
	phraseToks := map[string]bool{}
	for _, tok := range phrase {
		phraseToks[tok] = true
	}
	docs, kept, release, err := plainDocs(ix, &pq, phraseToks)
	if err != nil {
		return res, err
	}
	defer func() { release() }() // the last read's, once the sessions are listed
	ids := make([][]int64, len(docs))
	for i, d := range docs {
		if len(d) > 0 {
			ids[i] = []int64{d[0].Rowid} // correctTypos asks only which words matched
		}
	}
	if fixed, note, err := s.correctTypos(c, &pq, ids); err != nil {
		return res, err
	} else if fixed {
		pq.Suggestion = note
		release()
		if docs, kept, release, err = plainDocs(ix, &pq, phraseToks); err != nil {
			release = func() {}
			return res, err
		}
	}
	n := len(pq.Words)
	describePlain(&res, pq)
	hq := pq.Highlight()
	res.Parsed = hq.Export()

	ps := plainScorer{n: n, idf: make([]float64, n), full: uint64(1)<<n - 1}
	N := ix.rows()
	for i, d := range docs {
		df := float64(len(d))
		ps.idf[i] = math.Max(math.Log((N-df+0.5)/(df+0.5)), 0.05)
	}
	if pq.Phrase != "" {
		ps.phraseBonus = phraseWeight * ps.weigh(ps.full, 1)
	}
	sm.mu.Lock()
	of, at, meta := sm.of, sm.at, sm.meta
	titleMask := sm.titleMasks(pq)
	sm.mu.Unlock()
	var since, until int64 = math.MinInt64, math.MaxInt64
	if !f.Since.IsZero() {
		since = int64(math.Ceil(toEpoch(f.Since)))
	}
	if !f.Until.IsZero() {
		until = int64(math.Ceil(toEpoch(f.Until)))
	}

	// Which messages hold the query's words in order, before scoring: it
	// is part of a message's value.
	var inOrder map[int64]bool
	if len(phrase) >= 2 {
		if inOrder, err = phraseMessages(ix, phrase, docs, kept); err != nil {
			return res, err
		}
	}
	sc := plainPass{ps: ps, docs: docs, ix: ix, of: of, at: at, meta: meta,
		since: since, until: until, inOrder: inOrder}
	// Every matching message is scored once, into its session's key; no
	// message is kept (a common word has hundreds of thousands): the listed
	// sessions' messages are gathered again below, for those sessions only.
	accs, touched, total := sc.sessions(titleMask, pq.Date)
	res.Matches = total
	if len(touched) == 0 {
		return res, errNoWordRows // no message holds a word: searchPlain looks at titles
	}
	// Sessions in key order: the best few hundred first (most queries list
	// from those), all of them only when the filters pass too few. Kept
	// as plain values (tens of thousands for a common word): nothing here
	// for the collector to scan.
	all := make([]sessRank, len(touched))
	for i, o := range touched {
		a := &accs[o]
		all[i] = sessRank{o: o, count: int(a.count), oldest: a.oldest, mask: a.mask, key: ps.key(a)}
	}
	accs, touched = nil, nil
	better := func(a, b sessRank) bool { return a.key.cmp(b.key) < 0 }
	if head := 4 * plainListed; len(all) > head {
		best := topN(all, head, better)
		inHead := make(map[int32]bool, head)
		for _, r := range best {
			inHead[r.o] = true
		}
		rest := slices.DeleteFunc(all, func(r sessRank) bool { return inHead[r.o] })
		all = append(best, rest...)
	} else {
		slices.SortFunc(all, func(a, b sessRank) int { return a.key.cmp(b.key) })
	}
	sorted := min(len(all), 4*plainListed)
	var sess []*plainSess // sess[i] is all[i]'s, made when its rows are gathered

	// List the best sessions that pass the filters, in key order.
	filter, fargs := s.filterSQL(f)
	var listed []*plainSess
	shown, most := 0, plainListed
	if f.SessionLimit > 0 {
		most = min(most, f.SessionLimit)
	}
	for next := 0; next < len(all) && len(listed) < most && shown < f.Limit; {
		if next >= sorted {
			slices.SortFunc(all[next:], func(a, b sessRank) int { return a.key.cmp(b.key) })
			sorted = len(all)
		}
		end, rows := next, 0
		for end < min(len(all), max(sorted, next+1)) && end-next < batchSessions(most-len(listed)) && rows < 2000 {
			rows += all[end].count
			end++
		}
		if end > len(sess) {
			// One pass gathers the rows of every session sorted so far (the
			// head: most queries list from it), or of the next batch.
			from, upTo := len(sess), max(end, min(sorted, len(all)))
			for _, r := range all[from:upTo] {
				sess = append(sess, &plainSess{sessRank: r})
			}
			sc.gather(sess[from:upTo], len(meta))
		}
		batch := sess[next:end]
		if err := s.readPlainSessions(c, batch, meta, filter, fargs); err != nil {
			return res, err
		}
		for _, se := range batch {
			if len(se.hits) > 0 && len(listed) < most {
				listed = append(listed, se)
				shown += len(se.hits)
			}
		}
		next = end
	}
	return s.plainHits(c, res, listed, pq, hq, f)
}

// phraseMessages returns messages that hold the phrase itself, its tokens
// toks one after another, as an FTS5 phrase query matches them, read from
// the position lists: every such message among those holding every word
// of docs (it may return others). Doclists already read with their
// positions are known; the other tokens' are read for the messages holding
// every word only.
func phraseMessages(ix *ftsIndex, toks []string, docs [][]fts5idx.Posting, known map[string]fts5idx.Doclist) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(toks) < 2 {
		return out, nil
	}
	lists := make([]fts5idx.Doclist, len(toks))
	var only func(id int64) bool
	for i, tok := range toks {
		if d, ok := known[tok]; ok {
			lists[i] = d
			continue
		}
		if only == nil {
			rows := intersectRows(docs)
			if len(rows) == 0 {
				return out, nil
			}
			lo := rows[0]
			in := make([]bool, rows[len(rows)-1]-lo+1)
			for _, id := range rows {
				in[id-lo] = true
			}
			only = func(id int64) bool { return id >= lo && id-lo < int64(len(in)) && in[id-lo] }
		}
		var err error
		if lists[i], err = fts5idx.PostingsOf(ix.src, ix.st, append([]byte{fts5idx.Main}, tok...), false, true, only); err != nil {
			return nil, indexErr(err)
		}
		defer lists[i].Recycle() // read for these messages only
	}
	for _, p := range phraseRows(lists, 0, false, nil) {
		if only == nil || only(p.Rowid) {
			out[p.Rowid] = true
		}
	}
	return out, nil
}

// readPlainSessions reads each session's matching messages that pass the
// filters, best first, at most plainSessionHits; errStaleMap when one's
// session or title differs from the map's.
func (s *Store) readPlainSessions(c *conn, batch []*plainSess, meta []sessionMeta, filter string, fargs []any) error {
	var args []any
	bySess := map[int64]*plainSess{}
	for _, se := range batch {
		for _, r := range se.rows {
			args = append(args, r.id)
			bySess[r.id] = se
		}
	}
	sql := "SELECT " + s.hitColumns("''", "0") + " FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id IN (" +
		sqlutil.Placeholders(len(args)) + ") AND " + filter
	stale := false
	err := c.query(sql, append(args, fargs...), func(st stmtRow) error {
		h := scanHit(st, IndexUnicode61)
		if se := bySess[h.MessageID]; se != nil {
			if md := meta[se.o]; h.SessionID != md.id || (s.layout.sessionCols["title"] && h.SessionTitle != md.title) {
				stale = true
			}
			h.Rank = -se.value(h.MessageID)
			se.hits = append(se.hits, h)
		}
		return nil
	})
	for _, se := range batch {
		// Best first, newer first among equals: as they are listed.
		slices.SortFunc(se.hits, func(a, b Hit) int {
			if c := cmpFloatDesc(-a.Rank, -b.Rank); c != 0 {
				return c
			}
			return cmp.Compare(b.MessageID, a.MessageID)
		})
		if len(se.hits) > 0 {
			se.hits[0].SessionHits = len(se.hits)
		}
		se.hits = se.hits[:min(len(se.hits), plainSessionHits)]
	}
	if err == nil && stale {
		err = errStaleMap
	}
	return err
}

// plainHits lays the ranked sessions out as hits: each session's messages,
// best first, its best one with a snippet marking hq (the plain query's forms).
func (s *Store) plainHits(c *conn, res SearchResult, listed []*plainSess, pq query.Plain, hq query.Parsed, f SearchFilter) (SearchResult, error) {
	var bestIDs []any
	shown := 0
	for _, se := range listed {
		if shown >= f.Limit {
			break
		}
		bestIDs = append(bestIDs, se.hits[0].MessageID)
		shown += len(se.hits)
	}
	texts := map[int64]string{}
	if err := snippetTexts(c, bestIDs, func(id int64, text string) { texts[id] = text }); err != nil {
		return res, err
	}
	for _, se := range listed {
		var matched []string
		for j, w := range pq.Words {
			if se.mask&(1<<j) != 0 {
				matched = append(matched, w.Text)
			}
		}
		for k, h := range se.hits {
			if len(res.Hits) >= f.Limit {
				return res, nil
			}
			if k == 0 {
				h.Snippet = goSnippet(texts[h.MessageID], hq)
			}
			h.Matched = matched
			res.Hits = append(res.Hits, h)
		}
	}
	return res, nil
}

// batchSessions is how many sessions one read of their messages takes when
// want more are to be listed: a few more than that, for those the filters
// reject (a session of tool output only, say), in one statement.
func batchSessions(want int) int {
	return min(64, want+want/4+2)
}
