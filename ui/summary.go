package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/ui/termtext"

	tea "github.com/charmbracelet/bubbletea"
)

// frameInterval is the summary panel's frame clock: about 30 renders a
// second at most, however fast tokens arrive.
const frameInterval = time.Second / 30

// summaryStream collects the events of one Summarize call. The pipeline
// calls add from its own goroutines; the model reads snapshots on frame
// ticks. It is the only state shared between a command and the model, and it
// is guarded by its mutex.
type summaryStream struct {
	mu       sync.Mutex
	titles   []string
	texts    []strings.Builder
	final    []*recall.Summary
	version  uint64 // bumped on every event
	finished bool
	canceled bool
	hasModel bool
}

func newSummaryStream(titles []string, hasModel bool) *summaryStream {
	return &summaryStream{titles: titles, texts: make([]strings.Builder, len(titles)),
		final: make([]*recall.Summary, len(titles)), hasModel: hasModel}
}

// add records one event; safe for concurrent use.
func (s *summaryStream) add(ev recall.SummaryEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.Index < 0 || ev.Index >= len(s.texts) {
		return
	}
	if ev.Delta != "" {
		s.texts[ev.Index].WriteString(ev.Delta)
	}
	if ev.Done && ev.Summary != nil {
		sum := *ev.Summary
		s.final[ev.Index] = &sum
	}
	s.version++
}

func (s *summaryStream) finish(canceled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished = true
	s.canceled = s.canceled || canceled
	s.version++
}

// snapshot returns the panel's markdown, the stream version it shows, and
// whether the stream has ended.
func (s *summaryStream) snapshot() (doc string, version uint64, finished bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for i, title := range s.titles {
		if len(s.titles) > 1 {
			fmt.Fprintf(&b, "## %d. %s\n\n", i+1, mdEscapeLine(title))
		}
		text := s.texts[i].String()
		if f := s.final[i]; f != nil {
			if f.Text != "" {
				text = f.Text
			}
			// An offline summary names itself in its first line; that
			// line is the label, so it is said once.
			if h := recall.ExtractiveHeading; f.Kind == recall.SummaryExtractive && strings.HasPrefix(text, h) {
				text = strings.TrimPrefix(text, h)
			}
			if label := kindLabel(f.Kind, f.Reason, f.Model); label != "" {
				fmt.Fprintf(&b, "*%s*\n\n", label)
			}
		} else if !s.hasModel && text == "" {
			b.WriteString("*" + extractiveLabel + "*\n\n")
		}
		b.WriteString(termtext.Sanitize(text))
		b.WriteString("\n\n")
	}
	if s.canceled {
		b.WriteString("*summary cancelled*\n")
	}
	return b.String(), s.version, s.finished
}

// text returns the summaries' plain text, for copying.
func (s *summaryStream) text() string {
	doc, _, _ := s.snapshot()
	return strings.TrimSpace(doc)
}

// extractiveLabel marks an offline summary, the one place the panel says so.
const extractiveLabel = "offline summary (no model configured)"

// kindLabel is the visible label of a summary that is not a model's answer,
// or names the model.
func kindLabel(k recall.SummaryKind, reason, model string) string {
	switch k {
	case recall.SummaryExtractive:
		return extractiveLabel
	case recall.SummaryRawPreview:
		if reason != "" {
			return "raw preview: the model failed (" + termtext.OneLine(termtext.Sanitize(reason)) + ")"
		}
		return "raw preview: the model failed"
	case recall.SummaryModel:
		if model != "" {
			return "summary by " + termtext.OneLine(termtext.Sanitize(model))
		}
	}
	return ""
}

// mdEscapeLine keeps a title from opening markdown constructs in a heading.
func mdEscapeLine(s string) string {
	s = termtext.OneLine(termtext.Sanitize(s))
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "#", `\#`, "[", `\[`, "<", `\<`).Replace(s)
}

// summaryPanel is the streaming summary shown in the detail area.
type summaryPanel struct {
	open     bool
	seq      uint64
	cancel   context.CancelFunc
	stream   *summaryStream
	cache    *blockCache
	rendered uint64 // stream version of the text shown
	inFlight bool   // a frame render is running
	done     bool   // the final render arrived
	ticking  bool
	title    string
	view     scroller
	follow   bool     // keep the bottom in view while text streams
	terms    []hlTerm // the query's terms, highlighted in the summaries
}

