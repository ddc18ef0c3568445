package score

import (
	"math"

	"github.com/recall-dev/recall/store/fts5idx"
)

// Session score weights.
const (
	CoverageWeight = 1.5 // per unit of idf of a distinct word the session holds
	TitleWeight    = 2.0 // extra per unit of idf of a word in the title
	FirstPromptMul = 2.0 // the first prompt's row score counts this many times
	PhraseWeight   = 1.0 // per unit of idf of the query, for its words in order in a row
	// MaxSessionRows: the best rows of a session that count (1, 1/2, ...
	// 1/5): past a few, more mentions say length, not topic.
	MaxSessionRows = 5
)

// Plain holds a plain query's weights: per word its idf, the mask of
// every word, and the in-order bonus.
type Plain struct {
	N           int
	IDF         []float64
	Full        uint64
	PhraseBonus float64
}

// Weigh is w times the idf of each word in the mask m.
func (p Plain) Weigh(m uint64, w float64) float64 {
	var sc float64
	for j := 0; j < p.N; j++ {
		if m&(1<<j) != 0 {
			sc += w * p.IDF[j]
		}
	}
	return sc
}

// PlainIDF is a plain query word's idf, in df of rows rows; floored at
// 0.05, so a word in most messages still counts a little.
func PlainIDF(rows, df float64) float64 {
	return math.Max(math.Log((rows-df+0.5)/(df+0.5)), 0.05)
}

// NewPlain weighs a plain query's words, read in docs, over an index of
// rows rows; with a phrase, a message holding the words in order earns the
// query's whole idf once more.
func NewPlain(docs [][]fts5idx.Posting, rows float64, phrase bool) Plain {
	n := len(docs)
	ps := Plain{N: n, IDF: make([]float64, n), Full: uint64(1)<<n - 1}
	for i, d := range docs {
		df := float64(len(d))
		ps.IDF[i] = PlainIDF(rows, df)
	}
	if phrase {
		ps.PhraseBonus = PhraseWeight * ps.Weigh(ps.Full, 1)
	}
	return ps
}
