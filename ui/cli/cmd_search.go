package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/store"
)

// searchRoles are the roles --role accepts.
var searchRoles = []string{"user", "assistant", "tool", "system"}

// searchArgs is the parsed command line.
type searchArgs struct {
	json, noSummary bool
	sessions        int
	exclude         string
	roles           []string
	query           string
}

func parseSearchArgs(c *Command, env *Env, args []string) (searchArgs, error) {
	var a searchArgs
	var roles string
	fs := newFlags(c, env)
	fs.BoolVar(&a.json, "json", false, "print Hermes session_search JSON")
	fs.IntVar(&a.sessions, "sessions", recall.DefaultSessions, fmt.Sprintf("unique sessions to return (1..%d)", recall.MaxSessions))
	fs.BoolVar(&a.noSummary, "no-summary", false, "evidence only: no summaries (instant)")
	fs.StringVar(&a.exclude, "exclude-session", "", "leave out this session and its whole lineage (e.g. the current one)")
	fs.StringVar(&roles, "role", "", "comma-separated roles to search (default user,assistant)")
	words, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return a, err
		}
		return a, usageError("%v", err)
	}
	if a.sessions < 1 || a.sessions > recall.MaxSessions {
		return a, usageError("--sessions must be between 1 and %d, not %d", recall.MaxSessions, a.sessions)
	}
	for _, r := range splitList(roles) {
		r = strings.ToLower(r)
		if !slices.Contains(searchRoles, r) {
			return a, usageError("unknown role %q (want %s)", r, strings.Join(searchRoles, ", "))
		}
		if !slices.Contains(a.roles, r) {
			a.roles = append(a.roles, r)
		}
	}
	a.query = strings.TrimSpace(strings.Join(words, " "))
	return a, nil
}

