package recall

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/store"
)

// Hermes's discover constants (spec §7.1).
const (
	// DiscoverScanLimit is how many hits phase 1 reads, so that a few chatty
	// sessions cannot crowd every other session out of the top N
	// (_DISCOVER_SCAN_LIMIT, raised from 50 for Hermes #19434).
	DiscoverScanLimit = 300
	// FirstPhaseScanLimit is the scan of the unranked first phase (store.PhaseFirst).
	FirstPhaseScanLimit = 60
	// EvidenceWindow is how many messages either side of the hit are shown.
	EvidenceWindow = 5
	// BookendCount is how many user/assistant messages are shown at each end.
	BookendCount = 3
	// TitleMatchRole is MatchedRole for a result found by its title.
	TitleMatchRole = "session_title"
)

// HiddenSources are never searched or listed (subagent and tool sessions are
// the agent talking to itself); DemotedSources rank after every other hit.
var (
	HiddenSources  = []string{"subagent", "tool"}
	DemotedSources = []string{"cron"}
)

// DefaultRoles are the roles searched when the filter names none (Hermes's
// default role_filter): tool output is noise for "which session was it".
var DefaultRoles = []string{"user", "assistant"}

// DiscoverOptions narrows one Discover call.
type DiscoverOptions struct {
	Limit            int                // sessions; 0 = Options.Sessions
	CurrentSessionID string             // excluded with its whole lineage
	Filter           store.SearchFilter // roles, sources, time range, Typing, Phase
	// SkipEvidence leaves Result.Window and the bookends empty (but an
	// untitled result's opening messages, which name it): the TUI's first
	// paint per keystroke shows sessions and snippets only, and the
	// evidence reads (three queries per session) would double its latency.
	SkipEvidence bool
}

// Discovery is phase 1's answer: the top sessions with their evidence.
type Discovery struct {
	Query string
	// Parsed is the query as the store parsed it (store.SearchResult.Parsed):
	// the terms to highlight and to centre transcript windows on.
	Parsed           store.Query
	Notice           string      // what the store's sanitiser dropped from a hostile query, "" normally
	Index            store.Index // the search path that served the query
	Elapsed          time.Duration
	SessionsSearched int // unique lineages kept (Hermes's sessions_searched)
	Results          []Result
	// Words are the content words a plain query was read as (nil when it
	// ran as FTS5 syntax); each Result says which of them it holds.
	Words []string
	// DateFilter names the date the query asked for ("May 2023"), "" for none.
	DateFilter string
	// Suggestion says which word with no match was searched as which, "" for none.
	Suggestion string
}

// Result is one session of a Discovery, with the evidence around its best hit.
type Result struct {
	SessionID string // the session holding the best hit
	RootID    string // lineage root (metadata comes from here)

	When                 time.Time // the root's start
	Source, Model, Title string    // the root's

	MatchedRole    string // the hit's role as presented (PresentedRole), or TitleMatchRole
	MatchMessageID int64
	Snippet        string // with store.HighlightStart/End around matches
	Hits           int    // hits in this lineage among the scanned rows
	// HitIDs are those hits' message ids, best first: the detail pane
	// counts and visits the same hits the list counts.
	HitIDs []int64
	// Parsed is the parsed query that found this result (Discovery.Parsed),
	// so that Summarize centres the transcript on the same terms.
	Parsed store.Query

	// Anchored evidence: the user/assistant messages around the hit (the
	// anchor itself is always kept), and the session's first and last
	// user/assistant messages outside that window.
	BookendStart, Messages, BookendEnd []store.Message
	MessagesBefore, MessagesAfter      int

	// MatchedDisplayKind is the hit's display_kind ("" for an ordinary
	// message; store.DisplayKindCommand, ...): MatchedRole is "system"
	// for text the agent program wrote.
	MatchedDisplayKind string
	// Matched are the Discovery's Words this session holds (nil when the
	// query ran as FTS5 syntax, where every match holds them all).
	Matched []string

	// rawSnippet and rawTitle are the snippet and title as stored, which
	// showResults redacts (the snippet against its whole message) into
	// Snippet and Title.
	rawSnippet, rawTitle string
}

