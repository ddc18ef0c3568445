package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// firstRunText replaces the empty list when the database holds no sessions.
const firstRunText = `No sessions yet.

Import your agents' history:
  recall import all

or try recall on a demo history:
  recall demo`

// updateInput feeds a message to the search box and searches if the text changed.
func (m *Model) updateInput(msg tea.Msg) tea.Cmd {
	changed, cmd := m.input.Update(msg)
	if !changed {
		return cmd
	}
	return tea.Batch(cmd, m.queryChanged())
}

// queryChanged searches again because the user changed the query or the
// filters: the selection goes to the top result of each answer (the first
// paint, then the ranked list), until the user moves it.
func (m *Model) queryChanged() tea.Cmd {
	m.status.clear() // what it said was about the old query
	cmd := m.search()
	m.topSeq, m.userMoved = m.seq, false
	return cmd
}

// refresh searches again for the same query (another process wrote, an
// agent resumed from here returned): the selection stays on its session.
func (m *Model) refresh() tea.Cmd { return m.search() }

// search starts a new request for the current query and filters: it
// bumps the request id, cancels the request in flight and asks at once (no
// debounce: the first phase is meant to answer within a frame). A non-empty
// query asks twice in sequence: PhaseFirst for the newest hits, painted
// immediately, then PhaseFinal for the ranked list.
func (m *Model) search() tea.Cmd {
	m.seq++
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancel = cancel
	m.searching = true
	seq, backend, q, now := m.seq, m.backend, strings.TrimSpace(m.input.Value()), m.opts.Now()
	if q == "" {
		o := m.filters.list(now)
		filtered := m.filters.active()
		return func() tea.Msg {
			list, err := backend.Browse(ctx, o)
			items := make([]Item, len(list))
			for i, s := range list {
				items[i] = browseItem(s)
			}
			return resultsMsg{seq: seq, phase: store.PhaseFinal, browse: true, items: items, err: err,
				index: map[bool]store.Index{true: "filtered", false: "recent"}[filtered]}
		}
	}
	f := m.filters.search(now)
	f.Typing = true
	ask := func(phase store.Phase) tea.Cmd {
		f := f
		f.Phase = phase
		return func() tea.Msg {
			d, err := backend.Discover(ctx, q, f)
			if err == nil && phase == store.PhaseFinal && lastWordUnmatched(d) {
				d = settledRetry(ctx, backend, q, f, d)
			}
			if err != nil {
				return resultsMsg{seq: seq, phase: phase, query: q, err: err}
			}
			return resultsMsg{seq: seq, phase: phase, query: q, items: searchItems(d), index: d.Index, elapsed: d.Elapsed, chips: searchChips(d)}
		}
	}
	final := ask(store.PhaseFinal)
	settle := func() tea.Msg {
		// Ranking waits for a pause in typing: started on every keystroke,
		// a 20-75 ms bm25 pass over a million messages would compete with
		// the next keystroke's first phase for the CPU, only to be dropped.
		select {
		case <-time.After(finalPhaseDelay):
			return final()
		case <-ctx.Done():
			return resultsMsg{seq: seq, phase: store.PhaseFinal, err: ctx.Err()}
		}
	}
	return tea.Sequence(ask(store.PhaseFirst), settle)
}

// settledRetry asks again for a query whose last word, read as a prefix
// while typing, matched nothing: typing has paused (the ranked phase runs
// after a pause), so the word is read as complete, and a typo in it is
// retried as its nearest spelling, as `recall search dokcer` does
// ("searched instead: dokcer → docker"). The settled answer replaces the
// first only when it corrected a word: otherwise the prefix reading stands.
func settledRetry(ctx context.Context, backend Backend, q string, f store.SearchFilter, d *recall.Discovery) *recall.Discovery {
	f.Typing = false
	if s, err := backend.Discover(ctx, q, f); err == nil && s.Suggestion != "" {
		return s
	}
	return d
}

