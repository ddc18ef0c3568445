package ui

import (
	"context"
	"time"

	"github.com/recall-dev/recall/store"
)

// Backend is everything the TUI asks of the rest of recall: the recall
// pipeline (search, browse, summaries) and the store's read side (a session's
// transcript). EngineBackend adapts the real recall.Engine and store.Store;
// tests use a fake. Every method may block on I/O and is only ever called
// from a tea.Cmd, never from Update or View.
type Backend interface {
	// Discover searches as you type and groups hits into sessions.
	Discover(ctx context.Context, req SearchRequest) (Discovery, error)
	// Browse lists recent sessions for the empty query.
	Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error)
	// Transcript reads a session and its visible messages.
	Transcript(ctx context.Context, sessionID string) (store.Session, []store.Message, error)
	// Summarize streams summaries of items; onEvent may be called from
	// several goroutines at once. It returns when every summary is done or
	// ctx is cancelled.
	Summarize(ctx context.Context, query string, items []Item, onEvent func(SummaryEvent))
	// HasModel reports whether a language model is configured (else
	// summaries are extractive).
	HasModel() bool
}

// SearchRequest is one as-you-type query.
type SearchRequest struct {
	Query  string
	Filter store.SearchFilter // Typing and Phase are set by the UI
	Limit  int                // sessions wanted
}

// Discovery is the answer to a SearchRequest.
type Discovery struct {
	Index   store.Index
	Elapsed time.Duration
	Items   []Item
}

// Item is one row of the session list, from a search hit or from browsing.
type Item struct {
	SessionID      string
	RootID         string
	Title          string
	Source         string
	Model          string
	When           time.Time
	Messages       int    // message count (browse), 0 when unknown
	Hits           int    // hits in the session's lineage (search)
	MatchedRole    string // role of the best hit
	MatchMessageID int64  // the best hit, where the detail pane scrolls to
	Snippet        string // best snippet, matches between highlight markers
	Preview        string // first user message (browse)
	Cwd            string
	// HitIDs are the message ids of the hits counted in Hits, best first.
	HitIDs []int64
	// Parsed is the query as the search that found the row parsed it (what
	// the detail pane and the summary highlight).
	Parsed store.Query
	// Ref is the backend's own value for this row (a recall.Result), handed
	// back to Summarize untouched.
	Ref any
}

// SummaryKind says where a summary came from.
type SummaryKind string

// The kinds of summary the pipeline produces.
const (
	SummaryModel      SummaryKind = "model"       // written by the configured model
	SummaryExtractive SummaryKind = "extractive"  // offline: picked sentences, no model
	SummaryRawPreview SummaryKind = "raw-preview" // the model failed; the evidence itself
)

// SummaryEvent is one step of a streaming summary.
type SummaryEvent struct {
	Index     int // position among the items being summarised
	SessionID string
	Delta     string // new text (model summaries stream; fallbacks arrive whole)
	Done      bool
	// Set when Done:
	Text   string
	Kind   SummaryKind
	Reason string // why a fallback was used
	Model  string
}
