package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// transcriptDoc is a session rendered for the detail pane at one width.
type transcriptDoc struct {
	session store.Session
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
	query    string
	find     string
	reveal   bool // secrets as stored; else redacted before rendering
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
		if m.Compacted {
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
		case "tool":
			name := termtext.OneLine(termtext.Sanitize(m.ToolName))
			if name == "" {
				name = "tool"
			}
			if !in.expanded {
				add(st.Detail.ToolRole.Render("  ⚙ "+name+" → ")+st.Detail.Tool.Render(compactLine(hl(content))), "")
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
			add(md.RenderLines(hl(content), w)...)
		}
		if more != "" {
			wrap(st.Detail.Dim.Render(more))
		}
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			if in.expanded {
				add(st.Detail.ToolRole.Render("  ⚙ tool calls"))
				add(md.RenderLines(hl(expandedToolCalls(m.ToolCalls)), w)...)
			} else {
				add(st.Detail.ToolRole.Render("  ⚙ calls ") + st.Detail.Tool.Render(hl(describeToolCalls(m.ToolCalls))) +
					st.Detail.Dim.Render("  (t expands)"))
			}
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
