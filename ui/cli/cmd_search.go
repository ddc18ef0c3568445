package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// searchArgs is the parsed command line.
type searchArgs struct {
	json, noSummary, schema bool
	showSecrets             bool
	here                    bool // only sessions run in this repository
	sessions                int
	maxChars                int
	exclude                 string
	roles, fields           []string
	query                   string
	session, around         string // --session ID [--around N]: read or scroll one session, as MCP's session_id + around_message_id
}

func parseSearchArgs(c *Command, env *Env, args []string) (searchArgs, error) {
	var a searchArgs
	var roles, fields string
	fs := newFlags(c, env)
	fs.BoolVar(&a.json, "json", false, "print Hermes session_search JSON (documented by --schema)")
	fs.IntVar(&a.sessions, "sessions", recall.DefaultSessions, fmt.Sprintf("unique sessions to return (1..%d)", recall.MaxSessions))
	fs.IntVar(&a.sessions, "limit", recall.DefaultSessions, "the same as --sessions (every other command's name for it)")
	fs.BoolVar(&a.noSummary, "no-summary", false, "evidence only: no summaries (instant)")
	fs.StringVar(&a.exclude, "exclude-session", "", "leave out this session and its whole lineage (e.g. the current one)")
	fs.StringVar(&roles, "role", "", "comma-separated roles to search (default user,assistant)")
	fs.IntVar(&a.maxChars, "max-chars", 0, fmt.Sprintf("with --json: fit the answer in this many characters (at least %d; 0 = no limit)", sessionsearch.MinMaxChars))
	fs.StringVar(&fields, "fields", "", "with --json: keep only these comma-separated keys of each result")
	fs.BoolVar(&a.here, "here", false, "only sessions run in this repository (or directory)")
	fs.BoolVar(&a.schema, "schema", false, "print the JSON Schema of the --json answers and exit")
	fs.StringVar(&a.session, "session", "", "read this `ID` (a unique prefix will do) instead of searching: head and tail, or with --around the messages around one")
	fs.StringVar(&a.around, "around", "", "with --session: the messages around message `N` (the id --json gives, as around_message_id; #6 is the 6th message)")
	fs.BoolVar(&a.showSecrets, "show-secrets", false, "keep API keys, tokens and passwords in what is shown (redacted by default, as the answer may go to a model); a model's summary prompt is redacted even so")
	words, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return a, err
		}
		return a, usageError("%v", err)
	}
	if a.sessions < 1 || a.sessions > recall.MaxSessions {
		return a, usageError("--sessions (--limit) must be between 1 and %d, not %d", recall.MaxSessions, a.sessions)
	}
	for _, r := range splitList(roles) {
		r = strings.ToLower(r)
		if !slices.Contains(sessionsearch.Roles, r) {
			return a, usageError("unknown role %q (want %s)", r, strings.Join(sessionsearch.Roles, ", "))
		}
		if !slices.Contains(a.roles, r) {
			a.roles = append(a.roles, r)
		}
	}
	a.query = strings.TrimSpace(strings.Join(words, " "))
	if a.around != "" && a.session == "" {
		return a, usageError("--around scrolls a session: add --session ID")
	}
	if a.here && (a.json || a.query == "" || a.session != "") {
		return a, usageError("--here scopes a text search to this repository: give a query, without --json or --session (recent sessions: recall recent --here)")
	}
	if a.session != "" && a.query != "" {
		return a, usageError("--session reads one session: leave out the query %q", a.query)
	}
	a.fields = splitList(fields)
	if (a.maxChars != 0 || len(a.fields) > 0) && !a.json {
		return a, usageError("--max-chars and --fields shape the JSON answer: add --json")
	}
	if a.maxChars != 0 && a.maxChars < sessionsearch.MinMaxChars {
		return a, usageError("--max-chars must be 0 (no limit) or at least %d, not %d", sessionsearch.MinMaxChars, a.maxChars)
	}
	if err := sessionsearch.CheckFields(a.query, a.fields); err != nil {
		return a, usageError("--fields: %v", err)
	}
	return a, nil
}

