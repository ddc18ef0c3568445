package ui

import (
	"time"

	"github.com/recall-dev/recall/store"
)

// Every message the TUI sends itself. Results carry the request id (seq) of
// the action that asked for them, so superseded answers are dropped.

// resultsMsg carries the session list for one query (or browse) request.
type resultsMsg struct {
	seq     uint64
	phase   store.Phase // PhaseFirst: instant recency hits; PhaseFinal: bm25-ranked
	browse  bool        // the empty query: recent sessions
	query   string
	items   []Item
	index   store.Index
	elapsed time.Duration
	chips   string // how a plain query was read: date, typo, words matched (searchChips)
	err     error
}

// transcriptLoadMsg fires after the selection settled; it starts the load if
// the selection is still the same.
type transcriptLoadMsg struct{ seq uint64 }

// transcriptMsg carries a session's rendered transcript.
type transcriptMsg struct {
	seq  uint64
	doc  transcriptDoc
	msgs []store.Message // what was rendered, kept for re-renders
	err  error
}

// summaryTickMsg is the ~30 fps frame clock of a streaming summary.
type summaryTickMsg struct{ seq uint64 }

// summaryRenderedMsg carries a rendered frame of the summary panel.
type summaryRenderedMsg struct {
	seq     uint64
	version uint64   // stream version the frame shows
	final   bool     // the full render after the stream ended
	lines   []string // fitted to the panel width
}

// summaryDoneMsg says the summary stream ended (finished or cancelled).
type summaryDoneMsg struct{ seq uint64 }

// statusMsg shows a transient line in the status bar.
type statusMsg struct {
	text string
	err  bool
}

// statusExpireMsg clears the transient status line if it is still the one with id.
type statusExpireMsg struct{ id uint64 }

// execDoneMsg reports an external program (agent, pager) that returned.
type execDoneMsg struct {
	what string
	err  error
}
