package sessionsearch

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// The budget: with Request.MaxChars set, every answer is trimmed, step by
// step, until the JSON actually sent fits in that many characters. Each
// step is small and taken for one result at a time, from the last result
// to the first, so the best results keep the most. For discover the order
// is: long messages in the evidence are clipped (the anchor keeps the part
// around the match), evidence windows narrow around the anchor, summaries
// shorten, bookends go, and only then do whole results drop. Whatever was
// cut, the answer says so (budget.truncated, a per-result truncated flag,
// "…[+N chars]" in clipped text) and how to get it: scroll.

// fit renders env within req's budget (if any).
func fit(env any, req Request) []byte {
	p := newProjection(req.Fields)
	if req.MaxChars <= 0 {
		return p.render(env, req.Indent)
	}
	b := &Budget{MaxChars: req.MaxChars}
	f := &fitter{max: req.MaxChars, budget: b, render: func() []byte { return p.render(env, req.Indent) }}
	switch e := env.(type) {
	case *Discover:
		e.Budget = b
		// The echoed query is the caller's own text: a query of a million
		// characters must not make the answer a million characters long.
		if q, cut := clipText(e.Query, max(40, req.MaxChars/maxEchoShare), ""); cut {
			e.Query = q
			f.trimmed()
		}
		f.hint = "Trimmed to fit max_chars. For more of a result, scroll: its session_id + around_message_id=<its match_message_id> " +
			"(window up to 20); or raise max_chars."
		fitDiscover(f, e)
	case *Browse:
		e.Budget = b
		f.hint = "Trimmed to fit max_chars: fewer sessions than asked for. Raise max_chars, or pass a query to search."
		fitBrowse(f, e)
	case *Scroll:
		e.Budget = b
		f.hint = "Trimmed to fit max_chars. Scroll again with around_message_id=<the first or last id shown> " +
			"and a smaller window, or raise max_chars, to see what was left out."
		fitScroll(f, e)
	case *Read:
		e.Budget = b
		f.hint = "Trimmed to fit max_chars. Pass around_message_id (any id above) to scroll, or raise max_chars."
		fitRead(f, e)
	default:
		f.fits()
	}
	return f.out
}

// maxEchoShare: the echoed query takes at most 1/maxEchoShare of the budget.
const maxEchoShare = 10

// fitter renders an envelope and measures it in characters.
type fitter struct {
	max     int
	render  func() []byte
	out     []byte
	budget  *Budget
	hint    string
	clipped map[int64]bool // messages clipped at least once
}

// clip counts message id as clipped (once, however often it is clipped again).
func (f *fitter) clip(id int64) {
	if f.clipped == nil {
		f.clipped = map[int64]bool{}
	}
	if !f.clipped[id] {
		f.clipped[id] = true
		f.budget.ClippedMessages++
	}
}

// fits renders the envelope as it now is and reports whether it fits.
func (f *fitter) fits() bool {
	f.out = f.render()
	return utf8.RuneCount(f.out) <= f.max
}

// trimmed records that something was cut.
func (f *fitter) trimmed() {
	f.budget.Truncated = true
	f.budget.Hint = f.hint
}

// run takes steps until the answer fits; a step changes the envelope and
// reports whether it changed anything.
func (f *fitter) run(steps ...func() bool) {
	for _, step := range steps {
		if f.fits() {
			return
		}
		if step() {
			f.trimmed()
		}
	}
	f.fits()
}

// Clip lengths of the discover steps, in characters.
type clipLevel struct{ other, anchor, summary int }

var discoverClips = []clipLevel{{1500, 3000, 1500}, {600, 1500, 800}, {250, 800, 400}, {120, 300, 0}, {80, 150, 0}}

type discoverState struct {
	f     *fitter
	e     *Discover
	focus []string // per result: the matched term, for clipping the anchor around it
	// summaryClipped marks results whose summary was counted as clipped.
	summaryClipped []bool
}

func fitDiscover(f *fitter, e *Discover) {
	n := len(e.Results)
	s := &discoverState{f: f, e: e, focus: make([]string, n), summaryClipped: make([]bool, n)}
	for i, r := range e.Results {
		s.focus[i] = focusTerm(r.Snippet)
	}
	var steps []func() bool
	clipStep := func(l clipLevel) func() bool {
		return func() bool { return s.each(func(i int) bool { return s.clipResult(i, l) }) }
	}
	radius := func(r int) func() bool {
		return func() bool { return s.each(func(i int) bool { return s.narrow(i, r) }) }
	}
	bookends := func(start, end int) func() bool {
		return func() bool { return s.each(func(i int) bool { return s.bookends(i, start, end) }) }
	}
	// First, nothing may be longer than the whole budget.
	steps = append(steps, clipStep(clipLevel{f.max, f.max, f.max}), clipStep(discoverClips[0]), radius(4), radius(3), radius(2), clipStep(discoverClips[1]),
		bookends(3, 1), bookends(1, 1), radius(1), clipStep(discoverClips[2]), bookends(1, 0), radius(0),
		bookends(0, 0), clipStep(discoverClips[3]), s.dropResults, clipStep(discoverClips[4]), s.clipSnippets)
	f.run(steps...)
}