// startSummary begins summarising items; it returns the commands that run
// the pipeline and start the frame clock.
func (m *Model) startSummary(items []Item) tea.Cmd {
	if len(items) == 0 {
		return nil
	}
	m.stopSummary()
	p := &m.summary
	m.seqSummary++
	p.seq = m.seqSummary
	p.open, p.done, p.inFlight, p.rendered, p.follow = true, false, false, 0, true
	p.terms = m.highlightTerms(items[0])
	titles := make([]string, len(items))
	for i, it := range items {
		titles[i] = it.Title
		if titles[i] == "" {
			titles[i] = it.SessionID
		}
	}
	if len(items) == 1 {
		p.title = "Summary · " + termtext.OneLine(termtext.Sanitize(titles[0]))
	} else {
		p.title = fmt.Sprintf("Summary · top %d sessions", len(items))
	}
	p.stream = newSummaryStream(titles, m.backend.HasModel())
	p.cache = newBlockCache(m.md)
	p.view.SetLines(nil)
	ctx, cancel := context.WithCancel(m.ctx)
	p.cancel = cancel
	seq, stream, backend, query := p.seq, p.stream, m.backend, m.lastQuery
	run := func() tea.Msg {
		backend.Summarize(ctx, query, results(items), stream.add)
		stream.finish(ctx.Err() != nil)
		return summaryDoneMsg{seq: seq}
	}
	p.ticking = true
	return tea.Batch(run, summaryTick(seq))
}

// stopSummary cancels a running summary; the panel stays open with what arrived.
func (m *Model) stopSummary() bool {
	p := &m.summary
	if p.cancel == nil {
		return false
	}
	p.cancel()
	p.cancel = nil
	if p.stream != nil {
		p.stream.finish(true)
	}
	return true
}

func summaryTick(seq uint64) tea.Cmd {
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return summaryTickMsg{seq: seq} })
}

// onSummaryTick renders a frame if text arrived since the last one and no
// render is running; after the stream ends it renders once in full and stops.
func (m *Model) onSummaryTick(msg summaryTickMsg) tea.Cmd {
	p := &m.summary
	if msg.seq != p.seq || !p.open || p.done {
		p.ticking = false
		return nil
	}
	next := summaryTick(p.seq)
	if p.inFlight {
		return next
	}
	doc, version, finished := p.stream.snapshot()
	if version == p.rendered && !finished {
		return next
	}
	p.inFlight = true
	cache, width, seq, paint, terms := p.cache, p.view.width, p.seq, newHitPaint(m.styles), p.terms
	render := func() tea.Msg {
		doc := highlightTerms(doc, terms)
		var text string
		if finished {
			text = cache.Full(doc, width)
		} else {
			text = cache.Frame(doc, width)
		}
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			lines[i] = fit(paintHits(l, paint, false), width)
		}
		return summaryRenderedMsg{seq: seq, version: version, final: finished, lines: lines}
	}
	if finished {
		p.ticking = false
		return render
	}
	return tea.Batch(render, next)
}

// applySummaryFrame shows a rendered frame.
func (m *Model) applySummaryFrame(msg summaryRenderedMsg) tea.Cmd {
	p := &m.summary
	if msg.seq != p.seq {
		return nil
	}
	p.inFlight = false
	p.rendered = msg.version
	p.view.SetLines(msg.lines)
	if p.follow {
		p.view.GotoBottom()
	}
	if msg.final {
		p.done = true
		if p.follow {
			p.view.GotoTop()
		}
		return nil
	}
	// The stream may have ended while this frame rendered: keep the clock
	// going until the final render has been asked for.
	if !p.ticking {
		p.ticking = true
		return summaryTick(p.seq)
	}
	return nil
}

// onSummaryDone marks the pipeline finished; the next tick renders in full.
func (m *Model) onSummaryDone(msg summaryDoneMsg) tea.Cmd {
	p := &m.summary
	if msg.seq != p.seq {
		return nil
	}
	p.cancel = nil
	if !p.ticking && !p.done {
		p.ticking = true
		return summaryTick(p.seq)
	}
	return nil
}

// closeSummary hides the panel (cancelling the stream first).
func (m *Model) closeSummary() {
	m.stopSummary()
	m.summary.open = false
	m.seqSummary++ // late frames of the closed panel are dropped
	m.summary.seq = m.seqSummary
}
