// Package sessionsearch is recall's session_search tool without a
// transport: Hermes Agent's four calling shapes (spec §7.1), their JSON
// envelopes, the character budget that keeps every answer inside what a
// model can read at once, and summaries on request. The MCP server
// (ui/mcpserver) and `recall search --json` both answer through it, so the
// two can never drift apart.
//
//	discover  Query                       best session per lineage, anchored evidence
//	browse    no Query, no SessionID      recent sessions
//	scroll    SessionID + AroundMessageID the messages around one message
//	read      SessionID alone             head 20 + tail 10
package sessionsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// Bounds, Hermes's where it has them.
const (
	DefaultLimit  = recall.DefaultSessions // sessions per discover or browse
	MaxLimit      = recall.MaxSessions     // limit is clamped to [1, MaxLimit]
	DefaultWindow = 5                      // scroll: messages either side of the anchor
	MaxWindow     = 20                     // window is clamped to [1, MaxWindow]
	ReadHead      = 20                     // read: first messages shown
	ReadTail      = 10                     // read: last messages shown

	// DefaultMaxChars is the MCP server's answer budget: about 3,000
	// tokens, a tenth of what Claude Code lets one tool answer hold, so a
	// model can call the tool several times in a turn.
	DefaultMaxChars = 12_000
	// MinMaxChars and MaxMaxChars bound max_chars: one result with its
	// anchor and the envelope take about 1,000 characters, so below 2,000
	// an answer has nothing to spare; above 100,000 it crowds out the
	// conversation it is meant to serve.
	MinMaxChars = 2_000
	MaxMaxChars = 100_000

	// DefaultSummaryTimeout bounds how long a call with model summaries
	// waits for the model; sessions the model has not finished by then get
	// the offline summary. It stays well inside the 60 s a Codex tool call
	// may take.
	DefaultSummaryTimeout = 20 * time.Second
)

// Roles are the roles role_filter accepts.
var Roles = []string{"user", "assistant", "tool", "system"}

// Store is what the tool reads; *store.Store satisfies it. Its text
// reaches an answer only through recall's engine and a secrets.Reader.
type Store interface {
	secrets.Source
}

// Options configures a Tool.
type Options struct {
	// LLM is the configured model, nil for none: summaries are then offline.
	LLM *llm.Config
	// SummaryTimeout bounds model summaries (SummaryModel); 0 waits for the
	// model as long as its own timeouts allow (the CLI, where a person
	// watches it stream).
	SummaryTimeout time.Duration
}

// Tool answers session_search calls over one store. It is safe for
// concurrent use.
type Tool struct {
	st      Store
	offline *recall.Engine // discover, browse and extractive summaries
	model   *recall.Engine // model summaries; nil without a model
	opts    Options
}

// New returns a Tool over st.
func New(st Store, o Options) *Tool {
	t := &Tool{st: st, offline: recall.New(st, recall.Options{}), opts: o}
	if o.LLM != nil {
		t.model = recall.New(st, recall.Options{LLM: o.LLM})
	}
	return t
}

// Model returns the configured model's name, "" without one.
func (t *Tool) Model() string {
	if t.model == nil {
		return ""
	}
	return t.model.Model()
}

// SummaryMode says which summary each discover result carries.
type SummaryMode uint8

// The summary modes.
const (
	SummaryNone    SummaryMode = iota // evidence only (fastest)
	SummaryOffline                    // extractive, no model: the MCP default
	SummaryModel                      // the configured model, else offline
)

// Request is one call, decoded and checked by the caller.
type Request struct {
	Query string
	// Limit is the number of sessions for discover and browse: 0 is the
	// default (3), anything else is clamped to [1, 10].
	Limit int
	Sort  store.Sort
	// SessionID selects read, or with AroundMessageID (not 0) scroll. A
	// unique prefix is enough.
	SessionID       string
	AroundMessageID int64
	// Window is scroll's radius: 0 is the default (5), else clamped to [1, 20].
	Window int
	// Roles are the roles discover searches (default user, assistant).
	Roles []string
	// CurrentSessionID is the caller's own session: it and its whole
	// lineage are left out of discover and browse, and scroll refuses it.
	CurrentSessionID string
	// MaxChars is the answer budget in characters; 0 means none.
	MaxChars int
	Summary  SummaryMode
	// Fields, when set, keeps only these keys of each result (see Fields).
	Fields []string
	// Indent pretty-prints the JSON (two spaces), as a terminal wants;
	// the budget counts the characters actually printed.
	Indent bool
	// ShowSecrets keeps the API keys, tokens and passwords found in the
	// text; by default every one is replaced by [REDACTED:rule] (gitleaks'
	// rules), as answers go to models. Only a person asks for them, and a
	// model summary's prompt is redacted even then.
	ShowSecrets bool
}

