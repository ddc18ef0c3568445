package store

import (
	"fmt"
	"strings"
)

// What one message puts in the full-text indexes (migration 1004): the
// first indexContentChars characters of its content, indexToolNameChars of
// its tool name and indexToolCallsChars of its tool calls. The bounds keep
// one huge tool output from costing more than itself (it is stored whole,
// indexed on its head); normal messages are indexed in full.
const (
	indexContentChars   = 262144
	indexToolNameChars  = 1024
	indexToolCallsChars = 262144
)

// indexField is the indexed part of one field: for NUL-free text exactly
// the triggers' substr(COALESCE(x, ”), 1, n), counting characters as
// SQLITE_SKIP_UTF8 does (a byte >= 0xC0 and every continuation byte after
// it are one character, any other byte is one), so invalid UTF-8 is cut at
// the same byte. A NUL byte is read as a space: the triggers' substr stops
// at the first NUL instead, and rows with NUL are therefore always indexed
// here (InsertMessages), never by the triggers.
func indexField(s string, n int) string {
	i, chars := 0, 0
	for i < len(s) && chars < n {
		b := s[i]
		i++
		if b >= 0xC0 {
			for i < len(s) && s[i]&0xC0 == 0x80 {
				i++
			}
		}
		chars++
	}
	s = s[:i]
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", " ")
	}
	return s
}

// hasNUL reports a message the triggers would index only up to a NUL byte.
func hasNUL(m *Message) bool {
	return strings.IndexByte(m.Content, 0) >= 0 || strings.IndexByte(m.ToolName, 0) >= 0 || strings.IndexByte(m.ToolCalls, 0) >= 0
}

// indexText is the text the FTS insert triggers index for one message.
func indexText(content, toolName, toolCalls string) string {
	return indexField(content, indexContentChars) + " " + indexField(toolName, indexToolNameChars) + " " + indexField(toolCalls, indexToolCallsChars)
}

// indexTextSQL is the triggers' expression over the columns of alias, for
// code that reads rows back (the CJK drain).
func indexTextSQL(alias string) string {
	field := func(col string, n int) string {
		return fmt.Sprintf("substr(COALESCE(%s.%s, ''), 1, %d)", alias, col, n)
	}
	return field("content", indexContentChars) + " || ' ' || " + field("tool_name", indexToolNameChars) + " || ' ' || " + field("tool_calls", indexToolCallsChars)
}
