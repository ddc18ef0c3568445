package ui

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// transcriptDoc is a session rendered for the detail pane at one width.
type transcriptDoc struct {
	session store.Session
	shortID string // the session's short id (ShortIDBackend), "" when unknown
	// raw are the rendered lines, each at most width cells once painted,
	// with the highlight markers still in (balanced on every line); lines
	// are the same painted and fitted, what the pane shows.
	raw, lines []string
	width      int
	msgIDs     []int64 // the rendered messages, in order
	msgStart   []int   // first line of each message; one more entry: len(raw)
	anchor     int     // index into msgIDs of the best hit, -1 if none
	expanded   bool    // tool calls shown in full
	query      string
	find       string // the in-pane search highlighted instead of the query, "" for none
	paint      hitPaint
}

// readableWidth is the widest a message's prose is set, in cells.
const readableWidth = 100

// maxMessageChars bounds what one message contributes to the pane: a 2 MB
// tool output would cost seconds of Glamour; the full text is one `o` away.
const maxMessageChars = 6000

// transcriptInput is what a transcript render needs, copied out of the model
// so the command never touches it.
type transcriptInput struct {
	session  store.Session
	msgs     []store.Message
	width    int
	terms    []hlTerm
	anchorID int64
	expanded bool
	thinking bool // reasoning shown in full, else one folded line
	query    string
	find     string
	reveal   bool // secrets as stored; else redacted before rendering
	// toolsKey and thinkingKey name the keys that unfold tool calls and
	// thinking in the hints ("t", "T" when empty), which follow the
	// config file's bindings.
	toolsKey, thinkingKey string
}

// renderTranscript renders messages with Glamour, roles as headers, tool
// calls compact unless expanded, query terms highlighted. Stored text is
// sanitised first (so no escape of its own survives) and the rendered
// lines again after every decode (JSON, HTML entities), in RenderLines and
// describeToolCalls. It checks ctx between messages so a superseded render
// stops early.
func renderTranscript(ctx context.Context, md *markdown, st *Styles, in transcriptInput) (transcriptDoc, error) {
	doc := transcriptDoc{session: in.session, width: in.width, anchor: -1, expanded: in.expanded, query: in.query,
		find: in.find, paint: newHitPaint(st)}
	w := max(in.width, 10)
	var lines []string
	add := func(ls ...string) { lines = append(lines, ls...) }
	wrap := func(s string) { add(termtext.Wrap(s, w, "")...) }
	hl := func(s string) string { return highlightTerms(s, in.terms) }
	for _, m := range in.msgs {
		if err := ctx.Err(); err != nil {
			return doc, err
		}
		if m.Role == "tool" && !in.expanded && len(lines) > 0 && lines[len(lines)-1] == "" {
			// A compact tool result sits under the call it answers (or
			// the result before it), and the blank line goes after it.
			lines = lines[:len(lines)-1]
		}
		if m.ID == in.anchorID {
			doc.anchor = len(doc.msgIDs)
		}
		doc.msgIDs = append(doc.msgIDs, m.ID)
		doc.msgStart = append(doc.msgStart, len(lines))
		content := termtext.Sanitize(m.Content)
		more := ""
		if len(content) > maxMessageChars {
			more = fmt.Sprintf("… %d more characters (o opens the whole session in $PAGER)", len(content)-maxMessageChars)
			content = cutUTF8(content, maxMessageChars)
		}
		when := ""
		if !m.Timestamp.IsZero() {
			when = " · " + m.Timestamp.Local().Format("2006-01-02 15:04")
		}
		switch {
		case m.DisplayKind == store.DisplayKindEarlier:
			// Text the source rewrote since: kept, searched, never live.
			when += " · earlier version"
		case m.Compacted:
			// Folded into a compaction summary: history the agent no
			// longer sees, kept because a search may land on it.
			when += " · compacted"
		}
		switch m.Role {
		case "user":
			if m.DisplayKind != "" {
				// A slash command, or text the agent program wrote into a
				// user record: dim, and never labelled as the person's words.
				add(st.Detail.Dim.Render("▍ "+recall.Speaker(m)) + st.Detail.Dim.Render(when))
				break
			}
			add(st.Detail.UserRole.Render("▍ user") + st.Detail.Dim.Render(when))
		case "assistant":
			add(st.Detail.AssistantRole.Render("▍ assistant") + st.Detail.Dim.Render(when))
			add(thinkingLines(md, st, m.Reasoning, in.thinking, keyOr(in.thinkingKey, "T"), w, hl)...)
		case "tool":
			name := termtext.OneLine(termtext.Sanitize(m.ToolName))
			if name == "" {
				name = "tool"
			}
			if !in.expanded {
				add(compactTool(st, st.Detail.ToolRole.Render("  ⚙ "+name+" → "), hl(termtext.OneLine(content)), "", w)...)
				add("")
				continue
			}
			add(st.Detail.ToolRole.Render("  ⚙ " + name + " output" + when))
			add(md.RenderLines(hl(fence("text", content)), w)...)
			if more != "" {
				wrap(st.Detail.Dim.Render(more))
			}
			add("")
			continue
		default:
			add(st.Detail.Dim.Render("▍ "+termtext.OneLine(termtext.Sanitize(m.Role))) + st.Detail.Dim.Render(when))
		}
		if strings.TrimSpace(content) != "" {
			// Prose is capped at a readable measure (glow's), however wide
			// the pane: 180-cell lines are hard to follow.
			add(md.RenderLines(hl(content), min(w, readableWidth))...)
		}
		if more != "" {
			wrap(st.Detail.Dim.Render(more))
		}
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			if in.expanded {
				add(st.Detail.ToolRole.Render("  ⚙ tool calls"))
				add(md.RenderLines(hl(expandedToolCalls(m.ToolCalls)), w)...)
			} else {
				calls := hl(describeToolCallsFull(m.ToolCalls))
				if len(in.terms) > 0 && !strings.ContainsRune(calls, termtext.MarkStart) {
					// The match is in an argument the short form leaves
					// out (an edit's text, a command's description): show
					// every argument, so the hit is on screen.
					if all := hl(flatToolCalls(m.ToolCalls)); strings.ContainsRune(all, termtext.MarkStart) {
						calls = all
					}
				}
				add(compactTool(st, st.Detail.ToolRole.Render("  ⚙ calls "), calls,
					st.Detail.Dim.Render("  ("+keyOr(in.toolsKey, "t")+" expands)"), w)...)
			}
		}
		if len(in.terms) > 0 {
			lines = showHiddenMatch(st, lines, doc.msgStart[len(doc.msgStart)-1], func() string { return hl(termtext.OneLine(content)) }, w)
		}
		add("")
	}
	doc.msgStart = append(doc.msgStart, len(lines))
	doc.raw = lines
	doc.lines = make([]string, len(lines))
	doc.repaint(0, len(lines), false)
	return doc, nil
}

