package store

import (
	"time"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/query"
)

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
	// Machine is the id of the machine the session came from (recall
	// sync; "" for this one), part of its identity.
	Machine string
	// Host names that machine as read from the store: the ssh host this
	// database reaches it by, else the name it gave itself ("" for this
	// machine's sessions).
	Host             string
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

// The search engine's vocabulary (store/engine), under the names the
// store's callers use.
type (
	// Index names the path that served a search.
	Index = engine.Index
	// Phase says how much ranking work a search does.
	Phase = engine.Phase
	// Sort is the order of a search's hits.
	Sort = engine.Sort
	// SearchFilter narrows and pages a message search.
	SearchFilter = engine.Filter
	// Hit is one matching message joined with its session's metadata.
	Hit = engine.Hit
	// SearchResult is the answer to one SearchMessages call.
	SearchResult = engine.Result
)

// The search paths, phases and orders (store/engine).
const (
	IndexUnicode61 = engine.IndexUnicode61
	IndexTrigram   = engine.IndexTrigram
	IndexCJK       = engine.IndexCJK
	IndexLike      = engine.IndexLike
	IndexNone      = engine.IndexNone

	PhaseFinal = engine.PhaseFinal
	PhaseFirst = engine.PhaseFirst

	SortRank   = engine.SortRank
	SortNewest = engine.SortNewest
	SortOldest = engine.SortOldest
)

// Snippet markers: private-use runes that cannot be typed by a user and are
// stripped from content before indexing, so they never collide with text.
const (
	HighlightStart = engine.HighlightStart
	HighlightEnd   = engine.HighlightEnd
)

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

// Query is a search query as the store parsed it (store/engine/query).
type Query = query.Query

// QueryTerm is one positive leaf of a query.
type QueryTerm = query.QueryTerm

// Piece is a single-script part of a QueryTerm.
type Piece = query.Piece

// ParseQuery parses a query as a search on a database of recall's own
// layout would (content is the only column name), for callers that hold a
// query string but no SearchResult. Prefer SearchResult.Parsed when there is
// one: on a Hermes v23+ file tool_name: and tool_calls: are column filters too.
func ParseQuery(raw string) Query { return query.ParseQuery(raw) }
