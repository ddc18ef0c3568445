package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/recall-dev/recall/store"
)

// ChangeWatcher is implemented by backends that can tell when the database
// changed under the TUI (the store's change token), so the list follows
// `recall watch` and agents writing while it is open.
type ChangeWatcher interface {
	ChangeToken(ctx context.Context) (string, error)
}

// ImportWatcher is implemented by backends that can tell when another
// process is importing into the database, so the status line shows the
// import's progress while the list fills.
type ImportWatcher interface {
	RunningImport(ctx context.Context) (store.ImportProgress, bool, error)
}

// defaultRefreshEvery is cheap (three aggregate reads) and quick enough that
// the session you had a minute ago is in the list when you look.
const defaultRefreshEvery = 2 * time.Second

// dbPollMsg carries one reading of the change token, and of the running
// import when the backend tells.
type dbPollMsg struct {
	token     string
	err       error
	importing store.ImportProgress
	running   bool
}

// pollChanges schedules the next reading, or nil when the backend cannot
// tell or refreshing is off. The first reading (at start) is immediate: it
// is the baseline, and a write that lands before a later one is then seen.
func (m *Model) pollChanges() tea.Cmd {
	w, ok := m.backend.(ChangeWatcher)
	if !ok || m.opts.RefreshEvery < 0 {
		return nil
	}
	ctx := m.ctx
	iw, _ := m.backend.(ImportWatcher)
	read := func(time.Time) tea.Msg {
		tok, err := w.ChangeToken(ctx)
		msg := dbPollMsg{token: tok, err: err}
		if iw != nil {
			// A failed reading shows no progress; it never stops the poll.
			msg.importing, msg.running, _ = iw.RunningImport(ctx)
		}
		return msg
	}
	if !m.polled {
		return func() tea.Msg { return read(time.Time{}) }
	}
	return tea.Tick(m.opts.RefreshEvery, read)
}

// dbPolled reruns the current query when another process wrote. A query in
// flight already sees the new rows, and a failed reading (the database is
// busy) simply waits for the next one.
func (m *Model) dbPolled(msg dbPollMsg) tea.Cmd {
	m.status.setImport(msg.importing, msg.running)
	baseline := !m.polled
	m.polled = true
	changed := msg.err == nil && msg.token != "" && msg.token != m.dbToken
	if changed {
		m.dbToken = msg.token
	}
	if !changed || baseline || m.searching {
		return m.pollChanges()
	}
	// An import also tells which sessions lost their files since.
	return tea.Batch(m.pollChanges(), m.refresh(), m.loadSources())
}
