package score

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/query"
)

// Ranking broad queries.
//
// FTS5's bm25() needs each phrase's document frequency, and it gets it by
// walking the phrase's whole doclist once per query (fts5Bm25GetData ->
// xQueryPhrase): O(matches), whatever LIMIT or rowid bound the query has. On
// a stopword or a one-letter prefix over a million messages that walk alone
// takes longer than a keystroke may. So when a query has more than
// pipeline.RankCandidates matches, recall takes the newest of them (a
// lazy newest-first read) and scores those in Go with the same Okapi BM25
// formula FTS5 uses (k1=1.2, b=0.75), estimating each term's document
// frequency from its density among the candidates. Queries with fewer matches
// use FTS5's own rank, exactly.

// Candidate is one row scored in Go: its hit, its text and its score.
type Candidate struct {
	Hit   engine.Hit
	Text  string
	Score float64
}

// RankTerm is one query word as the Go scorer matches it.
type RankTerm struct {
	text   string // lower-cased
	prefix bool
	df     float64
}

// RankTerms are q's positive words, as the Go scorer matches them.
func RankTerms(q query.Parsed) []RankTerm {
	var out []RankTerm
	for _, t := range q.PositiveTerms() {
		for _, w := range analysis.WordRuns(strings.ToLower(t.Text)) {
			out = append(out, RankTerm{text: w, prefix: t.Prefix})
		}
	}
	return out
}

// termFreqs counts, per term, its occurrences in text: whole words (or word
// prefixes) for the unicode61 index, substrings for trigram and CJK.
func termFreqs(text string, terms []RankTerm, substring bool) (tf []float64, dl float64) {
	tf = make([]float64, len(terms))
	lower := strings.ToLower(text)
	if substring {
		for i, t := range terms {
			tf[i] = float64(strings.Count(lower, t.text))
		}
		return tf, float64(utf8.RuneCountInString(lower))/4 + 1
	}
	words := strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	for _, w := range words {
		for i, t := range terms {
			if w == t.text || (t.prefix && strings.HasPrefix(w, t.text)) {
				tf[i]++
			}
		}
	}
	return tf, float64(len(words))
}

// Candidates fills each candidate's BM25 score and sorts best first.
// totalRows is the number of indexed rows; windowRows how many rows the
// candidates were drawn from (their id span), for the frequency estimate.
func Candidates(cands []Candidate, terms []RankTerm, substring bool, totalRows, windowRows float64) {
	if len(cands) == 0 || len(terms) == 0 {
		return
	}
	tfs := make([][]float64, len(cands))
	dls := make([]float64, len(cands))
	var sumDL float64
	docs := make([]float64, len(terms))
	for i := range cands {
		tfs[i], dls[i] = termFreqs(cands[i].Text, terms, substring)
		sumDL += dls[i]
		for j, f := range tfs[i] {
			if f > 0 {
				docs[j]++
			}
		}
	}
	avgDL := sumDL / float64(len(cands))
	if windowRows < float64(len(cands)) {
		windowRows = float64(len(cands))
	}
	idf := make([]float64, len(terms))
	for j := range terms {
		df := docs[j] / windowRows * totalRows
		if df < docs[j] {
			df = docs[j]
		}
		// FTS5: idf = log((N - n + 0.5) / (n + 0.5)), floored at a tiny positive value.
		idf[j] = math.Log((totalRows - df + 0.5) / (df + 0.5))
		if idf[j] <= 0 {
			idf[j] = 1e-6
		}
	}
	for i := range cands {
		var s float64
		for j, f := range tfs[i] {
			if f == 0 {
				continue
			}
			s += idf[j] * f * (K1 + 1) / (f + K1*(1-B+B*dls[i]/avgDL))
		}
		cands[i].Score = s
		cands[i].Hit.Rank = -s
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].Score > cands[b].Score })
}
