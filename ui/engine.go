package ui

import (
	"context"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TranscriptStore is the store's read side the detail pane (and the
// refresh on outside writes) uses.
// *store.Store satisfies it.
type TranscriptStore interface {
	Session(ctx context.Context, id string) (store.Session, error)
	Messages(ctx context.Context, sessionID string) ([]store.Message, error)
	ChangeToken(ctx context.Context) (string, error)
}

// EngineBackend is the Backend of the real program: the recall pipeline for
// search, browse and summaries, and the store for transcripts.
type EngineBackend struct {
	Engine *recall.Engine
	Store  TranscriptStore
}

// NewEngineBackend returns the Backend over a recall engine and its store.
func NewEngineBackend(e *recall.Engine, st TranscriptStore) *EngineBackend {
	return &EngineBackend{Engine: e, Store: st}
}

// Discover runs recall's phase 1 and turns its results into list rows.
func (b *EngineBackend) Discover(ctx context.Context, req SearchRequest) (Discovery, error) {
	d, err := b.Engine.Discover(ctx, req.Query, recall.DiscoverOptions{Limit: req.Limit, Filter: req.Filter,
		SkipEvidence: req.Filter.Phase == store.PhaseFirst})
	if err != nil {
		return Discovery{}, err
	}
	out := Discovery{Index: d.Index, Elapsed: d.Elapsed, Items: make([]Item, len(d.Results))}
	for i, r := range d.Results {
		out.Items[i] = Item{SessionID: r.SessionID, RootID: r.RootID, Title: r.Title, Source: r.Source,
			Model: r.Model, When: r.When, Hits: r.Hits, HitIDs: r.HitIDs, Parsed: r.Parsed, MatchedRole: r.MatchedRole,
			MatchMessageID: r.MatchMessageID, Snippet: r.Snippet, Ref: r}
	}
	return out, nil
}

// ChangeToken changes whenever another process writes sessions or messages.
func (b *EngineBackend) ChangeToken(ctx context.Context) (string, error) {
	return b.Store.ChangeToken(ctx)
}

// Browse lists recent sessions.
func (b *EngineBackend) Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	return b.Engine.Browse(ctx, o)
}

// Transcript reads a session and its messages.
func (b *EngineBackend) Transcript(ctx context.Context, id string) (store.Session, []store.Message, error) {
	sess, err := b.Store.Session(ctx, id)
	if err != nil {
		return store.Session{}, nil, err
	}
	msgs, err := b.Store.Messages(ctx, id)
	return sess, msgs, err
}

// Summarize streams recall's phase 2. Rows from browsing carry no evidence;
// they are summarised from a Result naming the session only, which the
// pipeline reads in full.
func (b *EngineBackend) Summarize(ctx context.Context, query string, items []Item, onEvent func(SummaryEvent)) {
	results := make([]recall.Result, len(items))
	for i, it := range items {
		if r, ok := it.Ref.(recall.Result); ok {
			results[i] = r
			continue
		}
		results[i] = recall.Result{SessionID: it.SessionID, RootID: it.RootID, When: it.When,
			Source: it.Source, Model: it.Model, Title: it.Title}
	}
	b.Engine.Summarize(ctx, query, results, func(ev recall.SummaryEvent) {
		out := SummaryEvent{Index: ev.Index, SessionID: ev.SessionID, Delta: ev.Delta, Done: ev.Done}
		if s := ev.Summary; s != nil {
			out.Text, out.Kind, out.Reason, out.Model = s.Text, SummaryKind(s.Kind), s.Reason, s.Model
		}
		onEvent(out)
	})
}

// HasModel reports whether summaries come from a model.
func (b *EngineBackend) HasModel() bool { return b.Engine.HasModel() }
