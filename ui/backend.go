package ui

import (
	"context"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// Backend is everything the TUI asks of the rest of recall, in recall's own
// types: the recall pipeline (search, browse, summaries) and the store's read
// side (a session's transcript, the sources present). EngineBackend adapts
// the real recall.Engine and store.Store; tests use a fake. Every method may
// block on I/O and is only ever called from a tea.Cmd, never from Update or
// View.
type Backend interface {
	// Discover searches as you type and groups hits into sessions; the
	// engine decides how many (the list shows what it returns).
	Discover(ctx context.Context, query string, f store.SearchFilter) (*recall.Discovery, error)
	// Browse lists recent sessions for the empty query (o.Limit 0: as many
	// as Discover returns).
	Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error)
	// Transcript reads a session and its visible messages.
	Transcript(ctx context.Context, sessionID string) (store.Session, []store.Message, error)
	// Sources lists the sources the database holds, for the source filter.
	Sources(ctx context.Context) ([]string, error)
	// Summarize streams summaries of results; onEvent may be called from
	// several goroutines at once. It returns when every summary is done or
	// ctx is cancelled.
	Summarize(ctx context.Context, query string, results []recall.Result, onEvent func(recall.SummaryEvent))
	// HasModel reports whether a language model is configured (else
	// summaries are extractive).
	HasModel() bool
}

// Item is one row of the session list: a search result as recall found it,
// or a browsed session, whose Result names the session only (that is what
// Summarize needs to read it in full) and whose Preview and Messages come
// from the session row.
type Item struct {
	recall.Result
	Preview  string // first user message (browse)
	Messages int    // message count (browse), 0 when unknown
	// Words are the plain query's words (search), for the row's "matched 2
	// of 3 words" as `recall search` prints it; nil for FTS5 syntax.
	Words []string
}

// searchItems wraps a discovery's results as list rows.
func searchItems(d *recall.Discovery) []Item {
	items := make([]Item, len(d.Results))
	for i, r := range d.Results {
		// Named like a browse row: an untitled session by its first prompt.
		items[i] = Item{Result: r, Preview: r.FirstPrompt(), Words: d.Words}
	}
	return items
}

// browseItem is the list row of a recent session.
func browseItem(s store.SessionSummary) Item {
	return Item{Result: recall.Result{SessionID: s.ID, RootID: s.ID, When: s.LastActive, Source: s.Source,
		Model: s.Model, Title: s.Title}, Preview: s.Preview, Messages: s.MessageCount}
}

// results returns the recall results behind items, for Summarize.
func results(items []Item) []recall.Result {
	out := make([]recall.Result, len(items))
	for i, it := range items {
		out[i] = it.Result
	}
	return out
}

// searchChips are the status line's chips for a plain query: the date it
// named (a filter chip), the typo it replaced, and how many of its words
// the top session holds when not all; and the store's notice (a ranking
// over part of the matches, a query cut down) for any query.
func searchChips(d *recall.Discovery) string {
	var chips []string
	if d.DateFilter != "" {
		chips = append(chips, "date:"+d.DateFilter)
	}
	if d.Suggestion != "" {
		// The words `recall search` uses: "searched instead: dokcer → docker".
		_, fix, _ := strings.Cut(d.Suggestion, ": ")
		chips = append(chips, "searched instead: "+fix)
	}
	if len(d.Results) > 0 && len(d.Results[0].Matched) < len(d.Words) {
		// Said only when the best session lacks some words: the status
		// line is narrow, and "all of them" is what a search means. The
		// words are the list rows' and `recall search`'s (MatchedText).
		if m := recall.MatchedText(d.Results[0].Matched, d.Words); m != "" {
			chips = append(chips, "top "+m)
		}
	}
	if d.Notice != "" {
		// Why the answer may be short or ranked over part of the matches.
		chips = append(chips, d.Notice)
	}
	return termtext.OneLine(termtext.Sanitize(strings.Join(chips, " · ")))
}
