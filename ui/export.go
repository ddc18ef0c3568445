package ui

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

// ExportMarkdown writes a session as a markdown document: a metadata header,
// then each message under its role. Text is sanitised (no terminal escapes),
// since exports end up in pagers and terminals.
func ExportMarkdown(w io.Writer, sess store.Session, msgs []store.Message) error {
	var b strings.Builder
	title := termtext.OneLine(termtext.Sanitize(sess.Title))
	if title == "" {
		title = "Session " + termtext.Sanitize(sess.ID)
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- id: `%s`\n- source: %s\n", termtext.Sanitize(sess.ID), termtext.Sanitize(sess.Source))
	if sess.Model != "" {
		fmt.Fprintf(&b, "- model: %s\n", termtext.Sanitize(sess.Model))
	}
	if !sess.StartedAt.IsZero() {
		fmt.Fprintf(&b, "- started: %s\n", sess.StartedAt.UTC().Format(time.RFC3339))
	}
	if sess.Cwd != "" {
		fmt.Fprintf(&b, "- cwd: `%s`\n", termtext.Sanitize(sess.Cwd))
	}
	if sess.ParentID != "" {
		fmt.Fprintf(&b, "- parent: `%s`\n", termtext.Sanitize(sess.ParentID))
	}
	fmt.Fprintf(&b, "- messages: %d\n", len(msgs))
	for _, m := range msgs {
		b.WriteString("\n## ")
		b.WriteString(termtext.Sanitize(m.Role))
		if m.ToolName != "" {
			b.WriteString(" · " + termtext.Sanitize(m.ToolName))
		}
		if !m.Timestamp.IsZero() {
			b.WriteString(" · " + m.Timestamp.UTC().Format("2006-01-02 15:04:05Z"))
		}
		b.WriteString("\n\n")
		content := termtext.Sanitize(m.Content)
		if m.Role == "tool" {
			content = fenced(content, "text")
		}
		b.WriteString(content)
		b.WriteString("\n")
		if m.ToolCalls != "" && m.ToolCalls != "[]" {
			b.WriteString("\n" + fenced(termtext.Sanitize(m.ToolCalls), "json") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
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
