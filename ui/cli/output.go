package cli

import (
	"encoding/json"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

// printJSON prints v as indented JSON followed by a newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// snippetText renders store highlight markers: >>> <<< in JSON and plain
// output (as Hermes does), reverse video on a terminal. Only the JSON form
// (terminal false) keeps the stored bytes; text for a person goes through
// humanSnippet.
func snippetText(s string, terminal bool) string {
	if terminal {
		return strings.NewReplacer(store.HighlightStart, "\x1b[1;7m", store.HighlightEnd, "\x1b[0m").Replace(termtext.SanitizeSnippet(s))
	}
	return strings.NewReplacer(store.HighlightStart, ">>>", store.HighlightEnd, "<<<").Replace(s)
}

// humanSnippet is a snippet for a person, on one line: sanitised, hits in
// reverse video on a terminal and between >>> <<< elsewhere.
func humanSnippet(s string, terminal bool) string {
	return snippetText(termtext.OneLine(termtext.SanitizeSnippet(s)), terminal)
}

// fitSnippet is a marked snippet for a person in w cells: cut around its
// first hit (termtext.AroundHit) before the markers become >>> <<< (or
// reverse video), so a cut never splits a marker and the hit is never the
// part cut off; the plain markers' own cells are made room for.
func fitSnippet(s string, w int, terminal bool) string {
	s = termtext.OneLine(termtext.SanitizeSnippet(s))
	room := w
	for range 4 {
		cut := termtext.AroundHit(s, max(room, 4))
		out := snippetText(cut, terminal)
		over := termtext.Width(out) - w
		if over <= 0 || room <= 4 {
			return out
		}
		// The markers took cells: cut the text shorter by as many.
		room = termtext.Width(termtext.SanitizeSnippet(strings.NewReplacer(store.HighlightStart, "", store.HighlightEnd, "").Replace(cut))) - over
	}
	return snippetText(termtext.AroundHit(s, max(room, 4)), terminal)
}

// field is a short stored value (source, model, role, tool name, title) for
// a person: sanitised and on one line, so it can neither run escape
// sequences nor break the layout around it. Session ids go through
// displayID instead, which keeps them typeable.
func field(s string) string { return termtext.OneLine(termtext.Sanitize(s)) }

// isoTime formats a time for JSON; zero is "".
func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// splitList parses "a,b,,c" into [a b c].
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// sessionJSON is a session as the CLI prints it.
type sessionJSON struct {
	ID string `json:"session_id"`
	// ShortID is the id shown to people, which show, resume and MCP take
	// back: the shortest unique prefix of the source's own id, with
	// "@source" where sources share it (store.Store.ShortIDs); escaped
	// as IDEscaped is when it is not valid UTF-8.
	ShortID string `json:"short_id,omitempty"`
	// IDEscaped is set when the id is not valid UTF-8, which a JSON string
	// cannot carry (session_id then holds U+FFFD): it is the escaped form
	// that show, export and resume accept.
	IDEscaped string `json:"session_id_escaped,omitempty"`
	// NativeID is the source's own id for the session, when it is stored
	// under another (a session of another source had that id first).
	NativeID string `json:"native_id,omitempty"`
	Source   string `json:"source"`
	// Machine names the machine a synced session came from (its ssh host,
	// else its name), MachineID its id; both absent for this machine's.
	Machine       string  `json:"machine,omitempty"`
	MachineID     string  `json:"machine_id,omitempty"`
	Model         string  `json:"model"`
	Title         string  `json:"title"`
	ParentID      string  `json:"parent_session_id,omitempty"`
	StartedAt     string  `json:"started_at"`
	EndedAt       string  `json:"ended_at,omitempty"`
	EndReason     string  `json:"end_reason,omitempty"`
	MessageCount  int     `json:"message_count"`
	ToolCallCount int     `json:"tool_call_count"`
	InputTokens   int64   `json:"input_tokens"`
	OutputTokens  int64   `json:"output_tokens"`
	CostUSD       float64 `json:"estimated_cost_usd,omitempty"`
	Cwd           string  `json:"cwd,omitempty"`
	GitBranch     string  `json:"git_branch,omitempty"`
}

func toSessionJSON(s store.Session) sessionJSON {
	j := sessionJSON{ID: s.ID, Source: s.Source, Model: s.Model, Title: s.Title, ParentID: s.ParentID,
		StartedAt: isoTime(s.StartedAt), EndedAt: isoTime(s.EndedAt), EndReason: s.EndReason,
		MessageCount: s.MessageCount, ToolCallCount: s.ToolCallCount, InputTokens: s.InputTokens,
		OutputTokens: s.OutputTokens, CostUSD: s.EstimatedCostUSD, Cwd: s.Cwd, GitBranch: s.GitBranch}
	if !utf8.ValidString(s.ID) {
		j.IDEscaped = displayID(s.ID)
	}
	if s.NativeID != s.ID {
		j.NativeID = s.NativeID
	}
	if s.Machine != "" {
		j.Machine, j.MachineID = s.Host, s.Machine
	}
	return j
}

// messageJSON is a message as the CLI prints it.
type messageJSON struct {
	ID           int64           `json:"id"`
	Role         string          `json:"role"`
	Content      string          `json:"content"`
	Timestamp    string          `json:"timestamp"`
	ToolName     string          `json:"tool_name,omitempty"`
	ToolCalls    json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID   string          `json:"tool_call_id,omitempty"`
	TokenCount   int             `json:"token_count,omitempty"`
	FinishReason string          `json:"finish_reason,omitempty"`
	Reasoning    string          `json:"reasoning,omitempty"`
	// DisplayKind is the row's display_kind when it has one (FORMATS.md):
	// role stays the stored one in this raw dump.
	DisplayKind string `json:"display_kind,omitempty"`
	// Compacted marks a row folded into a compaction summary (Hermes's
	// active=0, compacted=1): history, not the live conversation. An
	// earlier version (display_kind "earlier") is not one.
	Compacted bool `json:"compacted,omitempty"`
}

func toMessageJSON(m store.Message) messageJSON {
	out := messageJSON{ID: m.ID, Role: m.Role, Content: m.Content, Timestamp: isoTime(m.Timestamp), ToolName: m.ToolName,
		ToolCallID: m.ToolCallID, TokenCount: m.TokenCount, FinishReason: m.FinishReason, Reasoning: m.Reasoning,
		DisplayKind: m.DisplayKind, Compacted: m.Compacted && m.DisplayKind != store.DisplayKindEarlier}
	if m.ToolCalls != "" {
		if json.Valid([]byte(m.ToolCalls)) {
			out.ToolCalls = json.RawMessage(m.ToolCalls)
		} else {
			b, _ := json.Marshal(m.ToolCalls)
			out.ToolCalls = b
		}
	}
	return out
}

// sourceLabel is a session's source as a list shows it: with "@machine"
// for a session synced from another machine.
func sourceLabel(s store.Session) string {
	if s.Machine == "" {
		return field(s.Source)
	}
	host := s.Host
	if host == "" {
		host = s.Machine[:min(8, len(s.Machine))]
	}
	return field(s.Source) + "@" + field(host)
}
