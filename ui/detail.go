package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	// targets are the lines n and N visit, in order: the first highlighted
	// line of each hit message (the hits the list counts), or with an
	// in-pane search each line holding a match. targetMsg is each target's
	// message index (-1 for a search match); hit is the current target.
	targets   []int
	targetMsg []int
	hit       int
	expanded  bool
	thinking  bool   // the assistant's reasoning shown in full (T)
	reveal    bool   // secrets shown as stored (V); redacted by default
	query     string // the query the transcript was highlighted for
	find      findBar
	cancel    context.CancelFunc
	// yankPending: y came while the transcript was loading; it copies when
	// the transcript arrives (a move to another session drops it).
	yankPending bool
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
		m.detail = detailView{styles: m.styles, view: m.detail.view, expanded: m.detail.expanded, thinking: m.detail.thinking}
		m.detail.view.SetLines(nil)
		return nil
	}
	if it.SessionID != m.detail.sessionID {
		m.detail.msgs = nil
		m.detail.yankPending = false
		m.detail.find = findBar{}
		if m.status.about != "" {
			m.status.clear() // "hit 3 of 8" was the other session's
		}
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
	cachedShort := ""
	if d.session.ID == d.sessionID {
		cached = d.msgs // same session: re-render without reading the store
		if d.doc.session.ID == d.sessionID {
			cachedShort = d.doc.shortID
		}
	}
	terms := m.highlightTerms(d.item)
	if d.find.pattern != "" {
		terms = findTerms(d.find.pattern)
	}
	in := transcriptInput{session: d.session, msgs: cached, width: d.view.width, terms: terms,
		anchorID: d.item.MatchMessageID, expanded: d.expanded, thinking: d.thinking, query: m.lastQuery, find: d.find.pattern, reveal: d.reveal,
		toolsKey: m.allKeys.ToggleTools.Help().Key, thinkingKey: m.allKeys.ToggleThinking.Help().Key}
	id, seq, backend, md, st := d.sessionID, msg.seq, m.backend, m.md, m.styles
	return func() tea.Msg {
		short := cachedShort
		if in.msgs == nil {
			sess, msgs, err := backend.Transcript(ctx, id)
			if err != nil {
				return transcriptMsg{seq: seq, err: err}
			}
			in.session, in.msgs = sess, msgs
			if sb, ok := backend.(ShortIDBackend); ok {
				ids, _ := sb.ShortIDs(ctx, []string{sess.ID}) // best effort: else the stored id
				short = ids[sess.ID]
			}
		}
		shown := in
		shown.session, shown.msgs = shownMessages(in.session, in.msgs, in.reveal)
		doc, err := renderTranscript(ctx, md, st, shown)
		doc.session, doc.shortID = in.session, short
		return transcriptMsg{seq: seq, doc: doc, msgs: in.msgs, err: err}
	}
}

// applyTranscript shows a rendered transcript if it is still the one wanted.
// A re-render of the same transcript (a new width, tool calls toggled with
// t, an in-pane search) keeps the reading position: the message at the top
// of the pane stays there, and the current hit stays the current hit.
func (m *Model) applyTranscript(msg transcriptMsg) (cmd tea.Cmd) {
	if msg.seq != m.seqDetail {
		return nil
	}
	d := &m.detail
	d.loading = false
	d.cancel = nil
	if d.yankPending {
		d.yankPending = false
		defer func() { cmd = tea.Batch(cmd, m.yank()) }()
	}
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		d.err = msg.err
		d.view.SetLines([]string{termtext.Fit(m.styles.Status.Error.Render("cannot load session: "+termtext.OneLine(termtext.Sanitize(msg.err.Error()))), d.view.width)})
		return nil
	}
	d.err = nil
	same := d.doc.session.ID == msg.doc.session.ID && d.query == msg.doc.query && len(d.doc.msgIDs) == len(msg.doc.msgIDs)
	sameHits := same && d.doc.find == msg.doc.find
	topMsg, topOff, curMsg := 0, 0, -1
	if same && len(d.doc.raw) > 0 {
		topMsg = d.doc.messageAt(d.view.offset)
		topOff = d.view.offset - d.doc.msgStart[topMsg]
		if d.hit >= 0 && d.hit < len(d.targetMsg) {
			curMsg = d.targetMsg[d.hit]
		}
	}
	d.doc = msg.doc
	d.session = msg.doc.session
	d.msgs = msg.msgs
	d.query = msg.doc.query
	d.view.SetLines(msg.doc.lines)
	d.computeTargets()
	switch {
	case sameHits:
		start, end := d.doc.msgStart[topMsg], d.doc.msgStart[topMsg+1]
		d.view.offset = start + min(topOff, max(0, end-start-1))
		d.view.clamp()
		d.setCurrent(d.targetOfMessage(curMsg), false)
	case same: // an in-pane search started or ended: its first hit from here on
		from := d.doc.msgStart[topMsg] + topOff
		d.view.offset = from
		d.view.clamp()
		d.setCurrent(d.targetAtOrAfter(from), true)
		if d.doc.find != "" && d.hit < 0 {
			return m.status.setAbout(d.sessionID, fmt.Sprintf("no match for %q in this session", d.doc.find))
		}
		if d.doc.find != "" {
			return m.status.setAbout(d.sessionID, d.hitStatus()+" (n/N: next/previous, esc: back to the query's hits)")
		}
	case msg.doc.anchor >= 0 && d.targetOfMessage(msg.doc.anchor) >= 0:
		d.setCurrent(d.targetOfMessage(msg.doc.anchor), true)
	case msg.doc.anchor >= 0:
		d.view.ShowLine(d.doc.msgStart[msg.doc.anchor])
	case len(d.targets) > 0:
		d.setCurrent(0, true)
	default:
		d.view.GotoTop()
	}
	return nil
}

