package ui

import (
	"context"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TranscriptStore is the store's read side the detail pane, the source
// filter and the refresh on outside writes use. *store.Store satisfies it.
type TranscriptStore interface {
	Session(ctx context.Context, id string) (store.Session, error)
	Messages(ctx context.Context, sessionID string) ([]store.Message, error)
	Sources(ctx context.Context) ([]string, error)
	ChangeToken(ctx context.Context) (string, error)
	RunningImport(ctx context.Context) (store.ImportProgress, bool, error)
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

// Discover runs recall's phase 1. The TUI never reads a result's evidence
// (the list shows the snippet, the detail pane the whole transcript, and
// Summarize reads the session in full), so it is never fetched: three store
// reads per result saved on every keystroke's ranked phase.
func (b *EngineBackend) Discover(ctx context.Context, query string, f store.SearchFilter) (*recall.Discovery, error) {
	return b.Engine.Discover(ctx, query, recall.DiscoverOptions{Filter: f, SkipEvidence: true})
}

// RunningImport is the progress of an import another process is running
// into this database, if any.
func (b *EngineBackend) RunningImport(ctx context.Context) (store.ImportProgress, bool, error) {
	return b.Store.RunningImport(ctx)
}

// ChangeToken changes whenever another process writes sessions or messages.
func (b *EngineBackend) ChangeToken(ctx context.Context) (string, error) {
	return b.Store.ChangeToken(ctx)
}

// Browse lists recent sessions.
func (b *EngineBackend) Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	return b.Engine.Browse(ctx, o)
}

// Sources lists the sources present in the database.
func (b *EngineBackend) Sources(ctx context.Context) ([]string, error) {
	return b.Store.Sources(ctx)
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

// Summarize streams recall's phase 2.
func (b *EngineBackend) Summarize(ctx context.Context, query string, results []recall.Result, onEvent func(recall.SummaryEvent)) {
	b.Engine.Summarize(ctx, query, results, onEvent)
}

// HasModel reports whether summaries come from a model.
func (b *EngineBackend) HasModel() bool { return b.Engine.HasModel() }

// ShortIDs are the sessions' short ids, when the store knows them
// (ShortIDBackend).
func (b *EngineBackend) ShortIDs(ctx context.Context, ids []string) (map[string]string, error) {
	if s, ok := b.Store.(ShortIDBackend); ok {
		return s.ShortIDs(ctx, ids)
	}
	return nil, nil
}

// SourceGone lists the sessions whose source files are gone, when the
// store knows (GoneBackend).
func (b *EngineBackend) SourceGone(ctx context.Context) (map[string]bool, error) {
	if g, ok := b.Store.(GoneBackend); ok {
		return g.SourceGone(ctx)
	}
	return nil, nil
}

// SessionHosts maps sessions synced from another machine to its name, when
// the store knows (HostsBackend).
func (b *EngineBackend) SessionHosts(ctx context.Context) (map[string]string, error) {
	if h, ok := b.Store.(HostsBackend); ok {
		return h.SessionHosts(ctx)
	}
	return nil, nil
}