// each applies change to the results from the last to the first, stopping
// as soon as the answer fits.
func (s *discoverState) each(change func(i int) bool) bool {
	changed := false
	for i := len(s.e.Results) - 1; i >= 0; i-- {
		if change(i) {
			changed = true
			s.e.Results[i].Truncated = true // before measuring: the flag is part of the answer
			s.f.trimmed()
			if s.f.fits() {
				return true
			}
		}
	}
	return changed
}

func (s *discoverState) clipResult(i int, l clipLevel) bool {
	r := &s.e.Results[i]
	changed := false
	for _, part := range [][]Message{r.BookendStart, r.BookendEnd, r.Messages} {
		for k := range part {
			n, focus := l.other, ""
			if part[k].Anchor {
				n, focus = l.anchor, s.focus[i]
			}
			if clipMessage(&part[k], n, focus) {
				changed = true
				s.f.clip(part[k].ID)
			}
		}
	}
	if r.Summary != "" {
		summaryChanged := false
		switch {
		case l.summary == 0:
			r.Summary, r.SummaryKind, r.SummaryReason = "", "", ""
			summaryChanged = true
		default:
			if c, ok := clipText(r.Summary, l.summary, ""); ok {
				r.Summary, summaryChanged = c, true
			}
		}
		if summaryChanged {
			changed = true
			if !s.summaryClipped[i] {
				s.summaryClipped[i] = true
				s.f.budget.ClippedSummaries++
			}
		}
	}
	return changed
}

// narrow keeps the messages within radius of the anchor.
func (s *discoverState) narrow(i, radius int) bool {
	r := &s.e.Results[i]
	a := -1
	for k, m := range r.Messages {
		if m.Anchor {
			a = k
		}
	}
	if a < 0 {
		return false
	}
	lo, hi := max(0, a-radius), min(len(r.Messages), a+radius+1)
	if lo == 0 && hi == len(r.Messages) {
		return false
	}
	s.f.budget.OmittedMessages += len(r.Messages) - (hi - lo)
	r.Messages = r.Messages[lo:hi]
	r.MessagesBefore, r.MessagesAfter = a-lo, hi-a-1
	return true
}

// bookends keeps the first start and the last end bookends.
func (s *discoverState) bookends(i, start, end int) bool {
	r := &s.e.Results[i]
	changed := false
	if len(r.BookendStart) > start {
		s.f.budget.OmittedMessages += len(r.BookendStart) - start
		r.BookendStart, changed = r.BookendStart[:start], true
	}
	if len(r.BookendEnd) > end {
		s.f.budget.OmittedMessages += len(r.BookendEnd) - end
		r.BookendEnd, changed = r.BookendEnd[len(r.BookendEnd)-end:], true
	}
	return changed
}

// clipSnippets is the last resort: the snippets (and titles) of the results left.
func (s *discoverState) clipSnippets() bool {
	return s.each(func(i int) bool {
		r := &s.e.Results[i]
		changed := false
		if c, ok := clipText(r.Snippet, 160, ""); ok {
			r.Snippet, changed = c, true
		}
		if r.Title != nil {
			if c, ok := clipText(*r.Title, 60, ""); ok {
				r.Title, changed = &c, true
			}
		}
		return changed
	})
}

// dropResults removes results from the end, keeping the best one.
func (s *discoverState) dropResults() bool {
	changed := false
	for len(s.e.Results) > 1 {
		s.e.Results = s.e.Results[:len(s.e.Results)-1]
		s.e.Count = len(s.e.Results)
		s.f.budget.DroppedResults++
		changed = true
		s.f.trimmed()
		if s.f.fits() {
			break
		}
	}
	return changed
}

func fitBrowse(f *fitter, e *Browse) {
	f.run(func() bool {
		changed := false
		for len(e.Results) > 1 && !f.fits() {
			e.Results = e.Results[:len(e.Results)-1]
			e.Count = len(e.Results)
			e.Message = browseMessage(e.Count)
			changed = true
			f.trimmed()
		}
		return changed
	})
}