// Discover finds the sessions that matter for query (phase 1, no model):
// a session whose title is the query comes first; then the best-ranked hit
// of each lineage, cron demoted, hidden sources and the current lineage
// excluded, up to the limit. An empty query returns an empty Discovery with
// Index store.IndexNone (callers browse instead).
func (e *Engine) Discover(ctx context.Context, query string, o DiscoverOptions) (*Discovery, error) {
	began := time.Now()
	d := &Discovery{Query: query, Index: store.IndexNone}
	if strings.TrimSpace(query) == "" {
		return d, nil
	}
	limit := clamp(o.Limit, e.opts.Sessions, 1, MaxSessions)
	lin := newLineage(e.st)

	titled, err := e.titleSession(ctx, query)
	if err != nil {
		return nil, err
	}

	f := o.Filter
	f.ExcludeSources = append(slices.Clone(f.ExcludeSources), HiddenSources...)
	if o.CurrentSessionID != "" {
		f.ExcludeSessionIDs = append(slices.Clone(f.ExcludeSessionIDs), o.CurrentSessionID)
	}
	if len(f.Roles) == 0 {
		f.Roles = DefaultRoles
	}
	f.Limit, f.Offset = DiscoverScanLimit, 0
	f.Sessions = true // plain words and questions: ranked by session (store/engine/pipeline/plain.go)
	// Delegation chains fold several sessions into one root: three
	// sessions per root listed is the store's reading bound.
	f.SessionLimit = 3 * limit
	if f.Phase == store.PhaseFirst {
		// The first paint of a keystroke: the newest hits are enough to
		// fill the list, and reading 300 of them through the trigram
		// substring path costs 20-40 ms on a million messages. The ranked
		// phase that follows scans the full 300.
		f.Limit = FirstPhaseScanLimit
	}
	res, err := e.st.SearchMessages(ctx, query, f)
	if err != nil {
		return nil, fmt.Errorf("search messages: %w", err)
	}
	d.Index, d.Parsed, d.Notice = res.Index, res.Parsed, res.Notice
	d.Words, d.DateFilter, d.Suggestion = res.Words, res.DateFilter, res.Suggestion
	hits := res.Hits
	sort.SliceStable(hits, func(i, j int) bool { return demoted(hits[i].Source) < demoted(hits[j].Source) })

	// Every lineage root in one query: the current session's, the titled
	// session's and each hit's whose session has a parent. The hits also
	// carry their own session's columns, so a root that has a hit of its
	// own needs no read of its row.
	var ask []string
	if o.CurrentSessionID != "" {
		ask = append(ask, o.CurrentSessionID)
	}
	if titled != nil {
		lin.know(titled.ID, sessionMeta{titled.Source, titled.Model, titled.Title, titled.StartedAt})
		if titled.ParentID != "" {
			ask = append(ask, titled.ID)
		}
	}
	for _, h := range hits {
		lin.know(h.SessionID, sessionMeta{h.Source, h.Model, h.SessionTitle, h.SessionStarted})
		if h.ParentID != "" {
			ask = append(ask, h.SessionID)
		}
	}
	if err := lin.resolve(ctx, ask); err != nil {
		return nil, err
	}
	currentRoot := lin.root(o.CurrentSessionID)
	excluded := func(sessionID, root string) bool {
		return o.CurrentSessionID != "" && (root == currentRoot || sessionID == o.CurrentSessionID)
	}

	var picks []pick
	taken := map[string]bool{}
	tp, err := e.titlePick(ctx, lin, titled, excluded)
	if err != nil {
		return nil, err
	}
	if tp != nil {
		picks = append(picks, *tp)
		taken[tp.root] = true
	}

	counts := map[string]int{}
	hitIDs := map[string][]int64{}
	counted := map[string]bool{} // sessions whose hits the store counted
	for _, h := range hits {
		root := lin.root(h.SessionID)
		if excluded(h.SessionID, root) {
			continue
		}
		switch {
		case h.SessionHits > 0:
			counts[root] += h.SessionHits
			counted[h.SessionID] = true
		case !counted[h.SessionID]:
			counts[root]++
		}
		hitIDs[root] = append(hitIDs[root], h.MessageID)
		if len(picks) < limit && !taken[root] {
			taken[root] = true
			picks = append(picks, pick{hit: h, root: root})
		}
	}

	// Root metadata first (cached, one goroutine), then the evidence of
	// every result at once: evidence is most of phase 1's time after the
	// search itself.
	d.Results = make([]Result, len(picks))
	for i, p := range picks {
		r, err := e.resultMeta(ctx, lin, p)
		if err != nil {
			return nil, err
		}
		r.Hits, r.HitIDs, r.Parsed = counts[p.root], hitIDs[p.root], d.Parsed
		d.Results[i] = r
	}
	if err := e.evidenceAll(ctx, d.Results, o.SkipEvidence); err != nil {
		return nil, err
	}
	if err := e.showResults(ctx, d.Results); err != nil {
		return nil, err
	}
	d.SessionsSearched = len(picks)
	d.Elapsed = time.Since(began)
	return d, nil
}

