package sessionsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// The answers, in Hermes's shapes (spec §7.1) plus recall's additions
// (index, hits, summaries, budget). assets/schema/session_search.schema.json
// documents them; a test checks real output against it.

// Message is a message as Hermes's tool returns it: None values dropped
// except content.
type Message struct {
	ID         int64           `json:"id"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Timestamp  float64         `json:"timestamp"`
	ToolName   string          `json:"tool_name,omitempty"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Anchor     bool            `json:"anchor,omitempty"`
	// DisplayKind is the row's display_kind when it has one ("command",
	// "agent", "compaction"; FORMATS.md): Role is then "system" for text
	// the agent program wrote into a user record.
	DisplayKind string `json:"display_kind,omitempty"`
}

// Result is one discover result: the session holding the best hit, its
// root's metadata, and the anchored evidence.
type Result struct {
	SessionID       string    `json:"session_id"`
	When            string    `json:"when"`
	Source          string    `json:"source"`
	Model           string    `json:"model"`
	Title           *string   `json:"title"`
	MatchedRole     string    `json:"matched_role"`
	MatchMessageID  int64     `json:"match_message_id"`
	Snippet         string    `json:"snippet"`
	BookendStart    []Message `json:"bookend_start"`
	Messages        []Message `json:"messages"`
	BookendEnd      []Message `json:"bookend_end"`
	MessagesBefore  int       `json:"messages_before"`
	MessagesAfter   int       `json:"messages_after"`
	ParentSessionID string    `json:"parent_session_id,omitempty"`
	Hits            int       `json:"hits"`
	Summary         string    `json:"summary,omitempty"`
	SummaryKind     string    `json:"summary_kind,omitempty"`
	SummaryReason   string    `json:"summary_reason,omitempty"`
	// Truncated is set when the budget trimmed this result's evidence or summary.
	Truncated bool `json:"truncated,omitempty"`
	// MatchedDisplayKind is the hit's display_kind when it has one
	// ("command", "agent", "compaction"; FORMATS.md): matched_role is then
	// "system" for text the agent program wrote.
	MatchedDisplayKind string `json:"matched_display_kind,omitempty"`
	// MatchedWords are the envelope's words this session holds and Matched
	// their count ("matched 3 of 5 words"); absent for an FTS5-syntax query.
	MatchedWords []string `json:"matched_words,omitempty"`
	Matched      int      `json:"matched,omitempty"`
}

// Discover is the discover envelope.
type Discover struct {
	Success          bool        `json:"success"`
	Mode             string      `json:"mode"`
	Query            string      `json:"query"`
	Results          []Result    `json:"results"`
	Count            int         `json:"count"`
	SessionsSearched int         `json:"sessions_searched"`
	Index            store.Index `json:"index"`
	Message          string      `json:"message,omitempty"`
	// Notice says in one line what the query sanitiser dropped from a
	// hostile query (too deep, too many terms); absent normally.
	Notice string `json:"notice,omitempty"`
	// Words are the content words the query was read as (question words,
	// stopwords and date words dropped); absent for an FTS5-syntax query.
	Words []string `json:"words,omitempty"`
	// DateFilter names the date the query asked for ("May 2023", "last
	// week"): sessions of that time rank first.
	DateFilter string `json:"date_filter,omitempty"`
	// Suggestion says which word with no match was searched as which.
	Suggestion string  `json:"suggestion,omitempty"`
	Budget     *Budget `json:"budget,omitempty"`
}

// BrowseItem is one recent session.
type BrowseItem struct {
	SessionID    string  `json:"session_id"`
	Title        *string `json:"title"`
	Source       string  `json:"source"`
	StartedAt    float64 `json:"started_at"`
	LastActive   float64 `json:"last_active"`
	MessageCount int     `json:"message_count"`
	Preview      string  `json:"preview"`
}

// Browse is the browse envelope (empty query, no session).
type Browse struct {
	Success bool         `json:"success"`
	Mode    string       `json:"mode"`
	Results []BrowseItem `json:"results"`
	Count   int          `json:"count"`
	Message string       `json:"message"`
	Budget  *Budget      `json:"budget,omitempty"`
}

// SessionMeta describes the session a scroll or read is in.
type SessionMeta struct {
	When   string  `json:"when"`
	Source string  `json:"source"`
	Model  string  `json:"model"`
	Title  *string `json:"title"`
}

// Scroll is the scroll envelope: the messages around one message.
type Scroll struct {
	Success         bool        `json:"success"`
	Mode            string      `json:"mode"`
	SessionID       string      `json:"session_id"`
	AroundMessageID int64       `json:"around_message_id"`
	SessionMeta     SessionMeta `json:"session_meta"`
	Window          int         `json:"window"`
	Messages        []Message   `json:"messages"`
	MessagesBefore  int         `json:"messages_before"`
	MessagesAfter   int         `json:"messages_after"`
	Warning         string      `json:"warning,omitempty"`
	Budget          *Budget     `json:"budget,omitempty"`
}

