package ui

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// testNow pins the clock of every test model, so goldens do not age.
var testNow = time.Date(2026, 7, 20, 12, 0, 0, 0, time.UTC)

// driver runs a Model headless: commands run in goroutines as in Bubble
// Tea, their messages are fed back through Update on the test goroutine.
// Commands still running when a test ends (status TTL ticks) are abandoned.
type driver struct {
	t    testing.TB
	m    *Model
	msgs chan tea.Msg
	quit bool
	// execs are the programs the model asked to run (execRequestMsg: the
	// pager, an agent to resume), which the driver never starts.
	execs []string
}

func newDriver(t testing.TB, b Backend, w, h int) *driver {
	t.Helper()
	return newDriverWith(t, b, w, h, Options{})
}

// newDriverWith is newDriver with options; the clock and clipboard are the tests'.
func newDriverWith(t testing.TB, b Backend, w, h int, opts Options) *driver {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts.Now = func() time.Time { return testNow }
	if opts.Clipboard == nil {
		opts.Clipboard = &fakeClipboard{}
	}
	m := New(ctx, b, opts)
	d := &driver{t: t, m: m, msgs: make(chan tea.Msg, 1024)}
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	d.run(m.Init())
	return d
}

// run executes cmd in the background.
func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		select {
		case d.msgs <- msg:
		case <-time.After(10 * time.Second):
		}
	}()
}

// send feeds msg to Update and runs the returned command.
func (d *driver) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.QuitMsg:
		d.quit = true
		return
	case execRequestMsg:
		d.execs = append(d.execs, msg.what+": "+strings.Join(msg.cmd.Args, " "))
		if msg.cleanup != nil {
			msg.cleanup()
		}
		return
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
		return
	}
	// tea.Sequence's message type is unexported: a slice of commands run in order.
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
		cmds := make([]tea.Cmd, v.Len())
		for i := range cmds {
			cmds[i] = v.Index(i).Interface().(tea.Cmd)
		}
		go func() {
			for _, c := range cmds {
				if c != nil {
					d.msgs <- c()
				}
			}
		}()
		return
	}
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// pump processes messages until cond holds; it fails the test after timeout.
func (d *driver) pump(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-deadline:
			d.t.Fatalf("timed out waiting for %s; screen:\n%s", what, d.screen())
		}
	}
}

// settle processes messages for a while (until quiet for 150 ms).
func (d *driver) settle() {
	for {
		select {
		case msg := <-d.msgs:
			d.send(msg)
		case <-time.After(150 * time.Millisecond):
			return
		}
	}
}

// key sends one key press, named as in key.Binding ("down", "ctrl+n", "f2") or typed text.
func (d *driver) key(k string) {
	d.send(keyMsg(k))
}

