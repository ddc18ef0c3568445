package score

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
)

// The bounded paths' scoring: a plain query on a file whose index fts5idx
// cannot read is ranked from the newest postings.PerWord matches of each
// word and the best rows of those (store/engine/pipeline/bounded.go).

// Matcher tells which query words a token of text is.
type Matcher struct {
	forms    map[string]uint64 // form -> bitmask of words
	prefixes []string          // per word: the typed prefix, "" for none
	cjk      []string          // per word: a CJK word, counted as a substring; "" for none
}

// NewMatcher matches pq's words: each form, the typed prefix of a word
// still being typed, and a CJK word wherever it occurs (no space bounds it).
func NewMatcher(pq query.Plain) Matcher {
	m := Matcher{forms: map[string]uint64{}, prefixes: make([]string, len(pq.Words)), cjk: make([]string, len(pq.Words))}
	for i, w := range pq.Words {
		if w.CJK {
			m.cjk[i] = strings.ToLower(w.Text)
			continue
		}
		for _, f := range w.Forms {
			m.forms[f] |= 1 << i
		}
		if w.Prefix {
			m.prefixes[i] = strings.ToLower(w.Text)
		}
	}
	return m
}

// Count returns per word its occurrences in text (in tf), the mask of
// words present and the number of tokens.
func (m Matcher) Count(text string, tf []float64) (mask uint64, dl float64) {
	clear(tf)
	lower := strings.ToLower(text)
	for i, w := range m.cjk {
		if w != "" {
			if n := strings.Count(lower, w); n > 0 {
				tf[i] += float64(n)
				mask |= 1 << i
			}
		}
	}
	for _, tok := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
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

// RowScore is a row's score, the session's first prompt counting more.
func RowScore(c Candidate, first int64) float64 {
	if first != 0 && c.Hit.MessageID == first {
		return c.Score * FirstPromptMul
	}
	return c.Score
}

// Spans are message id ranges [lo, hi].
type Spans [][2]int64

// Pre is a matching row's pre-score: the idf of the distinct words it
// holds (with a date, plus the query's whole idf for rows of sessions of
// that time), then its BM25 from the index.
type Pre struct {
	ID        int64
	Cov, BM25 float64
}

// Better orders pre-scores best first: coverage, then BM25, then newest.
func (a Pre) Better(b Pre) bool {
	if a.Cov != b.Cov {
		return a.Cov > b.Cov
	}
	if a.BM25 != b.BM25 {
		return a.BM25 > b.BM25
	}
	return a.ID > b.ID
}

// PreScores scores every row that holds a word of w, in rowid order.
func PreScores(w postings.Words, idf []float64, sumIDF float64, spans Spans) []Pre {
	total := 0
	for _, d := range w.Docs {
		total += len(d)
	}
	out := make([]Pre, 0, total)
	cur := make([]int, len(w.Docs))
	avgdl := 1.0
	if w.Index != nil {
		avgdl = w.Index.AvgDL()
	}
	slices.SortFunc(spans, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	for {
		id := int64(math.MaxInt64)
		for i, d := range w.Docs {
			if cur[i] < len(d) && d[cur[i]].Rowid < id {
				id = d[cur[i]].Rowid
			}
		}
		if id == math.MaxInt64 {
			return out
		}
		p := Pre{ID: id}
		norm := 0.0
		if w.Index != nil {
			norm = K1 * (1 - B + B*w.Index.DL(id)/avgdl)
		}
		for i, d := range w.Docs {
			if cur[i] < len(d) && d[cur[i]].Rowid == id {
				p.Cov += idf[i]
				if w.Index != nil {
					tf := float64(d[cur[i]].Tf)
					p.BM25 += idf[i] * tf * (K1 + 1) / (tf + norm)
				}
				cur[i]++
			}
		}
		if spans.containSorted(id) {
			p.Cov += sumIDF
		}
		out = append(out, p)
	}
}

// containSorted reports whether id is in a range of spans sorted by their start.
func (sp Spans) containSorted(id int64) bool {
	i := sort.Search(len(sp), func(i int) bool { return sp[i][0] > id })
	for k := i - 1; k >= 0 && k >= i-8; k-- { // sessions' spans rarely overlap
		if id <= sp[k][1] {
			return true
		}
	}
	return false
}

// Rows scores each candidate with Okapi BM25 over the query's n words
// (idf, per word; the candidates' own average length), plus, for a row
// holding the query's words in order (phrase, stopwords included: "too
// many clients"), PhraseWeight x the query's idf (sumIDF). It returns the
// words each row holds.
func Rows(cands []Candidate, wm Matcher, n int, idf []float64, sumIDF float64, phrase string) []uint64 {
	tfs := make([][]float64, len(cands))
	rowMask := make([]uint64, len(cands))
	dls := make([]float64, len(cands))
	var sumDL float64
	for i := range cands {
		tfs[i] = make([]float64, n)
		rowMask[i], dls[i] = wm.Count(cands[i].Text, tfs[i])
		sumDL += dls[i]
	}
	avgDL := max(sumDL/float64(len(cands)), 1)
	for i := range cands {
		var sc float64
		for j, tf := range tfs[i] {
			if tf > 0 {
				sc += idf[j] * tf * (K1 + 1) / (tf + K1*(1-B+B*dls[i]/avgDL))
			}
		}
		if phrase != "" && strings.Contains(" "+strings.Join(analysis.Tokens(cands[i].Text), " ")+" ", " "+phrase+" ") {
			sc += PhraseWeight * sumIDF
		}
		cands[i].Score = sc
		cands[i].Hit.Rank = -sc
	}
	return rowMask
}
