// Package score turns postings into numbers: Okapi BM25 with FTS5's own
// inputs and formula (k1 = 1.2, b = 0.75, idf from a phrase's document
// frequency, a row's length against the table's average), the value of one
// message of a plain query (BM25 over its words, the words in order, the
// session's first prompt) and of a session (its words' rarity, its title,
// its best messages), and the bounded paths' estimates. It takes postings
// and row lengths and gives scores; which rows are kept is collect's.
package score

import (
	"math"

	"github.com/recall-dev/recall/store/engine/postings"
)

// BM25's parameters, FTS5's.
const (
	K1 = 1.2
	B  = 0.75
)

// Norm is one table's row lengths and average, which normalise the bm25
// contributions of the phrases read from it.
type Norm struct {
	Lens  []uint32
	AvgDL float64
}

// At is BM25's length normalisation of row id, k1 (1 - b + b dl/avgdl),
// as FTS5 computes it (a row not cached yet: the average length).
func (t Norm) At(id int64) float64 {
	d := t.AvgDL
	if id >= 0 && id < int64(len(t.Lens)) {
		d = float64(t.Lens[id])
	}
	return K1 * (1 - B + B*d/t.AvgDL)
}

// IDF is FTS5's idf of a phrase in n of rows rows, floored at a tiny
// positive value.
func IDF(rows, n float64) float64 {
	idf := math.Log((rows - n + 0.5) / (n + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	return idf
}

// Term is one phrase's BM25 contribution to a row that holds it tf times.
func Term(idf, tf, norm float64) float64 {
	return idf * tf * (K1 + 1) / (tf + norm)
}

// Weights is what BM25 needs of the phrases of a match: each one's idf,
// from its document frequency in its table, and each table's row lengths.
type Weights struct {
	IDF   []float64
	Group []int  // phrase i is normalised by Norms[Group[i]]; nil: all by Norms[0]
	Norms []Norm // per table the phrases were read from
}

// WeightsOf weighs the phrases of r.
func WeightsOf(r *postings.Matches) Weights {
	w := Weights{IDF: make([]float64, len(r.Phrases)), Group: r.Group, Norms: make([]Norm, len(r.Tables))}
	for g, ix := range r.Tables {
		w.Norms[g] = Norm{Lens: ix.Lens(), AvgDL: ix.AvgDL()}
	}
	for i := range r.Phrases {
		g := 0
		if r.Group != nil {
			g = r.Group[i]
		}
		w.IDF[i] = IDF(r.Tables[g].Rows(), float64(r.DF[i]))
	}
	return w
}