// repaint paints raw lines [a, b) into lines, as the current hit or not.
func (doc *transcriptDoc) repaint(a, b int, current bool) {
	for i := max(a, 0); i < min(b, len(doc.raw)); i++ {
		doc.lines[i] = termtext.Fit(paintHits(doc.raw[i], doc.paint, current), doc.width)
	}
}

// messageAt returns the index of the message line n belongs to.
func (doc *transcriptDoc) messageAt(n int) int {
	lo, hi := 0, len(doc.msgIDs)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if doc.msgStart[mid] <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// hasMarks reports whether any raw line in [a, b) holds a highlight.
func (doc *transcriptDoc) hasMarks(a, b int) bool {
	for i := a; i < b && i < len(doc.raw); i++ {
		if strings.ContainsRune(doc.raw[i], termtext.MarkStart) {
			return true
		}
	}
	return false
}

// maxHitLines is how many lines a compact tool line may grow to when it
// holds a match.
const maxHitLines = 4

// compactTool is a tool call or result in the compact view: one line of
// text after label, cut to the pane's width. When text holds a highlighted
// match (the line n/N stops at) a cut would hide it behind its …, so the
// line is wrapped instead, from shortly before the first match, up to
// maxHitLines lines: the current hit is always on screen.
func compactTool(st *Styles, label, text, tail string, w int) []string {
	i := strings.IndexRune(text, termtext.MarkStart)
	if i < 0 {
		return []string{label + st.Detail.Tool.Render(compactLine(text)) + tail}
	}
	lead := ""
	if back := w / 3; termtext.Width(text[:i]) > back {
		// Start at a word a third of a line before the match.
		j := i
		for n := 0; j > 0 && n < back; n++ {
			_, size := utf8.DecodeLastRuneInString(text[:j])
			j -= size
		}
		if k := strings.IndexByte(text[j:i], ' '); k >= 0 {
			j += k + 1
		}
		text, lead = text[j:], "…"
	}
	text = cutUTF8(text, maxHitLines*w*4)
	lines := termtext.Wrap(label+st.Detail.Tool.Render(lead+text)+tail, w, "    ")
	// Each wrapped line carries its own styling and highlight, so lines
	// can be dropped whole; t shows the rest.
	return lines[:min(len(lines), maxHitLines)]
}

// showHiddenMatch adds an excerpt under the header of the message that
// starts at line start when its text (highlighted) holds a match its
// rendered lines do not show: a code block's language ("```nginx"), a link's
// address, markup the renderer drops. The hit n/N stops at is then on
// screen rather than an unmarked message.
func showHiddenMatch(st *Styles, lines []string, start int, highlighted func() string, w int) []string {
	for _, l := range lines[start:] {
		if strings.ContainsRune(l, termtext.MarkStart) {
			return lines // the match is on screen already: the common case costs no second highlight
		}
	}
	hl := highlighted()
	if !strings.ContainsRune(hl, termtext.MarkStart) {
		return lines
	}
	excerpt := compactTool(st, st.Detail.Dim.Render("  ⌕ "), hl, "", w)
	at := min(start+1, len(lines))
	return append(lines[:at], append(excerpt, lines[at:]...)...)
}

// compactLine is the first 200 characters of s on one line.
func compactLine(s string) string {
	return cutUTF8(termtext.OneLine(s), 200)
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n]
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }

// thinkingLines is an assistant message's reasoning: folded to one dim line
// saying how long it is and that key (T) shows it, or in full, dim, under a
// "thinking" label; nothing when the message has none.
func thinkingLines(md *markdown, st *Styles, reasoning string, open bool, key string, w int, hl func(string) string) []string {
	text := strings.TrimSpace(termtext.Sanitize(reasoning))
	if text == "" {
		return nil
	}
	if !open {
		return []string{st.Detail.Dim.Render(fmt.Sprintf("  ✻ thinking (%d words, %s shows)", len(strings.Fields(text)), key))}
	}
	if len(text) > maxMessageChars {
		text = cutUTF8(text, maxMessageChars) + "…"
	}
	out := []string{st.Detail.Dim.Render("  ✻ thinking")}
	for _, l := range md.RenderLines(hl(text), w) {
		out = append(out, st.Detail.Dim.Render(l))
	}
	return append(out, "")
}

// keyOr is key, or def when no key was given (renders made in tests).
func keyOr(key, def string) string {
	if key == "" {
		return def
	}
	return key
}