// fitScroll clips long messages first (the caller chose the window), then
// narrows the window around the anchor.
func fitScroll(f *fitter, e *Scroll) {
	anchor := e.AroundMessageID
	clipAll := func(other, anch int) func() bool {
		return func() bool { return clipMessages(f, e.Messages, anchor, other, anch) }
	}
	narrow := func() bool {
		changed := false
		for !f.fits() && len(e.Messages) > 1 {
			if !dropFarthest(&e.Messages, anchor) {
				break
			}
			f.budget.OmittedMessages++
			changed = true
			f.trimmed()
		}
		e.MessagesBefore, e.MessagesAfter = countAround(e.Messages, anchor)
		return changed
	}
	f.run(clipAll(f.max, f.max), clipAll(2000, 4000), clipAll(800, 2000), narrow, clipAll(300, 1000), clipAll(120, 300))
}

// fitRead clips long messages, then drops messages from the middle (the
// end of the head and the start of the tail), which scroll can reach.
func fitRead(f *fitter, e *Read) {
	clipAll := func(n int) func() bool { return func() bool { return clipMessages(f, e.Messages, 0, n, n) } }
	middle := func() bool {
		changed := false
		for !f.fits() && len(e.Messages) > 2 {
			// Alternate: the last of the head, then the first of the tail.
			mid := len(e.Messages) / 2
			e.Messages = append(e.Messages[:mid], e.Messages[mid+1:]...)
			f.budget.OmittedMessages++
			changed = true
			f.trimmed()
		}
		return changed
	}
	f.run(clipAll(f.max), clipAll(2000), clipAll(800), middle, clipAll(300), clipAll(120))
}

// clipMessages clips every message to other characters (the anchor to anch).
func clipMessages(f *fitter, msgs []Message, anchor int64, other, anch int) bool {
	changed := false
	for k := range msgs {
		n := other
		if anchor != 0 && msgs[k].ID == anchor {
			n = anch
		}
		if clipMessage(&msgs[k], n, "") {
			f.clip(msgs[k].ID)
			changed = true
		}
	}
	return changed
}

// dropFarthest removes the message farthest from the anchor (ties: the later one).
func dropFarthest(msgs *[]Message, anchor int64) bool {
	a := -1
	for k, m := range *msgs {
		if m.ID == anchor {
			a = k
		}
	}
	if a < 0 {
		return false
	}
	before, after := a, len(*msgs)-1-a
	switch {
	case after == 0 && before == 0:
		return false
	case after >= before:
		*msgs = (*msgs)[:len(*msgs)-1]
	default:
		*msgs = (*msgs)[1:]
	}
	return true
}

func countAround(msgs []Message, anchor int64) (before, after int) {
	for _, m := range msgs {
		switch {
		case m.ID < anchor:
			before++
		case m.ID > anchor:
			after++
		}
	}
	return before, after
}

// clipMessage clips a message's content and tool calls to about n characters each.
func clipMessage(m *Message, n int, focus string) bool {
	changed := false
	if c, ok := clipText(m.Content, n, focus); ok {
		m.Content, changed = c, true
	}
	if len(m.ToolCalls) > n {
		if c, ok := clipText(string(m.ToolCalls), n, ""); ok {
			// Clipped JSON is no longer JSON: it is sent as a string.
			m.ToolCalls, _ = json.Marshal(c)
			changed = true
		}
	}
	return changed
}

// clipText shortens s to about n characters, keeping the part around focus
// (from a quarter of the way in) when focus occurs, else the start, and
// marks each cut; ok is false when s already fits.
func clipText(s string, n int, focus string) (string, bool) {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s, false
	}
	rs := []rune(s)
	start := 0
	if focus != "" {
		if at := strings.Index(strings.ToLower(s), strings.ToLower(focus)); at >= 0 {
			start = max(0, utf8.RuneCountInString(s[:min(at, len(s))])-n/4)
		}
	}
	end := min(len(rs), start+n)
	start = max(0, end-n)
	var b strings.Builder
	if start > 0 {
		fmt.Fprintf(&b, "[%d chars]…", start)
	}
	b.WriteString(string(rs[start:end]))
	if end < len(rs) {
		fmt.Fprintf(&b, "…[+%d chars]", len(rs)-end)
	}
	return b.String(), true
}

// focusTerm is the first highlighted term of a snippet (>>>term<<<), "" for none.
func focusTerm(snippet string) string {
	_, rest, ok := strings.Cut(snippet, ">>>")
	if !ok {
		return ""
	}
	term, _, _ := strings.Cut(rest, "<<<")
	return strings.TrimSpace(strings.ReplaceAll(term, store.HighlightStart, ""))
}