// Read is the read envelope: a session's head and tail.
type Read struct {
	Success      bool        `json:"success"`
	Mode         string      `json:"mode"`
	SessionID    string      `json:"session_id"`
	SessionMeta  SessionMeta `json:"session_meta"`
	MessageCount int         `json:"message_count"`
	Truncated    bool        `json:"truncated"`
	Messages     []Message   `json:"messages"`
	Message      string      `json:"message,omitempty"`
	Budget       *Budget     `json:"budget,omitempty"`
}

// Failure is Hermes's tool_error envelope.
type Failure struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
}

// Budget reports how an answer was fitted to max_chars.
type Budget struct {
	MaxChars  int  `json:"max_chars"`
	Truncated bool `json:"truncated"`
	// What the trimming left out: messages omitted from windows and
	// bookends, messages and summaries clipped (or left out), results dropped.
	OmittedMessages  int `json:"omitted_messages,omitempty"`
	ClippedMessages  int `json:"clipped_messages,omitempty"`
	ClippedSummaries int `json:"clipped_summaries,omitempty"`
	DroppedResults   int `json:"dropped_results,omitempty"`
	// Hint says how to get what was left out.
	Hint string `json:"hint,omitempty"`
}

// messages converts store messages, marking anchor (0 for none).
func messages(msgs []store.Message, anchor int64) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, message(m, anchor))
	}
	return out
}

func message(m store.Message, anchor int64) Message {
	jm := Message{ID: m.ID, Role: recall.PresentedRole(m.Role, m.DisplayKind), DisplayKind: m.DisplayKind, Content: m.Content, Timestamp: epoch(m.Timestamp),
		ToolName: m.ToolName, ToolCallID: m.ToolCallID, Anchor: anchor != 0 && m.ID == anchor}
	if m.ToolCalls != "" {
		if json.Valid([]byte(m.ToolCalls)) {
			jm.ToolCalls = json.RawMessage(m.ToolCalls)
		} else {
			jm.ToolCalls, _ = json.Marshal(m.ToolCalls)
		}
	}
	return jm
}

// epoch is a time as Hermes stores it: float Unix seconds (0 when unknown).
func epoch(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}

// markedSnippet renders the store's highlight markers as Hermes's >>> <<<.
func markedSnippet(s string) string {
	return strings.NewReplacer(store.HighlightStart, ">>>", store.HighlightEnd, "<<<").Replace(s)
}

func titlePtr(t string) *string {
	if t == "" {
		return nil
	}
	return &t
}

func modelOr(m string) string {
	if m == "" {
		return "unknown"
	}
	return m
}

func sessionMeta(s store.Session) SessionMeta {
	return SessionMeta{When: recall.FormatWhen(s.StartedAt), Source: s.Source, Model: modelOr(s.Model), Title: titlePtr(s.Title)}
}

// discoverEnvelope is a Discovery (and its summaries, if any) as JSON.
func discoverEnvelope(d *recall.Discovery, sums []recall.Summary) *Discover {
	env := &Discover{Success: true, Mode: "discover", Query: d.Query, Results: make([]Result, 0, len(d.Results)),
		Count: len(d.Results), SessionsSearched: d.SessionsSearched, Index: d.Index, Notice: d.Notice,
		Words: d.Words, DateFilter: d.DateFilter, Suggestion: d.Suggestion}
	if len(d.Results) == 0 {
		env.Message = "No matching sessions found."
	}
	for i, r := range d.Results {
		jr := Result{SessionID: r.SessionID, When: recall.FormatWhen(r.When), Source: r.Source, Model: modelOr(r.Model),
			Title: titlePtr(r.Name()), MatchedRole: r.MatchedRole, MatchedDisplayKind: r.MatchedDisplayKind, MatchMessageID: r.MatchMessageID,
			Snippet: markedSnippet(r.Snippet), BookendStart: messages(r.BookendStart, 0),
			Messages: messages(r.Messages, r.MatchMessageID), BookendEnd: messages(r.BookendEnd, 0),
			MessagesBefore: r.MessagesBefore, MessagesAfter: r.MessagesAfter, Hits: r.Hits,
			MatchedWords: r.Matched, Matched: len(r.Matched)}
		if r.RootID != "" && r.RootID != r.SessionID {
			jr.ParentSessionID = r.RootID
		}
		if i < len(sums) {
			jr.Summary, jr.SummaryKind, jr.SummaryReason = sums[i].Text, string(sums[i].Kind), sums[i].Reason
		}
		env.Results = append(env.Results, jr)
	}
	return env
}

// browseEnvelope lists recent sessions.
func browseEnvelope(list []store.SessionSummary) *Browse {
	items := make([]BrowseItem, 0, len(list))
	for _, s := range list {
		items = append(items, BrowseItem{SessionID: s.ID, Title: titlePtr(recall.SessionName(s.Title, s.Preview)), Source: s.Source,
			StartedAt: epoch(s.StartedAt), LastActive: epoch(s.LastActive), MessageCount: s.MessageCount, Preview: s.Preview})
	}
	return &Browse{Success: true, Mode: "browse", Results: items, Count: len(items), Message: browseMessage(len(items))}
}

func browseMessage(n int) string {
	return fmt.Sprintf("Showing %d most recent sessions. Pass a query to search, or a session_id to read one (with around_message_id to scroll).", n)
}
