package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

// transcriptDoc is a session rendered for the detail pane at one width.
type transcriptDoc struct {
	session  store.Session
	lines    []string // fitted to width
	width    int
	hitLines []int // lines holding a highlighted match, ascending
	anchor   int   // line where the best hit's message starts, -1 if none
	expanded bool  // tool calls shown in full
	query    string
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
	terms    []string
	anchorID int64
	expanded bool
	query    string
}

// renderTranscript renders messages with Glamour, roles as headers, tool
// calls compact unless expanded, query terms highlighted. It checks ctx
// between messages so a superseded render stops early.
func renderTranscript(ctx context.Context, md *markdown, st *Styles, in transcriptInput) (transcriptDoc, error) {
	doc := transcriptDoc{session: in.session, width: in.width, anchor: -1, expanded: in.expanded, query: in.query}
	var lines []string
	add := func(s string) {
		for _, l := range strings.Split(s, "\n") {
			if strings.ContainsRune(l, termtext.MarkStart) {
				doc.hitLines = append(doc.hitLines, len(lines))
			}
			l = strings.NewReplacer(string(termtext.MarkStart), hitOn, string(termtext.MarkEnd), hitOff).Replace(l)
			lines = append(lines, fit(l, in.width))
		}
	}
	for _, m := range in.msgs {
		if err := ctx.Err(); err != nil {
			return doc, err
		}
		if m.ID == in.anchorID {
			doc.anchor = len(lines)
		}
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
		switch m.Role {
		case "user":
			add(st.Detail.UserRole.Render("▍ user") + st.Detail.Dim.Render(when))
		case "assistant":
			add(st.Detail.AssistantRole.Render("▍ assistant") + st.Detail.Dim.Render(when))
		case "tool":
			name := termtext.Sanitize(m.ToolName)
			if name == "" {
				name = "tool"
			}
			if !in.expanded {
				add(st.Detail.ToolRole.Render("  ⚙ "+name+" → ") + st.Detail.Tool.Render(compactLine(highlightTerms(content, in.terms))))
				continue
			}
			add(st.Detail.ToolRole.Render("  ⚙ " + name + " output" + when))
			add(md.Render("```text\n"+strings.ReplaceAll(highlightTerms(content, in.terms), "```", "ˋˋˋ")+"\n```", in.width))
			if more != "" {
				add(st.Detail.Dim.Render(more))
			}
			add("")
			continue
		default:
			add(st.Detail.Dim.Render("▍ "+termtext.Sanitize(m.Role)) + st.Detail.Dim.Render(when))
		}
		if strings.TrimSpace(content) != "" {
			add(md.Render(highlightTerms(content, in.terms), in.width))
		}
		if more != "" {
			add(st.Detail.Dim.Render(more))
		}
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			calls := termtext.Sanitize(m.ToolCalls)
			if in.expanded {
				add(st.Detail.ToolRole.Render("  ⚙ tool calls"))
				add(md.Render("```json\n"+cutUTF8(calls, maxMessageChars)+"\n```", in.width))
			} else {
				add(st.Detail.ToolRole.Render("  ⚙ calls ") + st.Detail.Tool.Render(describeToolCalls(calls)) + st.Detail.Dim.Render("  (t expands)"))
			}
		}
		add("")
	}
	doc.lines = lines
	return doc, nil
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

// highlightTerms wraps case-insensitive occurrences of terms in the highlight
// markers (replaced by reverse video after rendering). A term that is a
// prefix of a word (as typed) matches the word's start.
func highlightTerms(s string, terms []string) string {
	if len(terms) == 0 || s == "" {
		return s
	}
	lower := strings.ToLower(s)
	if len(lower) != len(s) { // case folding changed byte offsets: skip rather than mis-mark
		return s
	}
	type span struct{ a, b int }
	var spans []span
	for _, t := range terms {
		lt := strings.ToLower(t)
		for i := 0; ; {
			j := strings.Index(lower[i:], lt)
			if j < 0 {
				break
			}
			spans = append(spans, span{i + j, i + j + len(lt)})
			i += j + len(lt)
		}
	}
	if len(spans) == 0 {
		return s
	}
	// Sort and merge overlapping spans (terms may overlap: "data", "database").
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].a < spans[j-1].a; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 6*len(spans))
	pos := 0
	for i := 0; i < len(spans); i++ {
		a, e := spans[i].a, spans[i].b
		for i+1 < len(spans) && spans[i+1].a <= e {
			e = max(e, spans[i+1].b)
			i++
		}
		if a < pos {
			continue
		}
		b.WriteString(s[pos:a])
		b.WriteRune(termtext.MarkStart)
		b.WriteString(s[a:e])
		b.WriteRune(termtext.MarkEnd)
		pos = e
	}
	b.WriteString(s[pos:])
	return b.String()
}