// lastWordUnmatched reports whether no session of d holds the plain
// query's last word (or d found nothing at all): the word being typed may
// be a typo that no indexed word starts with.
func lastWordUnmatched(d *recall.Discovery) bool {
	if len(d.Results) == 0 {
		return true
	}
	if len(d.Words) == 0 {
		return false
	}
	last := d.Words[len(d.Words)-1]
	for _, r := range d.Results {
		if slices.Contains(r.Matched, last) {
			return false
		}
	}
	return true
}

// finalPhaseDelay is the pause in typing after which the ranked phase runs;
// shorter than the gap between keystrokes of a fast typist (~100 ms).
const finalPhaseDelay = 60 * time.Millisecond

// applyResults shows the answer to the current request and drops any other:
// an older request id is a superseded keystroke, and a PhaseFirst answer
// that arrives after its own PhaseFinal would replace better results.
func (m *Model) applyResults(msg resultsMsg) tea.Cmd {
	if msg.seq != m.seq {
		return nil
	}
	if msg.phase == store.PhaseFirst && m.finalSeq == msg.seq {
		return nil
	}
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) || errors.Is(msg.err, context.DeadlineExceeded) {
			return nil
		}
		m.searching = false
		return m.status.set("search: "+msg.err.Error(), true)
	}
	if msg.phase == store.PhaseFinal {
		m.finalSeq = msg.seq
		m.searching = false
	}
	m.lastQuery = msg.query
	m.emptyDB = msg.browse && len(msg.items) == 0 && !m.filters.active()
	m.list.emptyMsg = m.emptyText(msg.browse)
	m.filters.learnSources(msg.items)
	m.status.setSearch(msg.index, msg.elapsed, len(msg.items), msg.browse)
	if msg.chips != "" {
		m.status.search += " · " + msg.chips
	}
	before := m.list.SelectedID()
	if m.byRecency && !msg.browse {
		msg.items = byRecency(msg.items)
	}
	m.list.SetItems(msg.items)
	if msg.seq == m.topSeq && !m.userMoved {
		m.list.Select(0)
	}
	m.list.dirty = true
	if len(msg.items) == 0 && m.focus != focusSearch {
		// Nothing to move through: the keyboard goes back to the query.
		m.setFocus(focusSearch)
	}
	// The ranked phase may have read the query otherwise than the first
	// (a question's content words and their forms, its stopwords dropped):
	// the transcript is highlighted again for the words it searched.
	if it, ok := m.list.Selected(); !ok || it.SessionID != before || m.detail.query != msg.query ||
		!slices.Equal(m.highlightTerms(it), m.highlightTerms(m.detail.item)) {
		return m.selectionChanged()
	}
	m.selectionRefreshed() // same session: the detail pane counts the new answer's hits (detail.go)
	return nil
}

// emptyText is what the list says when an answer is empty.
func (m *Model) emptyText(browse bool) string {
	filters := m.filters.describe()
	switch {
	case m.emptyDB:
		return firstRunText
	case browse:
		return "no sessions with " + filters + "\n" + m.allKeys.ClearFilters.Help().Key + " clears the filters"
	case filters != "":
		return "no matches with " + filters + "\n" + m.allKeys.ClearFilters.Help().Key + " clears the filters\n" +
			"or try OR, a prefix*, fewer words\n(F1 for the syntax)"
	}
	return "no matches\ntry OR, a prefix*, or fewer words\n(F1 for the syntax)"
}

// move moves the selection, or scrolls the detail pane when it has focus.
func (m *Model) move(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if m.focus == focusDetail {
		v := m.detailScroller()
		v.Move(msg, k)
		if v == &m.summary.view {
			m.summary.follow = v.AtBottom()
		}
		return nil
	}
	var changed bool
	m.userMoved = true
	switch {
	case key.Matches(msg, k.Up):
		changed = m.list.Move(-1)
	case key.Matches(msg, k.Down):
		changed = m.list.Move(1)
	case key.Matches(msg, k.PageUp):
		changed = m.list.Move(-m.list.Page())
	case key.Matches(msg, k.PageDown):
		changed = m.list.Move(m.list.Page())
	case key.Matches(msg, k.Top):
		changed = m.list.Select(0)
	case key.Matches(msg, k.Bottom):
		changed = m.list.Select(len(m.list.items) - 1)
	}
	if changed {
		return m.selectionChanged()
	}
	return nil
}
