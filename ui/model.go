// Package ui is recall's interactive terminal UI (Bubble Tea).
//
// One root model (Model) owns plain child structs: the search box (Bubbles'
// textinput, searchBox), the session list (listView), the detail pane (detailView: a
// transcript rendered with Glamour), the streaming summary panel
// (summaryPanel), the filters (filterSet) and the status line. Update only
// dispatches; every piece of I/O — searching, loading and rendering a
// transcript, summarising, exporting — runs in a tea.Cmd that copies what it
// needs into locals, and its answer comes back as a message carrying the
// request id (seq) it was made for, so answers to superseded requests are
// dropped. View only joins strings that were rendered earlier.
//
//	keystroke ─▶ queryChanged: seq++, cancel ─▶ Discover(PhaseFirst) ─▶ resultsMsg ─┐
//	                                          └▶ Discover(PhaseFinal) ─▶ resultsMsg ─┤ seq == m.seq?
//	selection moved ─▶ transcriptLoadMsg (after 40 ms) ─▶ Transcript+Glamour ─▶ transcriptMsg
//	s/enter ─▶ Summarize (goroutines) ─▶ summaryStream ◀─ frame tick (30/s) ─▶ block-cached render
package ui

import (
	"context"
	"os"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// focus is which region receives keys.
type focus uint8

const (
	focusSearch focus = iota
	focusList
	focusDetail
)

// String names the focus, for logs and tests.
func (f focus) String() string {
	return [...]string{"search", "list", "detail"}[f]
}

// Options configures the TUI.
type Options struct {
	// Style is the pinned Glamour style (JSON); nil uses Glamour's dark style.
	Style []byte
	// SummarizeTop is how many sessions S summarises (default 3).
	SummarizeTop int
	// Sources seeds the source filter until the backend has listed the
	// sources the database holds.
	Sources []string
	// Query is typed into the search box at start.
	Query string
	// Now is the clock (tests pin it); nil is time.Now.
	Now func() time.Time
	// Clipboard is where y and Y copy to; nil is the system's
	// (SystemClipboard over the terminal Run draws on).
	Clipboard Clipboard
	// Light draws for a light terminal background (pass the light
	// markdown Style with it).
	Light bool
	// Project is the repository (else the directory) recall started in,
	// which the scope key (F7) limits sessions to; Here starts scoped
	// (recall --here).
	Project string
	Here    bool
	// Paste reads the clipboard for ctrl-v in the search box; nil is
	// SystemPaste (tmux's buffer inside tmux).
	Paste PasteFunc
	// Notice is a line shown in the status bar at start (e.g. "opened read-only").
	Notice string
	// NoColor drops every colour (NO_COLOR, https://no-color.org): styles
	// and markdown keep only bold, italic, underline, faint and reverse.
	NoColor bool
	// ResumeLine is the shell command that resumes a session (cd DIR &&
	// AGENT --resume ID), which Y copies; nil: Y has nothing to copy.
	ResumeLine func(store.Session) (string, error)
	// Pick makes the TUI a picker (recall pick): enter ends it with the
	// selected session, which Pick returns.
	Pick bool
	// Height > 0 draws the TUI in that many lines (inline under the prompt,
	// with Pick) rather than the whole terminal.
	Height int
	// RefreshEvery is how often the database is checked for writes by other
	// processes (recall watch, an import, an agent); 0 means 2 s, negative never.
	RefreshEvery time.Duration
	// Keys are the key bindings (ConfigureKeys: the config file's "keys");
	// nil is DefaultKeyMap.
	Keys *KeyMap
}

// Model is the root Bubble Tea model of the TUI.
type Model struct {
	ctx     context.Context
	backend Backend
	opts    Options
	keys    KeyMap // the bindings live in the current focus (updateKeys)
	allKeys KeyMap // every binding in force, whatever the focus: what F1 shows
	styles  *Styles
	md      *markdown
	help    help.Model

	input   searchBox
	list    listView
	detail  detailView
	summary summaryPanel
	filters filterSet
	status  statusLine
	layout  layout

	focus         focus
	width, height int
	showHelp      bool
	helpScroll    scroller // the help's window when it is taller than the screen

	seq        uint64 // search request id
	topSeq     uint64 // the request whose answers put the selection on the top result
	userMoved  bool   // the user moved the selection since the query last changed
	listOnly   bool   // the layout toggle: the list alone, the detail pane on enter
	byRecency  bool   // the sort toggle: a query's results newest hit first, not by relevance
	cancel     context.CancelFunc
	searching  bool
	finalSeq   uint64 // the seq whose PhaseFinal answer arrived
	lastQuery  string // the query the list shows
	emptyDB    bool   // the database has no sessions at all (first run)
	seqDetail  uint64
	seqSummary uint64
	quitting   bool
	picked     string // the session chosen with enter (Pick)

	popup   popup  // the boxed dialog over the screen (export), if open
	dbToken string // the database's change token when the list was last refreshed
	polled  bool   // the first (baseline) reading of dbToken was taken
}

// New returns the TUI model over backend. ctx bounds every command it runs.
func New(ctx context.Context, backend Backend, opts Options) *Model {
	// The secret rules take ~25 ms to compile: do it while the first
	// screen is drawn, not when the first transcript opens.
	secrets.Preload()
	if opts.SummarizeTop <= 0 {
		opts.SummarizeTop = 3
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RefreshEvery == 0 {
		opts.RefreshEvery = defaultRefreshEvery
	}
	if opts.Clipboard == nil {
		opts.Clipboard = SystemClipboard{Terminal: os.Stdout}
	}
	if opts.Paste == nil {
		opts.Paste = SystemPaste
	}
	st := DefaultStyles()
	switch {
	case opts.NoColor:
		st = MonochromeStyles()
	case opts.Light:
		st = LightStyles()
	}
	keyHelp := help.New()
	keyHelp.Styles = st.Keys
	keys := DefaultKeyMap()
	if opts.Keys != nil {
		keys = *opts.Keys
	}
	m := &Model{ctx: ctx, backend: backend, opts: opts, keys: keys, allKeys: keys, styles: st,
		md: newMarkdown(opts.Style, opts.NoColor), help: keyHelp, filters: newFilterSet(opts.Sources)}
	m.filters.project = opts.Project
	m.filters.here = opts.Here && opts.Project != ""
	m.input = newSearchBox(st)
	m.input.SetValue(opts.Query)
	m.list = listView{styles: st, now: opts.Now, emptyMsg: "searching…", dirty: true}
	m.detail.styles = st
	m.status.styles = st
	if opts.Notice != "" {
		m.status.set(opts.Notice, false)
	}
	if opts.Pick {
		m.keys.Open.SetHelp(m.keys.Open.Help().Key, "pick")
	}
	m.setFocus(focusSearch)
	m.resize(80, 24)
	return m
}

// Init starts the first query (recent sessions for an empty box). The
// start-up notice (Options.Notice) stays until the query is edited.
func (m *Model) Init() tea.Cmd {
	first := m.search()
	m.topSeq, m.userMoved = m.seq, false
	return tea.Batch(first, m.pollChanges(), m.loadSources())
}

// sourcesMsg carries the sources the database holds, and the sessions
// whose source files the agent deleted.
type sourcesMsg struct {
	sources []string
	gone    map[string]bool
	hosts   map[string]string
	err     error
}

// HostsBackend is implemented by a Backend that knows which sessions were
// synced from another machine (store.Store.SessionHosts): the list names
// the machine beside the source, and the source filter offers "@machine".
type HostsBackend interface {
	SessionHosts(ctx context.Context) (map[string]string, error)
}

// ShortIDBackend is implemented by a Backend that knows the short ids
// people see and type back (store.Store.ShortIDs): the detail pane names
// its session by one; without it, by the stored id.
type ShortIDBackend interface {
	ShortIDs(ctx context.Context, ids []string) (map[string]string, error)
}

// GoneBackend is implemented by a Backend that knows which sessions' source
// files are gone from disk (store.Store.SourceGone): recall keeps them, and
// the list marks them "file deleted".
type GoneBackend interface {
	SourceGone(ctx context.Context) (map[string]bool, error)
}

// loadSources asks the backend which sources the database holds, so the
// source filter offers only those, and which sessions lost their files.
func (m *Model) loadSources() tea.Cmd {
	ctx, backend := m.ctx, m.backend
	return func() tea.Msg {
		src, err := backend.Sources(ctx)
		var gone map[string]bool
		if g, ok := backend.(GoneBackend); ok && err == nil {
			// Best effort: without it the list simply has no markers.
			gone, _ = g.SourceGone(ctx)
		}
		var hosts map[string]string
		if h, ok := backend.(HostsBackend); ok && err == nil {
			hosts, _ = h.SessionHosts(ctx)
			src = append(src, machineChoices(hosts)...)
		}
		return sourcesMsg{sources: src, gone: gone, hosts: hosts, err: err}
	}
}

// Update dispatches a message to the part of the model it concerns.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m, m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case tea.MouseMsg:
		return m, m.handleMouse(msg)
	case dbPollMsg:
		return m, m.dbPolled(msg)
	case resultsMsg:
		return m, m.applyResults(msg)
	case transcriptLoadMsg:
		return m, m.loadTranscript(msg)
	case transcriptMsg:
		return m, m.applyTranscript(msg)
	case summaryTickMsg:
		return m, m.onSummaryTick(msg)
	case summaryRenderedMsg:
		return m, m.applySummaryFrame(msg)
	case summaryDoneMsg:
		return m, m.onSummaryDone(msg)
	case execRequestMsg:
		return m, m.runExec(msg)
	case execDoneMsg:
		return m, m.execDone(msg)
	case statusMsg:
		return m, m.status.set(msg.text, msg.err)
	case statusExpireMsg:
		m.status.expire(msg.id)
		return m, nil
	case pasteMsg:
		return m, m.pasted(msg)
	case exportResultMsg:
		return m, m.exportDone(msg)
	case sourcesMsg:
		if msg.err == nil {
			m.filters.setSources(msg.sources)
			m.list.gone = msg.gone
			m.list.hosts = msg.hosts
			m.list.dirty = true
		}
		return m, nil
	}
	// Anything else is the search box's own (a clipboard paste).
	if m.focus == focusSearch {
		return m, m.updateInput(msg)
	}
	return m, nil
}

// setFocus moves keyboard focus and updates which bindings are live.
func (m *Model) setFocus(f focus) {
	m.focus = f
	if f == focusSearch {
		m.input.Focus()
	} else {
		m.input.Blur()
	}
	m.list.SetFocused(f == focusList)
	m.keys.updateKeys(f, m.summary.open)
}

// quit cancels everything in flight and ends the program.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.cancel != nil {
		m.cancel()
	}
	m.stopSummary()
	m.detail.stop()
	return tea.Quit
}

// Focus returns the focused region's name (for tests).
func (m *Model) Focus() string { return m.focus.String() }