// `recall search` is the session-level answer: Hermes's session_search
// (discover and browse modes, the same JSON envelopes, so an agent that knows
// that tool can call recall instead) plus phase 2's summaries. Its JSON is
// the contract assets/schema/session_search.schema.json documents: exit 0
// with count 0 on no match, 1 on a runtime error (with the error envelope
// on stdout), 2 on a usage error.
func runSearch(env *Env, c *Command, args []string) error {
	a, err := parseSearchArgs(c, env, args)
	if err != nil {
		return err
	}
	if a.schema {
		_, err := env.Stdout.Write(assets.SessionSearchSchema())
		return err
	}
	st, err := env.openForRead()
	if err != nil {
		return searchFailed(env, a, err)
	}
	defer st.Close()

	cfg, cfgErr := llm.Load(os.Getenv)
	if cfgErr != nil && !a.noSummary {
		fmt.Fprintf(env.Stderr, "recall: %v; using offline summaries\n", cfgErr)
	}
	tool := sessionsearch.New(st, sessionsearch.Options{LLM: cfg})
	view := secrets.ReaderFor(st, a.showSecrets)
	if a.session != "" && !a.json {
		if err := printSessionWindow(env, view, a.session, a.around); err != nil {
			return searchFailed(env, a, err)
		}
		return nil
	}
	var around int64
	if a.session != "" {
		if around, err = aroundID(env, view, a.session, a.around); err != nil {
			return searchFailed(env, a, err)
		}
	}
	if a.json {
		req := sessionsearch.Request{Query: a.query, Limit: a.sessions, Roles: a.roles, CurrentSessionID: a.exclude,
			MaxChars: a.maxChars, Fields: a.fields, Summary: sessionsearch.SummaryModel, Indent: true,
			SessionID: a.session, AroundMessageID: around, ShowSecrets: a.showSecrets}
		if a.noSummary {
			req.Summary = sessionsearch.SummaryNone
		}
		resp := tool.Call(env.Ctx, req)
		if _, err := env.Stdout.Write(resp.JSON); err != nil {
			return err
		}
		if resp.IsError {
			if resp.Err != nil {
				return resp.Err
			}
			return errors.New("search failed (see the error envelope)")
		}
		return nil
	}

	if a.query == "" {
		return printBrowse(env, st, tool, a)
	}
	e := recall.New(st, recall.Options{Sessions: a.sessions, LLM: cfg, ShowSecrets: a.showSecrets})
	exclude := a.exclude
	if exclude != "" {
		if id, err := st.ResolveSessionID(env.Ctx, exclude); err == nil {
			exclude = id
		}
	}
	d, err := e.Discover(env.Ctx, a.query, recall.DiscoverOptions{Limit: a.sessions, CurrentSessionID: exclude,
		Filter: store.SearchFilter{Roles: a.roles, Cwd: hereDir(a.here)}})
	if err != nil {
		return err
	}
	summarize := !a.noSummary && len(d.Results) > 0
	printDiscovery(env, st, d)
	if summarize {
		fmt.Fprintln(env.Stdout)
		p := newSummaryPrinter(env, d.Results)
		e.Summarize(env.Ctx, a.query, d.Results, p.on)
		p.finish()
		if !e.HasModel() {
			// Each summary is headed "Offline summary (no model configured)";
			// this says once, after them, how to get model summaries instead.
			fmt.Fprintln(env.Stdout)
			for _, l := range proseLines("(for model summaries set RECALL_LLM_BASE_URL and RECALL_LLM_MODEL; see the README's \"Summaries\")", env.termWidth(), " ") {
				fmt.Fprintln(env.Stdout, l)
			}
		}
	}
	return nil
}

// searchFailed reports a failed search, as Hermes's tool_error envelope in JSON mode.
func searchFailed(env *Env, a searchArgs, err error) error {
	if a.json {
		_ = printJSON(env.Stdout, sessionsearch.Failure{Success: false, Error: "Search failed: " + err.Error()})
	}
	return err
}

// maxQueryEcho is how many characters of the query the text header repeats.
const maxQueryEcho = 100

