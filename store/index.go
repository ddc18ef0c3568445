package store

import (
	"fmt"
	"strings"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// What one message puts in the full-text indexes (migration 1004): the
// first indexContentChars characters of its content, indexToolNameChars of
// its tool name and indexToolCallsChars of its tool calls; since migration
// 1025 also indexContentChars of its reasoning (an agent's thinking), so
// that what the agent thought is found too. The bounds keep
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
	return strings.IndexByte(m.Content, 0) >= 0 || strings.IndexByte(m.ToolName, 0) >= 0 || strings.IndexByte(m.ToolCalls, 0) >= 0 ||
		strings.IndexByte(m.Reasoning, 0) >= 0
}

// indexText is the text the FTS insert triggers index for one message.
func indexText(content, toolName, toolCalls, reasoning string) string {
	return indexField(content, indexContentChars) + " " + indexField(toolName, indexToolNameChars) + " " +
		indexField(toolCalls, indexToolCallsChars) + " " + indexField(reasoning, indexContentChars)
}

// cjkIndexed is the recall_cjk_insert trigger's gate: CJK in the indexed
// part of the content, tool calls or reasoning.
func cjkIndexed(content, toolCalls, reasoning string) bool {
	return analysis.HasCJK(indexField(content, indexContentChars)) || analysis.HasCJK(indexField(toolCalls, indexToolCallsChars)) ||
		analysis.HasCJK(indexField(reasoning, indexContentChars))
}

// indexTextSQL is the triggers' expression over the columns of alias, for
// code that reads rows back (the CJK drain).
func indexTextSQL(alias string) string {
	field := func(col string, n int) string {
		return fmt.Sprintf("substr(COALESCE(%s.%s, ''), 1, %d)", alias, col, n)
	}
	return field("content", indexContentChars) + " || ' ' || " + field("tool_name", indexToolNameChars) + " || ' ' || " +
		field("tool_calls", indexToolCallsChars) + " || ' ' || " + field("reasoning", indexContentChars)
}

// reindexNULRows indexes again, the way recall indexes rows now, every row
// with a NUL byte that an older recall indexed with the NUL inside (text
// native SQLite 3.40 tokenizes differently, so its integrity-check failed
// and a native DELETE corrupted the index). Each row is deleted from the
// index by the tokenizer that wrote it, recall's own, so cleanly. It runs
// in migration 1004's transaction.
func reindexNULRows(c *conn) error {
	return reindexRows(c, "instr(content, char(0)) > 0 OR instr(tool_name, char(0)) > 0 OR instr(tool_calls, char(0)) > 0 OR instr(reasoning, char(0)) > 0")
}

// reindexReasoningRows indexes again every row with a reasoning, now that
// the indexes hold it (migration 1025), the way recall indexes a row.
func reindexReasoningRows(c *conn) error {
	return reindexRows(c, "reasoning IS NOT NULL AND reasoning <> ''")
}

// reindexRows deletes the rows matching where from the full-text indexes
// and indexes them again as indexText says.
func reindexRows(c *conn, where string) error {
	var ids []int64
	err := c.query(`SELECT id FROM messages WHERE `+where, nil, func(st stmtRow) error {
		ids = append(ids, st.ColumnInt64(0))
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		var content, toolName, toolCalls, reasoning string
		if err := c.query("SELECT COALESCE(content, ''), COALESCE(tool_name, ''), COALESCE(tool_calls, ''), COALESCE(reasoning, '') FROM messages WHERE id = ?", []any{id}, func(st stmtRow) error {
			content, toolName, toolCalls, reasoning = st.ColumnText(0), st.ColumnText(1), st.ColumnText(2), st.ColumnText(3)
			return nil
		}); err != nil {
			return err
		}
		text := indexText(content, toolName, toolCalls, reasoning)
		for _, t := range []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"} {
			if err := c.run("DELETE FROM "+t+" WHERE rowid = ?", id); err != nil {
				return err
			}
		}
		for _, t := range []string{"messages_fts", "messages_fts_trigram"} {
			if err := c.run("INSERT INTO "+t+"(rowid, content) VALUES (?, ?)", id, text); err != nil {
				return err
			}
		}
		if err := c.run("DELETE FROM recall_cjk_pending WHERE id = ?", id); err != nil {
			return err
		}
		if cjkIndexed(content, toolCalls, reasoning) {
			if g := analysis.CJKGrams(text); g != "" {
				if err := c.run("INSERT INTO recall_fts_cjk(rowid, grams) VALUES (?, ?)", id, g); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// drainCJK indexes the rows the triggers queued in recall_cjk_pending.
func drainCJK(c *conn) error {
	type row struct {
		id   int64
		text string
	}
	var rows []row
	err := c.query(`SELECT p.id, `+indexTextSQL("m")+`
		FROM recall_cjk_pending p JOIN messages m ON m.id = p.id`, nil, func(st stmtRow) error {
		rows = append(rows, row{st.ColumnInt64(0), st.ColumnText(1)})
		return nil
	})
	if err != nil || len(rows) == 0 {
		return err
	}
	for _, r := range rows {
		if g := analysis.CJKGrams(r.text); g != "" {
			if err := c.run("INSERT OR REPLACE INTO recall_fts_cjk(rowid, grams) VALUES (?, ?)", r.id, g); err != nil {
				return err
			}
		}
	}
	return c.run("DELETE FROM recall_cjk_pending")
}