// evidenceAll reads every result's evidence at once (unless skip): the
// store has several reader connections. Skipping it, an untitled result
// still gets its session's opening messages (BookendStart), so that it is
// named by its first prompt (Result.Name) as the browse list and `recall
// search` name it, never "(untitled)".
func (e *Engine) evidenceAll(ctx context.Context, results []Result, skip bool) error {
	if skip {
		for i := range results {
			r := &results[i]
			if strings.TrimSpace(r.Title) != "" {
				continue
			}
			start, _, err := e.st.Bookends(ctx, r.SessionID, math.MaxInt64, math.MaxInt64, BookendCount)
			if err != nil {
				return fmt.Errorf("read the first prompt of %s: %w", r.SessionID, err)
			}
			r.BookendStart = start
		}
		return nil
	}
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.evidence(ctx, &results[i])
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// pick is a hit chosen for a result, before its evidence is read.
type pick struct {
	hit  store.Hit
	root string
}

// demoted sorts demoted sources (cron) after the rest.
func demoted(source string) int {
	if slices.Contains(DemotedSources, source) {
		return 1
	}
	return 0
}

// titleSession returns the session whose title is the query (stripped of
// whitespace, quotes and backticks), nil when there is none.
func (e *Engine) titleSession(ctx context.Context, query string) (*store.Session, error) {
	title := strings.TrimSpace(strings.Trim(strings.TrimSpace(query), "`'\""))
	if title == "" {
		return nil, nil
	}
	sess, err := e.st.SessionByTitle(ctx, title)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("find session by title: %w", err)
	}
	return &sess, nil
}

// titlePick turns the titled session into a pick anchored at its first
// message, unless it is in the current lineage or its root is a hidden source.
func (e *Engine) titlePick(ctx context.Context, lin *lineage, sess *store.Session, excluded func(string, string) bool) (*pick, error) {
	if sess == nil {
		return nil, nil
	}
	root := lin.root(sess.ID)
	if excluded(sess.ID, root) {
		return nil, nil
	}
	meta, err := lin.session(ctx, root)
	if err != nil {
		return nil, err
	}
	if slices.Contains(HiddenSources, sess.Source) || meta != nil && slices.Contains(HiddenSources, meta.source) {
		return nil, nil
	}
	// The first user/assistant message is the anchor: Bookends with no
	// window returns it as the first "start" bookend.
	first, _, err := e.st.Bookends(ctx, sess.ID, math.MaxInt64, math.MaxInt64, 1)
	if err != nil {
		return nil, fmt.Errorf("read first message: %w", err)
	}
	h := store.Hit{SessionID: sess.ID, Role: TitleMatchRole, Snippet: "Session title matched: " + sess.Title,
		Source: sess.Source, Model: sess.Model, SessionTitle: sess.Title, SessionStarted: sess.StartedAt, ParentID: sess.ParentID}
	if len(first) > 0 {
		h.MessageID, h.Timestamp = first[0].ID, first[0].Timestamp
	}
	return &pick{hit: h, root: root}, nil
}

// resultMeta turns a pick into a Result with its root's metadata.
func (e *Engine) resultMeta(ctx context.Context, lin *lineage, p pick) (Result, error) {
	h := p.hit
	r := Result{SessionID: h.SessionID, RootID: p.root, MatchedRole: PresentedRole(h.Role, h.DisplayKind),
		MatchedDisplayKind: h.DisplayKind, MatchMessageID: h.MessageID, Matched: h.Matched,
		rawSnippet: h.Snippet, rawTitle: h.SessionTitle, When: h.SessionStarted, Source: h.Source, Model: h.Model, Title: h.SessionTitle}
	meta, err := lin.session(ctx, p.root)
	if err != nil {
		return r, err
	}
	if meta != nil {
		r.When, r.Source, r.Model, r.Title = meta.started, meta.source, meta.model, meta.title
	}
	return r, nil
}

