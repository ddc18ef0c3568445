package store

import (
	"strings"
	"unicode/utf8"
)

// Typos in a plain query.
//
// A content word that matches nothing at all ("dokcer") is most often a
// typo. Its one-edit neighbours (a letter dropped, doubled, swapped or
// replaced) are looked up in the index, and the one with the most matches
// replaces it; SearchResult.Suggestion says so, so the answer never
// pretends the typed word was found.

// maxTypoWords is how many words with no hits one query may have corrected.
const maxTypoWords = 3

// minTypoRunes: shorter words have too many neighbours that are words.
const minTypoRunes = 4

// correctTypos replaces words with no rows (ids[i] empty) by their best
// one-edit neighbour in the index, refreshing ids; note lists the changes.
func (s *Store) correctTypos(c *conn, pq *plainQuery, ids [][]int64) (fixed bool, note string, err error) {
	var notes []string
	for i, w := range pq.words {
		if len(notes) >= maxTypoWords {
			break
		}
		lw := strings.ToLower(w.text)
		if len(ids[i]) > 0 || w.prefix || utf8.RuneCountInString(lw) < minTypoRunes || !isASCIIWord(lw) {
			continue
		}
		best, err := s.bestNeighbour(c, edits1(lw))
		if err != nil {
			return false, "", err
		}
		if best == "" {
			continue
		}
		pq.words[i] = plainWord{text: best, forms: inflections(best)}
		if ids[i], err = s.wordRows(c, wordExpr(pq.words[i])); err != nil {
			return false, "", err
		}
		notes = append(notes, w.text+" → "+best)
	}
	if len(notes) == 0 {
		return false, "", nil
	}
	return true, "no match for a word, searched instead: " + strings.Join(notes, ", "), nil
}

// bestNeighbour returns the candidate word with the most matches (up to a
// bound), "" when none is in the index. One statement asks the index for
// every candidate; only the few that exist are counted.
func (s *Store) bestNeighbour(c *conn, cands []string) (string, error) {
	if len(cands) == 0 {
		return "", nil
	}
	args := make([]any, len(cands))
	for i, w := range cands {
		args[i] = quoteFTS(w)
	}
	sql := "SELECT v.column1 FROM (VALUES " + strings.TrimSuffix(strings.Repeat("(?),", len(cands)), ",") +
		") v WHERE EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH v.column1)"
	var found []string
	if err := c.query(sql, args, func(st stmtRow) error {
		found = append(found, st.ColumnText(0))
		return nil
	}); err != nil {
		return "", err
	}
	best, bestN := "", int64(-1)
	for _, q := range found {
		n, _, err := c.scalarInt("SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT 1000)", q)
		if err != nil {
			return "", err
		}
		if n > bestN {
			best, bestN = q, n
		}
	}
	return strings.Trim(best, `"`), nil
}

// edits1 are the words one edit away from w (a-z): deletions,
// transpositions, replacements and insertions, each once.
func edits1(w string) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	seen := map[string]bool{w: true}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i < len(w); i++ {
		add(w[:i] + w[i+1:])
		if i+1 < len(w) {
			add(w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:])
		}
	}
	for i := 0; i <= len(w); i++ {
		for _, l := range letters {
			if i < len(w) {
				add(w[:i] + string(l) + w[i+1:])
			}
			add(w[:i] + string(l) + w[i:])
		}
	}
	return out
}
