package pipeline

import (
	"strings"
	"unicode/utf8"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
)

// Typos in a plain query.
//
// A content word that matches nothing at all ("dokcer") is most often a
// typo. Its one-edit neighbours (a letter dropped, doubled, swapped or
// replaced) are looked up in the index, and the one with the most matches
// replaces it; engine.Result.Suggestion says so, so the answer never
// pretends the typed word was found.

// maxTypoWords is how many words with no hits one query may have corrected.
const maxTypoWords = 3

// maxTypoQueryWords: only a query of a few words has a typo looked for: in
// a long question, a word with no match is as likely a word nobody wrote.
const maxTypoQueryWords = 3

// minTypoRunes: shorter words have too many neighbours that are words.
const minTypoRunes = 4

// correctTypos replaces words with no rows (ids[i] empty) by their best
// one-edit neighbour in the index, refreshing ids; note lists the changes.
func (e *Engine) correctTypos(c engine.Conn, pq *query.Plain, ids [][]int64) (fixed bool, note string, err error) {
	if len(pq.Words) > maxTypoQueryWords || pq.TyposTried {
		return false, "", nil // a long question answers on its other words
	}
	var notes []string
	for i, w := range pq.Words {
		if len(notes) >= maxTypoWords {
			break
		}
		lw := strings.ToLower(w.Text)
		if len(ids[i]) > 0 || w.Prefix || utf8.RuneCountInString(lw) < minTypoRunes || !query.IsASCIIWord(lw) {
			continue
		}
		// Swapped and doubled letters are a few candidates; a letter
		// missed or mistyped is 50 per letter, each a doclist lookup (a
		// few hundred ms on a million messages): only when nothing else
		// of the query matched, the answer would otherwise be empty.
		cands := query.Edits1(lw, !noneMatched(ids))
		best, err := e.bestNeighbour(c, cands)
		if err != nil {
			return false, "", err
		}
		if best == "" {
			continue
		}
		pq.Words[i] = query.Word{Text: best, Forms: query.Inflections(best)}
		if ids[i], err = postings.WordRows(c, pq.Words[i].Expr()); err != nil {
			return false, "", err
		}
		notes = append(notes, w.Text+" → "+best)
	}
	if len(notes) == 0 {
		return false, "", nil
	}
	return true, "no match for a word, searched instead: " + strings.Join(notes, ", "), nil
}

// bestNeighbour returns the candidate word found most often in the
// newest rows holding any of them, "" when none is in the index. One FTS5
// query ORs every candidate (one statement instead of one probe each:
// 5x cheaper on a million messages) and the rows' words tell which matched.
func (e *Engine) bestNeighbour(c engine.Conn, cands []string) (string, error) {
	if len(cands) == 0 {
		return "", nil
	}
	set := make(map[string]bool, len(cands))
	parts := make([]string, len(cands))
	for i, w := range cands {
		set[w], parts[i] = true, query.QuoteFTS(w)
	}
	counts := map[string]int{}
	err := c.Query("SELECT "+engine.Haystack+" FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid"+
		" WHERE messages_fts MATCH ? ORDER BY messages_fts.rowid DESC LIMIT ?", []any{strings.Join(parts, " OR "), typoSampleRows},
		func(st *sqlite3.Stmt) error {
			for _, tok := range analysis.Tokens(analysis.DecodeContent(st.ColumnText(0))) {
				if set[tok] {
					counts[tok]++
				}
			}
			return nil
		})
	best := ""
	for _, w := range cands { // candidates in edit order: ties go to the likelier edit
		if counts[w] > counts[best] {
			best = w
		}
	}
	return best, err
}

// typoSampleRows is how many rows holding a candidate are read to choose one.
const typoSampleRows = 50

// noneMatched reports whether no word has a row.
func noneMatched(ids [][]int64) bool {
	for _, l := range ids {
		if len(l) > 0 {
			return false
		}
	}
	return true
}