// Response is one answer.
type Response struct {
	Mode string // discover, browse, scroll, read; "" for a failure
	JSON []byte // the answer as printed or sent, newline-terminated
	// IsError marks Hermes's error envelope: the caller's mistake (an
	// unknown session, an anchor elsewhere) or a failed search.
	IsError bool
	// Err is the runtime failure behind IsError; nil for a caller's mistake.
	Err error
}

// callerError is a mistake in the call itself; its message says how to fix it.
type callerError struct{ msg string }

func (e *callerError) Error() string { return e.msg }

func callerErrorf(format string, a ...any) error {
	return &callerError{msg: fmt.Sprintf(format, a...)}
}

// Call answers one request. It never fails: failures are answered with
// Hermes's error envelope (Response.IsError).
func (t *Tool) Call(ctx context.Context, req Request) Response {
	mode := req.mode()
	var env any
	var err error
	switch mode {
	case "scroll":
		env, err = t.scroll(ctx, req)
	case "read":
		env, err = t.read(ctx, req)
	case "browse":
		env, err = t.browse(ctx, req)
	default:
		env, err = t.discover(ctx, req)
	}
	if err != nil {
		return t.failure(err, req.Indent)
	}
	// Every text in env came through the engine or t.reader: redacted
	// whole before the budget cuts it.
	return Response{Mode: mode, JSON: fit(env, req)}
}

// engine is the engine that answers req: the offline one, keeping secrets
// in what it shows when the person asked.
func (t *Tool) engine(req Request) *recall.Engine {
	if req.ShowSecrets {
		return t.offline.ShowingSecrets()
	}
	return t.offline
}

// reader is the store as req may see it: redacted unless the person asked.
func (t *Tool) reader(req Request) *secrets.Reader {
	return secrets.ReaderFor(t.st, req.ShowSecrets)
}

// mode is the calling shape, chosen as Hermes chooses it.
func (r Request) mode() string {
	switch {
	case r.SessionID != "" && r.AroundMessageID != 0:
		return "scroll"
	case r.SessionID != "":
		return "read"
	case strings.TrimSpace(r.Query) == "":
		return "browse"
	}
	return "discover"
}

func (t *Tool) failure(err error, indent bool) Response {
	var ce *callerError
	msg := err.Error()
	resp := Response{IsError: true}
	if !errors.As(err, &ce) {
		msg = "Search failed: " + msg
		resp.Err = err
	}
	resp.JSON = render(Failure{Success: false, Error: msg}, indent)
	return resp
}

// render encodes v as the answer's JSON, without HTML escaping (the text is
// for a model or a terminal, not a browser).
func render(v any, indent bool) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		// Every envelope is plain data; this cannot happen.
		panic(fmt.Sprintf("sessionsearch: encode %T: %v", v, err))
	}
	return []byte(b.String())
}

// clamp returns def for 0, else v bounded to [lo, hi].
func clamp(v, def, lo, hi int) int {
	if v == 0 {
		return def
	}
	return min(max(v, lo), hi)
}

// resolveSession turns an id or unique prefix into a session id, with an
// error a model can act on.
func (t *Tool) resolveSession(ctx context.Context, id string) (string, error) {
	sid, err := t.st.ResolveSessionID(ctx, id)
	id, _ = clipText(id, 80, "") // echoed in errors: the caller may have passed anything
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", callerErrorf("session_id not found: %s (use a session_id from a discover or browse result)", id)
	case err != nil && strings.Contains(err.Error(), "ambiguous"):
		return "", callerErrorf("session_id %s matches several sessions; pass the whole id", id)
	case err != nil:
		return "", err
	}
	return sid, nil
}

// currentRoot is the lineage root of the caller's current session ("" for none).
func (t *Tool) currentRoot(ctx context.Context, current string) (id, root string, err error) {
	if current == "" {
		return "", "", nil
	}
	id = current
	if sid, err := t.st.ResolveSessionID(ctx, current); err == nil {
		id = sid
	}
	root, err = t.st.RootSession(ctx, id)
	if err != nil {
		return "", "", fmt.Errorf("resolve lineage of %s: %w", id, err)
	}
	return id, root, nil
}

// FailureJSON is Hermes's error envelope for msg, compact, for a caller
// that rejects a call before it reaches Call (arguments it cannot decode).
func FailureJSON(msg string) []byte {
	return render(Failure{Success: false, Error: msg}, false)
}
