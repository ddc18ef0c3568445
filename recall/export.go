package recall

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
)

// ExportMarkdown writes a session as a markdown document: a metadata header,
// then each message under its role. The text is the stored text, byte for
// byte, but for tool calls, which are shown as a person reads them (each
// call's name, then its arguments with their strings decoded: the stored
// JSON escapes every quote and newline of a command twice); a list that is
// not JSON is kept as stored. A caller that writes to a terminal or a pager
// sanitises it first.
func ExportMarkdown(w io.Writer, sess store.Session, msgs []store.Message) error {
	var b strings.Builder
	title := strings.Join(strings.Fields(sess.Title), " ")
	if title == "" {
		title = "Session " + sess.ID
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- id: `%s`\n- source: %s\n", sess.ID, sess.Source)
	if sess.Model != "" {
		fmt.Fprintf(&b, "- model: %s\n", sess.Model)
	}
	if !sess.StartedAt.IsZero() {
		fmt.Fprintf(&b, "- started: %s\n", sess.StartedAt.UTC().Format(time.RFC3339))
	}
	if sess.Cwd != "" {
		fmt.Fprintf(&b, "- cwd: `%s`\n", sess.Cwd)
	}
	if sess.ParentID != "" {
		fmt.Fprintf(&b, "- parent: `%s`\n", sess.ParentID)
	}
	fmt.Fprintf(&b, "- messages: %d\n", len(msgs))
	for _, m := range msgs {
		b.WriteString("\n## ")
		b.WriteString(Speaker(m))
		if m.ToolName != "" {
			b.WriteString(" · " + m.ToolName)
		}
		if !m.Timestamp.IsZero() {
			b.WriteString(" · " + m.Timestamp.UTC().Format("2006-01-02 15:04:05Z"))
		}
		b.WriteString("\n\n")
		content := m.Content
		if m.Role == "tool" {
			content = fenced(content, "text")
		}
		b.WriteString(content)
		b.WriteString("\n")
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			b.WriteString(markdownToolCalls(m.ToolCalls))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownToolCalls is a tool_calls column in markdown: each call's name,
// then its arguments (ReadableArgs) in a text block; JSON it cannot read is
// fenced as stored.
func markdownToolCalls(raw string) string {
	calls, ok := ParseToolCalls(raw)
	if !ok {
		return "\n" + fenced(raw, "json") + "\n"
	}
	var b strings.Builder
	for _, c := range calls {
		b.WriteString("\n⚙ **" + c.Name + "**\n")
		if args := c.ReadableArgs(); args != "" && args != "{}" {
			b.WriteString("\n" + fenced(args, "text") + "\n")
		}
	}
	return b.String()
}

// fenced wraps s in a code fence longer than any backtick run inside it.
func fenced(s, lang string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + s + "\n" + fence
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ExportFileName is the file name `e` writes a session to: recall-<id>.md.
func ExportFileName(sess store.Session) string {
	id := unsafeName.ReplaceAllString(sess.ID, "_")
	if len(id) > 40 {
		id = id[:40]
	}
	return "recall-" + id + ".md"
}