// computeTargets finds the lines n/N visit (see detailView.targets).
func (d *detailView) computeTargets() {
	doc := &d.doc
	d.targets, d.targetMsg, d.hit = d.targets[:0], d.targetMsg[:0], -1
	if doc.find != "" {
		for i := range doc.raw {
			if doc.hasMarks(i, i+1) {
				d.targets = append(d.targets, i)
				d.targetMsg = append(d.targetMsg, -1)
			}
		}
		return
	}
	hit := make(map[int64]bool, len(d.item.HitIDs))
	for _, id := range d.item.HitIDs {
		hit[id] = true
	}
	for k, id := range doc.msgIDs {
		start, end := doc.msgStart[k], doc.msgStart[k+1]
		// Without the store's hit ids (rows from an older answer), a
		// message with a highlighted term is a hit.
		if len(hit) > 0 && !hit[id] || len(hit) == 0 && (d.query == "" || !doc.hasMarks(start, end)) {
			continue
		}
		line := start
		for i := start; i < end; i++ {
			if doc.hasMarks(i, i+1) {
				line = i
				break
			}
		}
		d.targets = append(d.targets, line)
		d.targetMsg = append(d.targetMsg, k)
	}
}

// targetOfMessage returns the target of message k, or -1.
func (d *detailView) targetOfMessage(k int) int {
	for i, mk := range d.targetMsg {
		if k >= 0 && mk == k {
			return i
		}
	}
	return -1
}

// targetAtOrAfter returns the first target at or after line n (wrapping to
// the first), or -1 without targets.
func (d *detailView) targetAtOrAfter(n int) int {
	for i, l := range d.targets {
		if l >= n {
			return i
		}
	}
	if len(d.targets) > 0 {
		return 0
	}
	return -1
}

// currentRange is the lines the current hit paints: its message for a
// query hit, its line for a search match.
func (d *detailView) currentRange() (int, int) {
	if d.hit < 0 || d.hit >= len(d.targets) {
		return 0, 0
	}
	if k := d.targetMsg[d.hit]; k >= 0 {
		return d.doc.msgStart[k], d.doc.msgStart[k+1]
	}
	return d.targets[d.hit], d.targets[d.hit] + 1
}

// setCurrent makes target i the current hit (-1: none), repainting the old
// and the new one, and scrolls to it when show is set.
func (d *detailView) setCurrent(i int, show bool) {
	a, b := d.currentRange()
	d.doc.repaint(a, b, false)
	d.hit = i
	if i < 0 || i >= len(d.targets) {
		d.hit = -1
		return
	}
	a, b = d.currentRange()
	d.doc.repaint(a, b, true)
	if show {
		d.view.ShowLine(d.targets[i])
	}
}

// selectionRefreshed takes the selected row's new hits when a new answer
// (the ranked phase after the first) lists the shown session again: the
// pane counts and visits what the list now says, keeping the current hit.
func (m *Model) selectionRefreshed() {
	d := &m.detail
	it, ok := m.list.Selected()
	if !ok || it.SessionID != d.sessionID || d.doc.find != "" || d.loading {
		return
	}
	d.item = it
	cur := -1
	if d.hit >= 0 && d.hit < len(d.targetMsg) {
		cur = d.targetMsg[d.hit]
	}
	a, b := d.currentRange()
	d.doc.repaint(a, b, false)
	d.computeTargets()
	d.hit = -1
	if i := d.targetOfMessage(cur); i >= 0 {
		d.setCurrent(i, false)
	}
}

