// Package recall is the session-level search: Hermes Agent's two-phase
// session_search, rebuilt so that each phase is useful on its own.
//
//	phase 1  Discover   FTS5 hits (store.SearchMessages, 300 rows)
//	                    -> title match first, hidden sources out, cron demoted
//	                    -> lineage roots (parent_session_id), current lineage out
//	                    -> first best-ranked hit per root, top N
//	                    -> anchored evidence: ±5 messages + 3 bookends each end
//	         (milliseconds, no model: the answer an agent or a user can act on at once)
//	phase 2  Summarize  transcript of the hit session ([USER]/[ASSISTANT]/[TOOL:x], ids #123)
//	                    -> matchWindow: cut to the character budget around the
//	                       query's positive words, as the store parsed them
//	                       (Hermes's _truncate_around_matches)
//	                    -> N summaries concurrently under a semaphore, streamed
//	                       delta by delta through a callback; the model cites ids
//	                    -> per-session fallbacks: extractive (no model configured)
//	                       or raw preview (the model failed); never an error
//
// Hermes dropped its model step because it was slow, costly and could
// confabulate (spec §7.1). Here the evidence arrives first and stays beside
// the summary, summaries stream, and the model is asked to cite message ids
// that the reader can check against that evidence.
package recall

import (
	"context"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/store"
)

// Store is what recall needs from the database; *store.Store satisfies it.
// It is an interface so that the pipeline's contract with the store is
// written down in one place.
type Store interface {
	SearchMessages(ctx context.Context, query string, f store.SearchFilter) (store.SearchResult, error)
	SessionByTitle(ctx context.Context, title string) (store.Session, error)
	Session(ctx context.Context, id string) (store.Session, error)
	RootSession(ctx context.Context, id string) (string, error)
	RootSessions(ctx context.Context, ids []string) (map[string]string, error)
	Messages(ctx context.Context, sessionID string) ([]store.Message, error)
	MessagesAround(ctx context.Context, sessionID string, anchor int64, window int) (msgs []store.Message, before, after int, err error)
	Bookends(ctx context.Context, sessionID string, minID, maxID int64, n int) (start, end []store.Message, err error)
	RecentSessions(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error)
	// MessagesByID and FirstPrompts read the whole texts that snippets
	// and previews are cut from: what is shown is redacted whole, then cut.
	MessagesByID(ctx context.Context, ids []int64) (map[int64]store.Message, error)
	FirstPrompts(ctx context.Context, ids []string) (map[string]string, error)
}

// Defaults and bounds, Hermes's values (spec §7.1, §7.2).
const (
	DefaultSessions    = 3       // unique sessions per discover
	MaxSessions        = 10      // Hermes clamps limit to [1,10]
	DefaultConcurrency = 3       // summaries in flight
	MaxConcurrency     = 5       // Hermes clamps max_concurrency to [1,5]
	DefaultBudget      = 100_000 // MAX_SESSION_CHARS: transcript window in characters
)

// Options configures an Engine.
type Options struct {
	Sessions    int         // top N unique sessions (default 3, clamp 1..10)
	Recent      int         // sessions Browse lists when asked for no number (default Sessions)
	Concurrency int         // summaries in flight (default 3, clamp 1..5; else the config's max_concurrency)
	Budget      int         // transcript window in characters (default 100_000)
	LLM         *llm.Config // nil = no model configured: offline extractive summaries
	// ShowSecrets keeps API keys, tokens and passwords in what the engine
	// shows (a person asked, on their own terminal); by default each is
	// [REDACTED:rule]. Text sent to a model is redacted either way.
	ShowSecrets bool
}

// Engine runs discover, browse and summarize over one store. It is safe for
// concurrent use: it keeps no per-query state.
type Engine struct {
	st     Store
	opts   Options
	client *llm.Client // nil without a model
}

// New returns an Engine over st, with opts' zero values replaced by the
// defaults and out-of-range values clamped.
func New(st Store, opts Options) *Engine {
	if opts.Concurrency == 0 && opts.LLM != nil {
		opts.Concurrency = opts.LLM.MaxConcurrency
	}
	opts.Sessions = clamp(opts.Sessions, DefaultSessions, 1, MaxSessions)
	opts.Concurrency = clamp(opts.Concurrency, DefaultConcurrency, 1, MaxConcurrency)
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	e := &Engine{st: st, opts: opts}
	if opts.LLM != nil {
		e.client = llm.NewClient(*opts.LLM)
	}
	return e
}

// HasModel reports whether a model is configured, so summaries are model
// summaries rather than offline extractive ones.
func (e *Engine) HasModel() bool { return e.client != nil }

// Model returns the configured model's name, or "" without one.
func (e *Engine) Model() string {
	if e.opts.LLM == nil {
		return ""
	}
	return e.opts.LLM.Model
}

// clamp returns def for 0 (unset), else v bounded to [lo, hi].
func clamp(v, def, lo, hi int) int {
	if v == 0 {
		return def
	}
	return min(max(v, lo), hi)
}