// evidence reads a result's anchored evidence: the user/assistant messages
// within EvidenceWindow of the anchor (the anchor always kept, whatever its
// role) and BookendCount user/assistant messages at each end outside it.
func (e *Engine) evidence(ctx context.Context, r *Result) error {
	anchor := r.MatchMessageID
	if anchor == 0 {
		return nil
	}
	around, before, after, err := e.st.MessagesAround(ctx, r.SessionID, anchor, EvidenceWindow)
	if err != nil {
		return fmt.Errorf("read messages around %d: %w", anchor, err)
	}
	minID, maxID := anchor, anchor
	for _, m := range around {
		minID, maxID = min(minID, m.ID), max(maxID, m.ID)
		if m.ID != anchor && (m.Role != "user" && m.Role != "assistant" || ReadableText(m) == "") {
			continue
		}
		r.Messages = append(r.Messages, m)
		switch {
		case m.ID < anchor:
			r.MessagesBefore++
		case m.ID > anchor:
			r.MessagesAfter++
		}
	}
	if before < EvidenceWindow && after < EvidenceWindow {
		return nil // the window holds the whole session: no message lies outside it
	}
	r.BookendStart, r.BookendEnd, err = e.st.Bookends(ctx, r.SessionID, minID, maxID, BookendCount)
	if err != nil {
		return fmt.Errorf("read bookends: %w", err)
	}
	return nil
}

// lineage resolves lineage roots and holds session metadata for one call.
type lineage struct {
	st    Store
	roots map[string]string       // session -> root, for the sessions resolve was asked
	meta  map[string]*sessionMeta // nil value: the session does not exist
}

// sessionMeta is what a Result shows of its root: the columns a hit
// carries of its own session, or a session row.
type sessionMeta struct {
	source, model, title string
	started              time.Time
}

func newLineage(st Store) *lineage {
	return &lineage{st: st, roots: map[string]string{}, meta: map[string]*sessionMeta{}}
}

// know records a session's metadata (from a hit's joined columns or a row).
func (l *lineage) know(id string, m sessionMeta) {
	if _, ok := l.meta[id]; !ok {
		l.meta[id] = &m
	}
}

// resolve finds the roots of ids in one query (store.RootSessions walks the
// parents of all of them at once); a session whose row is gone is its own root.
func (l *lineage) resolve(ctx context.Context, ids []string) error {
	var ask []string
	for _, id := range ids {
		if _, ok := l.roots[id]; !ok && !slices.Contains(ask, id) {
			ask = append(ask, id)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	roots, err := l.st.RootSessions(ctx, ask)
	if err != nil {
		return fmt.Errorf("resolve lineages: %w", err)
	}
	for _, id := range ask {
		l.roots[id] = id
		if r, ok := roots[id]; ok && r != "" {
			l.roots[id] = r
		}
	}
	return nil
}

// root returns the lineage root of a session: the one resolve found, else
// the session itself (it has no parent: no query was needed).
func (l *lineage) root(id string) string {
	if r, ok := l.roots[id]; ok {
		return r
	}
	return id
}

// session returns a session's metadata, reading its row only when no hit
// carried it; nil when the session does not exist.
func (l *lineage) session(ctx context.Context, id string) (*sessionMeta, error) {
	if m, ok := l.meta[id]; ok {
		return m, nil
	}
	s, err := l.st.Session(ctx, id)
	switch {
	case err == nil:
		l.meta[id] = &sessionMeta{s.Source, s.Model, s.Title, s.StartedAt}
		return l.meta[id], nil
	case errors.Is(err, store.ErrNotFound):
		l.meta[id] = nil
		return nil, nil
	}
	return nil, fmt.Errorf("read session %s: %w", id, err)
}

// Browse lists recent sessions (newest activity first) without a query and
// without a model: Hermes's browse mode. Hidden sources are left out and a
// zero Limit means Options.Recent, else Options.Sessions.
func (e *Engine) Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	o.ExcludeSources = append(slices.Clone(o.ExcludeSources), HiddenSources...)
	if o.Limit <= 0 {
		o.Limit = cmp.Or(e.opts.Recent, e.opts.Sessions)
	}
	list, err := e.st.RecentSessions(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("list recent sessions: %w", err)
	}
	return e.showListings(ctx, list)
}
