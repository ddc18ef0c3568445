package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/store"
)

// detailSettle is how long the selection must rest before its transcript is
// loaded: holding j through a list must not start a Glamour render per row.
const detailSettle = 40 * time.Millisecond

// detailView is the transcript pane.
type detailView struct {
	styles    *Styles
	sessionID string // the session shown or being loaded
	item      Item
	doc       transcriptDoc
	session   store.Session
	msgs      []store.Message // kept for re-rendering on resize or t
	loading   bool
	err       error
	view      scroller
	hit       int // index into doc.hitLines of the last jump
	expanded  bool
	query     string // the query the transcript was highlighted for
	cancel    context.CancelFunc
}

func (d *detailView) stop() {
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
}

// selectionChanged schedules loading the selected session's transcript.
func (m *Model) selectionChanged() tea.Cmd {
	m.seqDetail++
	m.detail.stop()
	it, ok := m.list.Selected()
	if !ok {
		m.detail = detailView{styles: m.styles, view: m.detail.view, expanded: m.detail.expanded}
		m.detail.view.SetLines(nil)
		return nil
	}
	if it.SessionID != m.detail.sessionID {
		m.detail.msgs = nil
	}
	m.detail.item = it
	m.detail.sessionID = it.SessionID
	m.detail.loading = true
	seq := m.seqDetail
	return tea.Tick(detailSettle, func(time.Time) tea.Msg { return transcriptLoadMsg{seq: seq} })
}

// loadTranscript reads (unless cached) and renders the transcript in a command.
func (m *Model) loadTranscript(msg transcriptLoadMsg) tea.Cmd {
	if msg.seq != m.seqDetail {
		return nil
	}
	m.detail.stop()
	ctx, cancel := context.WithCancel(m.ctx)
	m.detail.cancel = cancel
	d := &m.detail
	var cached []store.Message
	if d.session.ID == d.sessionID {
		cached = d.msgs // same session: re-render without reading the store
	}
	in := transcriptInput{session: d.session, msgs: cached, width: d.view.width, terms: store.ParseQuery(m.lastQuery).Needles(),
		anchorID: d.item.MatchMessageID, expanded: d.expanded, query: m.lastQuery}
	id, seq, backend, md, st := d.sessionID, msg.seq, m.backend, m.md, m.styles
	return func() tea.Msg {
		if in.msgs == nil {
			sess, msgs, err := backend.Transcript(ctx, id)
			if err != nil {
				return transcriptMsg{seq: seq, err: err}
			}
			in.session, in.msgs = sess, msgs
		}
		doc, err := renderTranscript(ctx, md, st, in)
		return transcriptMsg{seq: seq, doc: doc, msgs: in.msgs, err: err}
	}
}

// applyTranscript shows a rendered transcript if it is still the one wanted.
func (m *Model) applyTranscript(msg transcriptMsg) tea.Cmd {
	if msg.seq != m.seqDetail {
		return nil
	}
	d := &m.detail
	d.loading = false
	d.cancel = nil
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		d.err = msg.err
		d.view.SetLines([]string{fit(m.styles.Status.Error.Render("cannot load session: "+termtext.OneLine(termtext.Sanitize(msg.err.Error()))), d.view.width)})
		return nil
	}
	d.err = nil
	keepOffset := d.doc.session.ID == msg.doc.session.ID && d.query == msg.doc.query
	offset := d.view.offset
	d.doc = msg.doc
	d.session = msg.doc.session
	d.msgs = msg.msgs
	d.query = msg.doc.query
	d.view.SetLines(msg.doc.lines)
	d.hit = -1
	switch {
	case keepOffset:
		d.view.offset = offset
		d.view.clamp()
	case msg.doc.anchor >= 0:
		d.view.ShowLine(msg.doc.anchor)
		d.hit = d.hitAtOrAfter(msg.doc.anchor) - 1
	case len(msg.doc.hitLines) > 0:
		d.view.ShowLine(msg.doc.hitLines[0])
		d.hit = 0
	default:
		d.view.GotoTop()
	}
	return nil
}

// hitAtOrAfter returns the index of the first hit line at or after line n.
func (d *detailView) hitAtOrAfter(n int) int {
	for i, l := range d.doc.hitLines {
		if l >= n {
			return i
		}
	}
	return len(d.doc.hitLines)
}

// jumpHit moves to the next (dir 1) or previous (dir -1) highlighted match.
func (m *Model) jumpHit(dir int) tea.Cmd {
	d := &m.detail
	n := len(d.doc.hitLines)
	if n == 0 || m.summary.open {
		return m.status.set("no highlighted matches in this session", false)
	}
	d.hit = ((d.hit+dir)%n + n) % n
	d.view.ShowLine(d.doc.hitLines[d.hit])
	return m.status.set(fmt.Sprintf("match %d of %d", d.hit+1, n), false)
}

// toggleTools expands or collapses tool calls and re-renders.
func (m *Model) toggleTools() tea.Cmd {
	m.detail.expanded = !m.detail.expanded
	return m.rerenderDetail()
}

// rerenderDetail renders the current transcript again (new width, tools toggled).
func (m *Model) rerenderDetail() tea.Cmd {
	if m.detail.sessionID == "" {
		return nil
	}
	m.seqDetail++
	m.detail.stop()
	return m.loadTranscript(transcriptLoadMsg{seq: m.seqDetail})
}

// detailScroller is the scroller the detail region shows now.
func (m *Model) detailScroller() *scroller {
	if m.summary.open {
		return &m.summary.view
	}
	return &m.detail.view
}

// header is the detail pane's first line.
func (d *detailView) header(w int) string {
	if d.sessionID == "" {
		return fit("", w)
	}
	it := d.item
	title := termtext.OneLine(termtext.Sanitize(it.Title))
	if title == "" {
		title = "(untitled)"
	}
	text := " " + title + " · " + termtext.Sanitize(it.Source) + " · " + termtext.Sanitize(shortID(it.SessionID))
	if d.loading {
		text += " · loading…"
	}
	return d.styles.Detail.Header.Render(fit(truncate(termtext.OneLine(text), w), w))
}

// shortID shortens long session ids for display.
func shortID(id string) string {
	if len(id) > 24 {
		return id[:24] + "…"
	}
	return id
}