// jumpHit moves to the next (dir 1) or previous (dir -1) hit.
func (m *Model) jumpHit(dir int) tea.Cmd {
	d := &m.detail
	if m.summary.open {
		return m.status.set("no hits in the summary: esc closes it", false)
	}
	m.selectionRefreshed()
	n := len(d.targets)
	if n == 0 {
		if d.doc.find != "" {
			return m.status.setAbout(d.sessionID, fmt.Sprintf("no match for %q in this session", d.doc.find))
		}
		return m.status.setAbout(d.sessionID, "no hits in this session")
	}
	next, wrapped := 0, ""
	switch {
	case d.hit >= 0:
		next = ((d.hit+dir)%n + n) % n
		// Going past the last hit (or before the first) starts over, as
		// less and vim do, and says so, as they do.
		if dir > 0 && next < d.hit {
			wrapped = " · past the last hit: back to the first"
		} else if dir < 0 && next > d.hit {
			wrapped = " · before the first hit: on to the last"
		}
	case dir < 0:
		next = n - 1
	}
	d.setCurrent(next, true)
	return m.status.setAbout(d.sessionID, d.hitStatus()+wrapped)
}

// hitStatus is "hit 2 of 5" (or "match 2 of 17" for an in-pane search),
// with the lineage's count when the list counts hits this session lacks.
func (d *detailView) hitStatus() string {
	n := len(d.targets)
	if d.doc.find != "" {
		return fmt.Sprintf("match %d of %d for %q", d.hit+1, n, d.doc.find)
	}
	s := fmt.Sprintf("hit %d of %d", d.hit+1, n)
	if d.item.Hits > n {
		s += fmt.Sprintf(" in this session (%d in its lineage)", d.item.Hits)
	}
	return s
}

// toggleTools expands or collapses tool calls and re-renders.
func (m *Model) toggleTools() tea.Cmd {
	m.detail.expanded = !m.detail.expanded
	return m.rerenderDetail()
}

// toggleThinking shows or folds the assistant's thinking (T).
func (m *Model) toggleThinking() tea.Cmd {
	m.detail.thinking = !m.detail.thinking
	return m.rerenderDetail()
}

// toggleReveal shows or hides (the default) the secrets in the detail
// pane and in what e and o write.
func (m *Model) toggleReveal() tea.Cmd {
	m.detail.reveal = !m.detail.reveal
	text := "secrets redacted again"
	if m.detail.reveal {
		text = "secrets shown as stored (V hides them again; e and o write them too)"
	}
	return tea.Batch(m.rerenderDetail(), m.status.set(text, false))
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

// header is the detail pane's first line: the session on the left, the hit
// and the scroll position on the right; highlighted while the pane has
// focus. While an in-pane search is typed, the line is its prompt.
func (d *detailView) header(w int, focused bool) string {
	st := d.styles.Detail.Header
	if focused {
		st = d.styles.Detail.FocusedHeader
	}
	if d.find.typing {
		return d.find.view(w, d.styles)
	}
	if d.sessionID == "" {
		return st.Render(termtext.Fit("", w))
	}
	it := d.item
	title := rowTitle(it)
	id := it.SessionID
	if d.doc.session.ID == id && d.doc.shortID != "" {
		id = d.doc.shortID
	}
	text := " " + title + " · " + termtext.OneLine(termtext.Sanitize(it.Source)) + " · " + termtext.OneLine(termtext.Sanitize(id))
	if d.loading {
		text += " · loading…"
	}
	right := d.position()
	room := max(1, w-termtext.Width(right))
	return st.Render(termtext.Fit(text, room)) + d.styles.Detail.Scroll.Render(right)
}

// position is the right end of the header: the current hit and how far
// down the transcript the pane is (" hit 2/5 · 37% ").
func (d *detailView) position() string {
	var parts []string
	if len(d.targets) > 0 && d.hit >= 0 {
		if d.doc.find != "" {
			parts = append(parts, fmt.Sprintf("/%s %d/%d", termtext.Truncate(d.doc.find, 12), d.hit+1, len(d.targets)))
		} else {
			parts = append(parts, fmt.Sprintf("hit %d/%d", d.hit+1, len(d.targets)))
		}
	}
	if p, ok := d.view.Percent(); ok {
		parts = append(parts, fmt.Sprintf("%d%%", p))
	} else if len(d.view.lines) > 0 {
		parts = append(parts, "all")
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " · ") + " "
}
