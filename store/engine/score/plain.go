package score

import (
	"math"
	"math/bits"

	"github.com/recall-dev/recall/store/fts5idx"
)

// Session score weights. A session's score (Plain.Session: collect's
// ranking over every match, and the bounded path's) adds up, each per unit of idf of the
// query words named: its title's words (TitleWeight), every distinct word
// it holds (CoverageWeight), the words its fullest message holds, title
// included (FullestWeight: the words together in one message, where
// coverage alone says only that a long transcript holds them somewhere),
// and its best messages' values weighted 1, 1/2 ... 1/MaxSessionRows.
// Measured on coding-dev's and LoCoMo's development halves (BENCHMARKS.md):
// ordering first by one message holding every word, or weighing coverage
// 1.5, let long transcripts with large tool outputs, which hold nearly
// every word, outrank the session whose text holds them together.
const (
	CoverageWeight = 0.5 // per unit of idf of a distinct word the session holds
	FullestWeight  = 1.0 // per unit of idf of the words its fullest message holds
	TitleWeight    = 2.0 // extra per unit of idf of a word in the title
	FirstPromptMul = 1.5 // the first prompt's row score counts this many times
	PhraseWeight   = 1.0 // per unit of idf of the query, for its words in order in a row
	// ToolOutputMul: a tool output's row value counts this many times in
	// the second phase (collect.Ranking.Rescore), where the best sessions'
	// rows have their role read; 0.4 to 0.7 measure alike.
	ToolOutputMul = 0.55
	// AssistantMul: in a session with tool output among its best rows
	// (an agent's transcript), the assistant's row value counts this many
	// times in the second phase, as ToolOutputMul: the agent's own account
	// (what it found, what it changed) over a neighbour's issue text that
	// merely shares the vocabulary. Only there: where no tool ran (a chat,
	// LoCoMo's two people) the roles are two people and weigh alike.
	AssistantMul = 1.35
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

// Weigh is w times the idf of each word in the mask m (its set bits only:
// it is asked per matching message, which holds few of a long question's
// words).
func (p Plain) Weigh(m uint64, w float64) float64 {
	var sc float64
	for m &= uint64(1)<<p.N - 1; m != 0; m &= m - 1 {
		sc += w * p.IDF[bits.TrailingZeros64(m)]
	}
	return sc
}

// Session is a session's score under the weights above: tmask, mask and
// fullest are the words of its title, of all of it (title included) and of
// its fullest message (with the title); best, its messages' values, best
// first (those past MaxSessionRows do not count).
func (p Plain) Session(tmask, mask, fullest uint64, best []float64) float64 {
	sc := p.Weigh(tmask, TitleWeight) + p.Weigh(mask, CoverageWeight) + p.Weigh(fullest, FullestWeight)
	for i, v := range best[:min(len(best), MaxSessionRows)] {
		sc += v / float64(i+1)
	}
	return sc
}

// PlainIDF is a plain query word's idf, in df of rows rows; floored at
// 0.05, so a word in most messages still counts a little.
func PlainIDF(rows, df float64) float64 {
	return math.Max(math.Log((rows-df+0.5)/(df+0.5)), 0.05)
}

// RowRole is a row's role as the second phase weighs it.
type RowRole uint8

const (
	RoleTool      RowRole = 1 + iota // tool output, or a user-role row the agent program wrote
	RoleAssistant                    // the assistant's
)

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