// `recall search` is the session-level answer: Hermes's session_search
// (discover and browse modes, the same JSON envelopes, so an agent that knows
// that tool can call recall instead) plus phase 2's summaries.
func runSearch(env *Env, c *Command, args []string) error {
	a, err := parseSearchArgs(c, env, args)
	if err != nil {
		return err
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()

	cfg, cfgErr := llm.Load(os.Getenv)
	if cfgErr != nil && !a.noSummary {
		fmt.Fprintf(env.Stderr, "recall: %v; using offline summaries\n", cfgErr)
	}
	e := recall.New(st, recall.Options{Sessions: a.sessions, LLM: cfg})

	exclude := a.exclude
	if exclude != "" {
		if id, err := st.ResolveSessionID(env.Ctx, exclude); err == nil {
			exclude = id
		}
	}
	if a.query == "" {
		return runBrowse(env, st, e, a, exclude)
	}
	d, err := e.Discover(env.Ctx, a.query, recall.DiscoverOptions{Limit: a.sessions, CurrentSessionID: exclude,
		Filter: store.SearchFilter{Roles: a.roles}})
	if err != nil {
		return searchFailed(env, a, err)
	}
	summarize := !a.noSummary && len(d.Results) > 0
	if a.json {
		var sums []recall.Summary
		if summarize {
			sums = e.Summarize(env.Ctx, a.query, d.Results, nil)
		}
		return printJSON(env.Stdout, discoverEnvelope(d, sums))
	}
	printDiscovery(env, e, d, summarize)
	if summarize {
		fmt.Fprintln(env.Stdout)
		p := newSummaryPrinter(env, d.Results)
		e.Summarize(env.Ctx, a.query, d.Results, p.on)
		p.finish()
	}
	return nil
}

// searchFailed reports a failed search, as Hermes's tool_error envelope in JSON mode.
func searchFailed(env *Env, a searchArgs, err error) error {
	if a.json {
		_ = printJSON(env.Stdout, map[string]any{"success": false, "error": "Search failed: " + err.Error()})
	}
	return err
}

// jsonMessage is a message in Hermes's shape: None values dropped except content.
type jsonMessage struct {
	ID         int64           `json:"id"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Timestamp  float64         `json:"timestamp"`
	ToolName   string          `json:"tool_name,omitempty"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Anchor     bool            `json:"anchor,omitempty"`
}

// jsonResult is one discover result, Hermes's fields plus hits and summary.
type jsonResult struct {
	SessionID       string        `json:"session_id"`
	When            string        `json:"when"`
	Source          string        `json:"source"`
	Model           string        `json:"model"`
	Title           *string       `json:"title"`
	MatchedRole     string        `json:"matched_role"`
	MatchMessageID  int64         `json:"match_message_id"`
	Snippet         string        `json:"snippet"`
	BookendStart    []jsonMessage `json:"bookend_start"`
	Messages        []jsonMessage `json:"messages"`
	BookendEnd      []jsonMessage `json:"bookend_end"`
	MessagesBefore  int           `json:"messages_before"`
	MessagesAfter   int           `json:"messages_after"`
	ParentSessionID string        `json:"parent_session_id,omitempty"`
	Hits            int           `json:"hits"`
	Summary         string        `json:"summary,omitempty"`
	SummaryKind     string        `json:"summary_kind,omitempty"`
	SummaryReason   string        `json:"summary_reason,omitempty"`
}

// jsonDiscover is Hermes's discover envelope plus the index that served it.
type jsonDiscover struct {
	Success          bool         `json:"success"`
	Mode             string       `json:"mode"`
	Query            string       `json:"query"`
	Results          []jsonResult `json:"results"`
	Count            int          `json:"count"`
	SessionsSearched int          `json:"sessions_searched"`
	Index            store.Index  `json:"index"`
	Message          string       `json:"message,omitempty"`
}

func discoverEnvelope(d *recall.Discovery, sums []recall.Summary) jsonDiscover {
	env := jsonDiscover{Success: true, Mode: "discover", Query: d.Query, Results: make([]jsonResult, 0, len(d.Results)),
		Count: len(d.Results), SessionsSearched: d.SessionsSearched, Index: d.Index}
	if len(d.Results) == 0 {
		env.Message = "No matching sessions found."
	}
	for i, r := range d.Results {
		jr := jsonResult{SessionID: r.SessionID, When: recall.FormatWhen(r.When), Source: r.Source, Model: r.Model,
			MatchedRole: r.MatchedRole, MatchMessageID: r.MatchMessageID, Snippet: snippetText(r.Snippet, false),
			BookendStart: jsonMessages(r.BookendStart, 0), Messages: jsonMessages(r.Messages, r.MatchMessageID),
			BookendEnd: jsonMessages(r.BookendEnd, 0), MessagesBefore: r.MessagesBefore, MessagesAfter: r.MessagesAfter,
			Hits: r.Hits}
		if jr.Model == "" {
			jr.Model = "unknown"
		}
		if r.Title != "" {
			t := r.Title
			jr.Title = &t
		}
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

func jsonMessages(msgs []store.Message, anchor int64) []jsonMessage {
	out := make([]jsonMessage, 0, len(msgs))
	for _, m := range msgs {
		jm := jsonMessage{ID: m.ID, Role: m.Role, Content: m.Content, Timestamp: epoch(m.Timestamp),
			ToolName: m.ToolName, ToolCallID: m.ToolCallID, Anchor: anchor != 0 && m.ID == anchor}
		if m.ToolCalls != "" {
			if json.Valid([]byte(m.ToolCalls)) {
				jm.ToolCalls = json.RawMessage(m.ToolCalls)
			} else {
				jm.ToolCalls, _ = json.Marshal(m.ToolCalls)
			}
		}
		out = append(out, jm)
	}
	return out
}

// epoch is a time as Hermes stores it: float Unix seconds (0 when unknown).
func epoch(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}

func printDiscovery(env *Env, e *recall.Engine, d *recall.Discovery, summarize bool) {
	w := env.Stdout
	if len(d.Results) == 0 {
		fmt.Fprintf(w, "No matching sessions found for %q.\n", d.Query)
		return
	}
	fmt.Fprintf(w, "%d session(s) for %q (%s index, %s)\n", len(d.Results), d.Query, d.Index, d.Elapsed.Round(time.Millisecond))
	for i, r := range d.Results {
		fmt.Fprintf(w, "\n%d. %s\n", i+1, termtext.Line(titleOr(r.Title), 100))
		model := field(r.Model)
		if model == "" {
			model = "unknown model"
		}
		where := "session " + displayID(r.SessionID)
		if r.RootID != "" && r.RootID != r.SessionID {
			where += " (in " + displayID(r.RootID) + ")"
		}
		fmt.Fprintf(w, "   %s · %s · %s · %d hit(s) · %s\n", field(r.Source), model, recall.FormatWhen(r.When), r.Hits, where)
		fmt.Fprintf(w, "   %s #%d: %s\n", field(r.MatchedRole), r.MatchMessageID, snippetText(termtext.Clip(termtext.OneLine(termtext.SanitizeSnippet(r.Snippet)), 160), env.StdoutIsTerminal))
		if len(r.BookendStart) > 0 {
			fmt.Fprintf(w, "     start  #%d %s: %s\n", r.BookendStart[0].ID, field(r.BookendStart[0].Role), termtext.Line(r.BookendStart[0].Content, 100))
		}
		for _, m := range r.Messages {
			mark := "      "
			if m.ID == r.MatchMessageID {
				mark = "   >  "
			}
			fmt.Fprintf(w, "%s #%d %s: %s\n", mark, m.ID, field(m.Role), termtext.Line(m.Content, 100))
		}
		if n := len(r.BookendEnd); n > 0 {
			last := r.BookendEnd[n-1]
			fmt.Fprintf(w, "     end    #%d %s: %s\n", last.ID, field(last.Role), termtext.Line(last.Content, 100))
		}
	}
	if summarize && !e.HasModel() {
		fmt.Fprintln(w, "\n(no model configured: offline summaries; set RECALL_LLM_BASE_URL and RECALL_LLM_MODEL for model summaries)")
	}
}

func titleOr(t string) string {
	if t == "" {
		return "(untitled)"
	}
	return t
}

// summaryPrinter streams summaries to the terminal in result order: the
// current result's deltas are written as they arrive, later results are
// buffered until their turn, so concurrent streams never interleave.
type summaryPrinter struct {
	mu       sync.Mutex
	env      *Env
	results  []recall.Result
	cur      int
	buf      []strings.Builder
	done     []*recall.Summary
	streamed []bool // the current result's header (and maybe deltas) are out
}

func newSummaryPrinter(env *Env, results []recall.Result) *summaryPrinter {
	p := &summaryPrinter{env: env, results: results, buf: make([]strings.Builder, len(results)),
		done: make([]*recall.Summary, len(results)), streamed: make([]bool, len(results))}
	p.mu.Lock()
	p.header(0)
	p.mu.Unlock()
	return p
}

func (p *summaryPrinter) header(i int) {
	if i >= len(p.results) || p.streamed[i] {
		return
	}
	p.streamed[i] = true
	fmt.Fprintf(p.env.Stdout, "── %d. %s ──\n", i+1, termtext.Line(titleOr(p.results[i].Title), 80))
	if s := p.buf[i].String(); s != "" {
		fmt.Fprint(p.env.Stdout, termtext.Sanitize(s))
	}
}

// on is the Summarize callback; it may be called from several goroutines.
func (p *summaryPrinter) on(ev recall.SummaryEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := ev.Index
	if ev.Done {
		p.done[i] = ev.Summary
	} else {
		p.buf[i].WriteString(ev.Delta)
		if i == p.cur {
			fmt.Fprint(p.env.Stdout, termtext.Sanitize(ev.Delta))
		}
	}
	for p.cur < len(p.results) && p.done[p.cur] != nil {
		p.complete(p.cur)
		p.cur++
		p.header(p.cur)
	}
}

// complete ends result i's section: a summary that did not come as the
// deltas already shown (offline, or a fallback after a failed stream) is
// printed whole.
func (p *summaryPrinter) complete(i int) {
	s, w := p.done[i], p.env.Stdout
	streamed := p.buf[i].String()
	switch {
	case s.Text == streamed:
	case streamed == "":
		fmt.Fprint(w, termtext.Sanitize(s.Text))
	default:
		fmt.Fprint(w, "\n\n"+termtext.Sanitize(s.Text))
	}
	if s.Kind == recall.SummaryModel {
		fmt.Fprintf(w, "\n(%s)\n\n", field(s.Model))
	} else {
		fmt.Fprint(w, "\n\n")
	}
}

// finish flushes anything not yet printed (Summarize has returned, so every
// result is done).
func (p *summaryPrinter) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.cur < len(p.results) && p.done[p.cur] != nil {
		p.complete(p.cur)
		p.cur++
		p.header(p.cur)
	}
}

// runBrowse is the empty-query mode: recent sessions, no model.
func runBrowse(env *Env, st *store.Store, e *recall.Engine, a searchArgs, exclude string) error {
	root := ""
	if exclude != "" {
		if r, err := st.RootSession(env.Ctx, exclude); err == nil {
			root = r
		}
	}
	// A few extra rows, as Hermes asks for, so dropping the current session still fills the page.
	list, err := e.Browse(env.Ctx, store.ListOptions{Limit: a.sessions + 5})
	if err != nil {
		return searchFailed(env, a, err)
	}
	kept := list[:0]
	for _, s := range list {
		if exclude != "" && (s.ID == exclude || s.ID == root) {
			continue
		}
		if len(kept) < a.sessions {
			kept = append(kept, s)
		}
	}
	if a.json {
		type item struct {
			SessionID    string  `json:"session_id"`
			Title        *string `json:"title"`
			Source       string  `json:"source"`
			StartedAt    float64 `json:"started_at"`
			LastActive   float64 `json:"last_active"`
			MessageCount int     `json:"message_count"`
			Preview      string  `json:"preview"`
		}
		items := make([]item, 0, len(kept))
		for _, s := range kept {
			it := item{SessionID: s.ID, Source: s.Source, StartedAt: epoch(s.StartedAt), LastActive: epoch(s.LastActive),
				MessageCount: s.MessageCount, Preview: s.Preview}
			if s.Title != "" {
				t := s.Title
				it.Title = &t
			}
			items = append(items, it)
		}
		return printJSON(env.Stdout, map[string]any{"success": true, "mode": "browse", "results": items, "count": len(items),
			"message": fmt.Sprintf("Showing %d most recent sessions. Pass a query to search.", len(items))})
	}
	if len(kept) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions yet.")
		return nil
	}
	fmt.Fprintf(env.Stdout, "%d most recent session(s):\n", len(kept))
	for i, s := range kept {
		fmt.Fprintf(env.Stdout, "\n%d. %s\n   %s · %s · %d message(s) · session %s\n", i+1, termtext.Line(titleOr(s.Title), 100),
			field(s.Source), recall.FormatWhen(s.LastActive), s.MessageCount, displayID(s.ID))
		if s.Preview != "" {
			fmt.Fprintf(env.Stdout, "   %s\n", termtext.Line(s.Preview, 100))
		}
	}
	return nil
}