// typ types text one rune at a time.
func (d *driver) typ(text string) {
	for _, r := range text {
		d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func keyMsg(k string) tea.KeyMsg {
	names := map[string]tea.KeyType{
		"up": tea.KeyUp, "down": tea.KeyDown, "enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab,
		"shift+tab": tea.KeyShiftTab, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "ctrl+c": tea.KeyCtrlC,
		"ctrl+n": tea.KeyCtrlN, "ctrl+p": tea.KeyCtrlP, "ctrl+u": tea.KeyCtrlU, "ctrl+w": tea.KeyCtrlW,
		"ctrl+a": tea.KeyCtrlA, "ctrl+v": tea.KeyCtrlV, "ctrl+e": tea.KeyCtrlE, "backspace": tea.KeyBackspace, "home": tea.KeyHome,
		"end": tea.KeyEnd, "f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8,
	}
	if t, ok := names[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	for t := tea.KeyType(-200); t < 0x20; t++ { // every ctrl+ key by its name
		if strings.HasPrefix(k, "ctrl+") && t.String() == k {
			return tea.KeyMsg{Type: t}
		}
	}
	if strings.HasPrefix(k, "alt+") {
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k[4:]), Alt: true}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// screen is the current view without styling.
func (d *driver) screen() string { return ansi.Strip(d.m.View()) }

// fakeBackend serves a fixed set of sessions. Discover returns the sessions
// whose title or content contains every query word.
type fakeBackend struct {
	mu       sync.Mutex
	sessions []store.SessionSummary
	msgs     map[string][]store.Message
	requests []searchCall
	browses  []store.ListOptions
	// summary, if set, is streamed as deltas of this text, one word each.
	summary  string
	delay    time.Duration // between summary deltas
	hasModel bool
}

// searchCall is one Discover call the fake answered.
type searchCall struct {
	Query  string
	Filter store.SearchFilter
}

func (f *fakeBackend) Discover(ctx context.Context, query string, filter store.SearchFilter) (*recall.Discovery, error) {
	f.mu.Lock()
	f.requests = append(f.requests, searchCall{Query: query, Filter: filter})
	f.mu.Unlock()
	req := searchCall{Query: query, Filter: filter}
	var items []recall.Result
	words := strings.Fields(strings.ToLower(req.Query))
	for _, s := range f.sessions {
		if len(req.Filter.Sources) > 0 && req.Filter.Sources[0] != s.Source {
			continue
		}
		var hitID int64
		var hitIDs []int64
		var snippet string
		hits := 0
		for _, m := range f.msgs[s.ID] {
			if len(req.Filter.Roles) > 0 && req.Filter.Roles[0] != m.Role {
				continue
			}
			lc := strings.ToLower(m.Content)
			all := true
			for _, w := range words {
				all = all && strings.Contains(lc, w)
			}
			if all && len(words) > 0 {
				hits++
				hitIDs = append(hitIDs, m.ID)
				if hitID == 0 {
					hitID = m.ID
					snippet = highlightTerms(m.Content, hlTermsOf(store.ParseQuery(req.Query)))
				}
			}
		}
		if hits > 0 {
			items = append(items, recall.Result{SessionID: s.ID, RootID: s.ID, Title: s.Title, Source: s.Source, Model: s.Model,
				When: s.StartedAt, Hits: hits, HitIDs: hitIDs, Parsed: store.ParseQuery(query), MatchMessageID: hitID, Snippet: snippet})
		}
	}
	return &recall.Discovery{Query: query, Index: store.IndexUnicode61, Elapsed: 1500 * time.Microsecond, Results: items}, ctx.Err()
}

func (f *fakeBackend) Browse(ctx context.Context, o store.ListOptions) ([]store.SessionSummary, error) {
	f.mu.Lock()
	f.browses = append(f.browses, o)
	f.mu.Unlock()
	var out []store.SessionSummary
	for _, s := range f.sessions {
		if len(o.Sources) > 0 && o.Sources[0] != s.Source {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

func (f *fakeBackend) Transcript(ctx context.Context, id string) (store.Session, []store.Message, error) {
	for _, s := range f.sessions {
		if s.ID == id {
			return s.Session, f.msgs[id], nil
		}
	}
	return store.Session{}, nil, store.ErrNotFound
}

func (f *fakeBackend) Sources(ctx context.Context) ([]string, error) {
	var out []string
	for _, s := range f.sessions {
		if !slices.Contains(out, s.Source) {
			out = append(out, s.Source)
		}
	}
	slices.Sort(out) // as the store answers
	return out, nil
}

func (f *fakeBackend) Summarize(ctx context.Context, query string, items []recall.Result, onEvent func(recall.SummaryEvent)) {
	for i, it := range items {
		for _, w := range strings.SplitAfter(f.summary, " ") {
			select {
			case <-ctx.Done():
				return
			case <-time.After(f.delay):
			}
			onEvent(recall.SummaryEvent{Index: i, SessionID: it.SessionID, Delta: w})
		}
		kind := recall.SummaryModel
		if !f.hasModel {
			kind = recall.SummaryExtractive
		}
		onEvent(recall.SummaryEvent{Index: i, SessionID: it.SessionID, Done: true,
			Summary: &recall.Summary{SessionID: it.SessionID, Text: f.summary, Kind: kind, Model: "fake"}})
	}
}

func (f *fakeBackend) HasModel() bool { return f.hasModel }

func (f *fakeBackend) lastRequest() searchCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		return searchCall{}
	}
	return f.requests[len(f.requests)-1]
}

// demoBackend is a small history in English and Chinese with a tool call,
// wide characters and emoji.
func demoBackend() *fakeBackend {
	day := func(d int) time.Time { return testNow.Add(-time.Duration(d) * 24 * time.Hour) }
	sess := []store.SessionSummary{
		{Session: store.Session{ID: "cc-1111", Source: "claude-code", Model: "claude-sonnet-4", Title: "Fix the sqlite migration", StartedAt: day(0).Add(-2 * time.Hour), MessageCount: 4, Cwd: "/tmp"}, Preview: "the migration fails", LastActive: day(0).Add(-2 * time.Hour)},
		{Session: store.Session{ID: "cx-2222", Source: "codex", Model: "gpt-5", Title: "数据库索引优化 🚀", StartedAt: day(1), MessageCount: 2}, Preview: "为什么查询这么慢", LastActive: day(1)},
		{Session: store.Session{ID: "h-3333", Source: "cli", Model: "hermes-3", Title: "Deploy rollback plan", StartedAt: day(3), MessageCount: 2}, Preview: "how do we roll back", LastActive: day(3)},
		{Session: store.Session{ID: "tg-4444", Source: "telegram", Title: "Grocery list 🥦🍞 and a very long title that will not fit in a narrow list at all", StartedAt: day(40), MessageCount: 2}, Preview: "eggs", LastActive: day(40)},
	}
	t0 := day(0).Add(-2 * time.Hour)
	msgs := map[string][]store.Message{
		"cc-1111": {
			{ID: 1, SessionID: "cc-1111", Role: "user", Content: "The sqlite migration fails with `database is locked`.", Timestamp: t0},
			{ID: 2, SessionID: "cc-1111", Role: "assistant", Content: "Let me look at the migration.\n\n```\nPRAGMA busy_timeout = 5000;\n```\n\nThis sets a **busy timeout**.", ToolCalls: `[{"name":"Read","input":{"path":"migrate.go"}}]`, Timestamp: t0.Add(time.Minute)},
			{ID: 3, SessionID: "cc-1111", Role: "tool", ToolName: "Read", Content: "package store\n\nfunc migrate() {}\n", Timestamp: t0.Add(2 * time.Minute)},
			{ID: 4, SessionID: "cc-1111", Role: "assistant", Content: "The migration now waits instead of failing.", Timestamp: t0.Add(3 * time.Minute)},
		},
		"cx-2222": {
			{ID: 5, SessionID: "cx-2222", Role: "user", Content: "为什么数据库查询这么慢？", Timestamp: day(1)},
			{ID: 6, SessionID: "cx-2222", Role: "assistant", Content: "给 `sessions` 表加一个数据库索引 🚀 就好了。", Timestamp: day(1)},
		},
		"h-3333": {
			{ID: 7, SessionID: "h-3333", Role: "user", Content: "how do we roll back a deploy?", Timestamp: day(3)},
			{ID: 8, SessionID: "h-3333", Role: "assistant", Content: "Keep the previous release and switch the symlink back.", Timestamp: day(3)},
		},
		"tg-4444": {
			{ID: 9, SessionID: "tg-4444", Role: "user", Content: "eggs, bread", Timestamp: day(40)},
			{ID: 10, SessionID: "tg-4444", Role: "assistant", Content: "Added eggs and bread.", Timestamp: day(40)},
		},
	}
	return &fakeBackend{sessions: sess, msgs: msgs, summary: "The **migration** failed because of a lock. It now sets a busy timeout."}
}

// fakeClipboard records what was copied; err makes every copy fail.
type fakeClipboard struct {
	mu     sync.Mutex
	copied []string
	err    error
}

func (c *fakeClipboard) Copy(ctx context.Context, text string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return "", c.err
	}
	c.copied = append(c.copied, text)
	return "the test clipboard", nil
}

func (c *fakeClipboard) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.copied) == 0 {
		return ""
	}
	return c.copied[len(c.copied)-1]
}
