package ui

import (
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/ui/termtext"
)

// Tool calls are stored as JSON whose arguments are themselves a JSON
// string, so what they hold is only known after two decodes, and a decode
// turns `\u001b` text into a real ESC. Both views below sanitise the text
// they made, after the last decode: it is the last step before the screen.

// describeToolCalls renders a tool_calls list as `Bash docker ps · Read
// /etc/hosts`: each call's name and its most telling argument. Anything it
// cannot read is shown as one compact line of the raw text.
func describeToolCalls(raw string) string {
	return compactLine(termtext.Sanitize(recall.DescribeToolCalls(raw)))
}

// describeToolCallsFull is describeToolCalls uncut (up to
// maxMessageChars), for finding a match past the first 200 characters.
func describeToolCallsFull(raw string) string {
	return cutUTF8(termtext.OneLine(termtext.Sanitize(recall.DescribeToolCalls(raw))), maxMessageChars)
}

// flatToolCalls is every call's name and all its arguments on one line
// (up to maxMessageChars), their strings decoded: `Edit file_path=…
// new_string=docker network inspect "$NET"`, never the stored `\"$NET\"`.
func flatToolCalls(raw string) string {
	calls, ok := recall.ParseToolCalls(raw)
	if !ok {
		return cutUTF8(termtext.OneLine(termtext.Sanitize(raw)), maxMessageChars)
	}
	var b strings.Builder
	for i, c := range calls {
		if i > 0 {
			b.WriteString(" · ")
		}
		b.WriteString(c.Name + " " + c.FlatArgs())
	}
	return cutUTF8(termtext.OneLine(termtext.Sanitize(b.String())), maxMessageChars)
}

// expandedToolCalls renders a tool_calls list as markdown for the `t` view:
// each call's name, then its arguments pretty-printed as JSON with their
// strings decoded once (the stored form escapes every quote twice).
func expandedToolCalls(raw string) string {
	calls, ok := recall.ParseToolCalls(raw)
	if !ok {
		return fence("json", termtext.Sanitize(cutUTF8(raw, maxMessageChars)))
	}
	var b strings.Builder
	for i, c := range calls {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("**" + mdEscapeLine(c.Name) + "**")
		if c.ID != "" {
			b.WriteString(" `" + strings.ReplaceAll(termtext.OneLine(termtext.Sanitize(c.ID)), "`", "") + "`")
		}
		if args := c.PrettyArgs(); args != "" && args != "{}" {
			b.WriteString("\n\n" + fence("json", termtext.Sanitize(cutUTF8(args, maxMessageChars))))
		}
	}
	return b.String()
}

// fence wraps text in a code block; backtick runs inside cannot close it.
func fence(lang, text string) string {
	return "```" + lang + "\n" + strings.ReplaceAll(text, "```", "ˋˋˋ") + "\n```"
}
