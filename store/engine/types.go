package engine

import (
	"time"

	"github.com/recall-dev/recall/store/engine/query"
)

// Index names the path that served a search.
type Index string

// The search paths. Every Result says which one served it.
const (
	IndexUnicode61 Index = "unicode61" // messages_fts
	IndexTrigram   Index = "trigram"   // messages_fts_trigram
	IndexCJK       Index = "cjk"       // recall_fts_cjk: bigrams for 1-2 character CJK terms
	IndexLike      Index = "like"      // LIKE scan, the last resort
	IndexNone      Index = "none"      // nothing to search (empty query after sanitising)
)

// Phase says how much ranking work a search does.
type Phase uint8

const (
	// PhaseFinal returns bm25-ranked hits, ranked over every match (Complete says when not).
	PhaseFinal Phase = iota
	// PhaseFirst returns the newest matching hits at once, for the first paint while typing.
	PhaseFirst
)

// Sort is the order of a search's hits.
type Sort uint8

const (
	// SortRank orders by relevance (bm25), the default.
	SortRank Sort = iota
	// SortNewest orders by message timestamp, newest first.
	SortNewest
	// SortOldest orders by message timestamp, oldest first.
	SortOldest
)

// OrderBy is the ORDER BY clause of a time-sorted search ("" for SortRank).
func (o Sort) OrderBy() string {
	switch o {
	case SortNewest:
		return " ORDER BY m.timestamp DESC, m.id DESC"
	case SortOldest:
		return " ORDER BY m.timestamp ASC, m.id ASC"
	}
	return ""
}

// Filter narrows and pages a message search.
type Filter struct {
	Roles             []string  // only these roles; empty means all
	Sources           []string  // only these sources; empty means all
	ExcludeSources    []string  // never these sources
	Machines          []string  // only sessions from these machines (store.ListOptions.Machines)
	ExcludeSessionIDs []string  // e.g. the current session
	Since, Until      time.Time // zero means unbounded; compared with the message timestamp
	Limit, Offset     int       // Limit 0 means 50
	Phase             Phase
	// Sort orders the hits by message time instead of rank (Hermes's
	// sort=newest|oldest): every match is a candidate, so "oldest" finds the
	// first time something came up, not the oldest of the best-ranked.
	Sort Sort
	// Typing marks as-you-type input: the last bare term is treated as a prefix.
	Typing bool
	// Sessions asks for a session ranking (recall's Discover): a plain
	// query (no FTS5 syntax) is then read as its content words, any of them
	// enough to match, and the hits come grouped by session, best session
	// first (store/engine/pipeline). Only the ranked phase (PhaseFinal, SortRank,
	// first page) does this; the rest keep the exact FTS5 meaning.
	Sessions bool
	// SessionLimit, with Sessions, is how many sessions the caller will
	// list (0: the store's default): a ranking by session reads the rows of
	// no more sessions than that, best first.
	SessionLimit int
	// Now is the time relative dates in a query ("yesterday", "last
	// week") are read against; zero means time.Now().
	Now time.Time
	// Cwd keeps only sessions run in this directory or under it (a
	// repository: recall --here); "" is every session.
	Cwd string
	// ShownRoles reads Roles as the roles hits are shown with
	// (recall.PresentedRole) rather than as stored: "user" leaves out the
	// user-role rows the agent program wrote (an interrupt marker, a
	// compaction summary), "system" takes them in. A person filtering
	// by role means what they see.
	ShownRoles bool
}

// Hit is one matching message joined with its session's metadata. It carries a
// snippet with the matched terms marked, never the whole content.
type Hit struct {
	MessageID      int64
	SessionID      string
	Role           string
	Snippet        string // matched terms wrapped in HighlightStart/HighlightEnd
	Timestamp      time.Time
	ToolName       string
	Source         string
	Model          string
	SessionTitle   string
	SessionStarted time.Time
	ParentID       string
	Rank           float64 // bm25 rank (lower is better); 0 on recency-ordered paths
	Index          Index
	// DisplayKind is the message's display_kind (store.DisplayKindCommand,
	// DisplayKindAgent, ...; "" for an ordinary message), so that a hit in
	// text the agent wrote is never reported as the user's.
	DisplayKind string
	// Matched are the query words (Result.Words) the hit's session
	// holds, in its messages or title; nil outside a plain session ranking.
	Matched []string
	// SessionHits, when not 0, is how many of the session's messages
	// matched and passed the filters; a ranking by session lists only the
	// best of them as hits.
	SessionHits int
}

// Snippet markers: private-use runes that cannot be typed by a user and are
// stripped from content before indexing, so they never collide with text.
const (
	HighlightStart = "\ue000"
	HighlightEnd   = "\ue001"
)

// Result is the answer to one search.
type Result struct {
	Hits     []Hit
	Index    Index         // the path that served the query
	Query    string        // the FTS5 expression actually run (after sanitising)
	Elapsed  time.Duration // time spent in the store
	Complete bool          // false when ranking ran over a bounded candidate set
	// Matches is how many rows matched and were ranked, when the final
	// phase ranked every match (0 when it was not counted).
	Matches int
	// Parsed is the query as the search understood it (its positive terms,
	// phrases, prefixes, CJK pieces), for highlighting and transcript windows.
	Parsed query.Query
	// Notice says in one line what the sanitiser dropped from a hostile query
	// (nesting too deep, too many terms); "" for every ordinary query.
	Notice string
	// Words are the content words a plain query was read as (stopwords,
	// question words and date words dropped; a corrected typo replaced);
	// nil when the query was run as FTS5 syntax.
	Words []string
	// DateFilter names the date the query asked for ("May 2023", "last
	// week"), "" for none; sessions in [DateFrom, DateTo) rank first.
	DateFilter       string
	DateFrom, DateTo time.Time
	// Suggestion says which word with no hits was searched as which
	// ("dokcer → docker"); "" when none was replaced.
	Suggestion string
}