func printDiscovery(env *Env, st *store.Store, d *recall.Discovery) {
	w := env.Stdout
	if d.Notice != "" {
		fmt.Fprintln(env.Stderr, "recall search: note: "+termtext.Sanitize(d.Notice))
	}
	// A pasted log line can be thousands of characters: the header
	// names the query, it does not repeat it.
	query := termtext.Clip(d.Query, maxQueryEcho)
	if len(d.Results) == 0 {
		fmt.Fprintf(w, "No matching sessions found for %q.\n", query)
		if how := recall.QueryReading(d); how != "" {
			fmt.Fprintf(w, "%s\n", termtext.Line(how, 160))
		}
		return
	}
	// Prose and the lines that name things are wrapped to the width (the
	// terminal's, 100 columns in a pipe), an id never cut; the evidence
	// lines are one-line excerpts, cut with "…".
	width := env.termWidth()
	line := func(s string) { fmt.Fprintln(w, fitLine(s, width)) }
	lines := func(ls []string) {
		for _, l := range ls {
			fmt.Fprintln(w, l)
		}
	}
	ids := make([]string, 0, 2*len(d.Results))
	for _, r := range d.Results {
		ids = append(ids, r.SessionID, r.RootID)
	}
	short := shortIDsOf(env, st, ids)
	lines(proseLines(fmt.Sprintf("%s for %q (%s index, %s)", plural(len(d.Results), "session", "sessions"), query, d.Index, d.Elapsed.Round(time.Millisecond)), width, "  "))
	if how := recall.QueryReading(d); how != "" {
		lines(proseLines(how, width, "  "))
	}
	for i, r := range d.Results {
		fmt.Fprintln(w)
		lines(proseLines(fmt.Sprintf("%d. %s", i+1, field(titleOr(r.Name()))), width, "   "))
		model := field(r.Model)
		if model == "" {
			model = "unknown model"
		}
		parts := []string{plural(r.Hits, "hit", "hits"), field(r.Source), model, humanTime(r.When), "session " + short.shown(r.SessionID)}
		if r.RootID != "" && r.RootID != r.SessionID {
			parts = append(parts, "in "+short.shown(r.RootID))
		}
		if m := recall.MatchedText(r.Matched, d.Words); m != "" {
			parts = append(parts, m)
		}
		lines(fieldLines("   ", "   ", parts, width))
		// Messages are named by their place in the session ("#6 of 8"),
		// as in the TUI and the summaries; ids are in --json.
		ids, _ := st.MessageIDs(env.Ctx, r.SessionID)
		pos := positionsOf(ids)
		head := fmt.Sprintf("   %s %s: ", field(r.MatchedRole), pos(r.MatchMessageID))
		fmt.Fprintln(w, head+fitSnippet(r.Snippet, width-termtext.Width(head), env.StdoutIsTerminal))
		if len(r.BookendStart) > 0 {
			line(fmt.Sprintf("     start  %s %s: %s", pos(r.BookendStart[0].ID), field(r.BookendStart[0].Role), termtext.Line(recall.ReadableText(r.BookendStart[0]), width)))
		}
		for _, m := range r.Messages {
			mark := "      "
			if m.ID == r.MatchMessageID {
				mark = "   >  "
			}
			line(fmt.Sprintf("%s %s %s: %s", mark, pos(m.ID), field(recall.Speaker(m)), termtext.Line(recall.ReadableText(m), width)))
		}
		if n := len(r.BookendEnd); n > 0 {
			last := r.BookendEnd[n-1]
			line(fmt.Sprintf("     end    %s %s: %s", pos(last.ID), field(last.Role), termtext.Line(recall.ReadableText(last), width)))
		}
	}
}

// titleOr is a name for a session: its title (recall.SessionName already
// applied by the caller), else "(untitled)".
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
	// san sanitises each result's deltas as one stream: an escape
	// sequence split between two deltas is removed whole.
	san []termtext.Stream
	// out wraps the prose to the terminal's width (100 columns in a pipe).
	out *wrapWriter
}

func newSummaryPrinter(env *Env, results []recall.Result) *summaryPrinter {
	p := &summaryPrinter{env: env, results: results, buf: make([]strings.Builder, len(results)),
		done: make([]*recall.Summary, len(results)), streamed: make([]bool, len(results)), san: make([]termtext.Stream, len(results)),
		out: &wrapWriter{w: env.Stdout, width: env.termWidth()}}
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
	p.out.Write(fmt.Sprintf("── %d. %s ──\n", i+1, termtext.Line(titleOr(p.results[i].Name()), max(20, p.out.width-10))))
	if s := p.buf[i].String(); s != "" {
		p.out.Write(p.san[i].Write(s))
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
			p.out.Write(p.san[i].Write(ev.Delta))
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
	s, w := p.done[i], p.out
	streamed := p.buf[i].String()
	switch {
	case s.Text == streamed:
		w.Write(p.san[i].Flush())
	case streamed == "":
		w.Write(termtext.Sanitize(s.Text))
	default:
		w.Write("\n\n" + termtext.Sanitize(s.Text))
	}
	if s.Kind == recall.SummaryModel {
		w.Write(fmt.Sprintf("\n(%s)\n\n", field(s.Model)))
	} else {
		w.Write("\n\n")
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
	p.out.Flush()
}

// printBrowse is the empty-query mode on a terminal: recent sessions, no model.
func printBrowse(env *Env, st *store.Store, tool *sessionsearch.Tool, a searchArgs) error {
	kept, err := tool.Browse(env.Ctx, a.sessions, a.exclude, a.showSecrets)
	if err != nil {
		return err
	}
	if len(kept) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions yet.")
		return nil
	}
	ids := make([]string, len(kept))
	for i, s := range kept {
		ids[i] = s.ID
	}
	short := shortIDsOf(env, st, ids)
	width := env.termWidth()
	fmt.Fprintf(env.Stdout, "%s, by last activity:\n", plural(len(kept), "most recent session", "most recent sessions"))
	for i, s := range kept {
		fmt.Fprintln(env.Stdout)
		for _, l := range proseLines(fmt.Sprintf("%d. %s", i+1, field(titleOr(recall.SessionName(s.Title, s.Preview)))), width, "   ") {
			fmt.Fprintln(env.Stdout, l)
		}
		for _, l := range fieldLines("   ", "   ", []string{field(s.Source), humanTime(s.LastActive),
			plural(s.MessageCount, "message", "messages"), "session " + short.shown(s.ID)}, width) {
			fmt.Fprintln(env.Stdout, l)
		}
		if s.Preview != "" {
			fmt.Fprintf(env.Stdout, "   %s\n", termtext.Line(s.Preview, max(10, width-3)))
		}
	}
	return nil
}
