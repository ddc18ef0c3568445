package store

import "time"

// Session is one conversation with an agent: a row of Hermes's sessions table,
// reduced to the columns recall reads and writes.
type Session struct {
	// ID is the stored key (sessions.id). An importer sets it to the
	// source's own id and the store decides the stored one (identity.go):
	// the same, or a qualified "<id>@<source>" when a session of another
	// source holds it already.
	ID     string
	Source string // hermes source name: cli, telegram, claude-code, codex, gemini-cli, ...
	// NativeID is the source's own id for the session, as read from the
	// store ("" on a session an importer builds: its ID is that). A session
	// read and written back keeps its identity by it.
	NativeID string
	// Machine is the machine the session came from ("" for this one).
	Machine          string
	Model            string
	ModelConfig      string // JSON text, Hermes lineage markers live here
	Title            string
	ParentID         string // parent_session_id: delegation, compression or branch parent
	StartedAt        time.Time
	EndedAt          time.Time // zero while the session is live
	EndReason        string
	MessageCount     int
	ToolCallCount    int
	InputTokens      int64
	OutputTokens     int64
	CacheReadTokens  int64
	CacheWriteTokens int64
	ReasoningTokens  int64
	EstimatedCostUSD float64
	ActualCostUSD    float64 // 0 when unknown
	Cwd              string
	GitBranch        string
	Archived         bool
}

// Message is one row of the messages table. Timestamps are stored as REAL
// Unix seconds, as Hermes does; ordering inside a session is always by ID.
type Message struct {
	ID        int64
	SessionID string
	// Source, when set, names the source of the session SessionID names: a
	// batch that holds two sources' sessions under one id (a generic JSONL
	// file) says which each message belongs to. "" is the session of that
	// id the transaction wrote.
	Source       string
	Role         string // user, assistant, tool, system
	Content      string
	ToolCallID   string
	ToolCalls    string // JSON list as text, as Hermes stores it
	ToolName     string
	Timestamp    time.Time
	TokenCount   int
	FinishReason string
	Reasoning    string
	// SourceKey, when set, identifies the message in the source it was imported
	// from; a second insert with the same key is skipped (idempotent imports).
	SourceKey string
	// Inactive is Hermes's active = 0: a row rewound away, or, with
	// Compacted, one folded into a compaction summary (still searched, as
	// Hermes searches it, but not part of the live conversation).
	Inactive  bool
	Compacted bool
	// DisplayKind is Hermes's messages.display_kind: "hidden" rows are never
	// shown or searched; recall also marks text an agent wrote itself into
	// a user record (see DisplayKind* in FORMATS.md), so that it is never
	// presented as something the person typed. "" is an ordinary message.
	DisplayKind string
}

// SessionSummary is a session row for lists: what the browse mode shows,
// without reading message bodies beyond a short preview.
type SessionSummary struct {
	Session
	Preview    string    // first user message, whitespace collapsed, at most 60 chars + "..."
	LastActive time.Time // newest message timestamp, else StartedAt
}

// Index names the path that served a search.
type Index string

// The search paths. Every SearchResult says which one served it.
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
	// PhaseFinal returns bm25-ranked hits, ranked over every match (fullrank.go; Complete says when not).
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

// orderBy is the ORDER BY clause of a time-sorted search ("" for SortRank).
func (o Sort) orderBy() string {
	switch o {
	case SortNewest:
		return " ORDER BY m.timestamp DESC, m.id DESC"
	case SortOldest:
		return " ORDER BY m.timestamp ASC, m.id ASC"
	}
	return ""
}

// SearchFilter narrows and pages a message search.
type SearchFilter struct {
	Roles             []string  // only these roles; empty means all
	Sources           []string  // only these sources; empty means all
	ExcludeSources    []string  // never these sources
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
	// first (search_plain.go). Only the ranked phase (PhaseFinal, SortRank,
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
	// DisplayKind is the message's display_kind (DisplayKindCommand,
	// DisplayKindAgent, ...; "" for an ordinary message), so that a hit in
	// text the agent wrote is never reported as the user's.
	DisplayKind string
	// Matched are the query words (SearchResult.Words) the hit's session
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

// SearchResult is the answer to one SearchMessages call.
type SearchResult struct {
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
	Parsed Query
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

	plain *parsedQuery // the plain query's forms, for Parsed
}

// ImportFile is what an importer remembers about one source file between runs.
type ImportFile struct {
	Path     string
	Source   string
	Size     int64
	ModTime  time.Time
	Offset   int64  // bytes consumed so far (complete lines only)
	State    string // importer-private JSON (e.g. last record id, merge state)
	Sessions string // space-separated session ids the file produced
	// Ident is the file's identity (a hash of its first line), which a
	// rename or move keeps; "" when not known yet.
	Ident string
}
