package store

import (
	"context"
	"fmt"
)

// Some people do not want secrets stored at all: with a TextRedactor set
// (config.json's "redact_at_import"), every message and session is
// redacted before it is written, and RedactStored rewrites what was stored
// before. The store knows nothing of secrets: the redactor is recall's
// (recall/secrets.AtRest).

// TextRedactor rewrites stored text.
type TextRedactor interface {
	// Text redacts prose (content, reasoning, a title).
	Text(s string) string
	// JSON redacts JSON text (tool calls, a model configuration) and keeps it valid.
	JSON(s string) string
	// Found lists the secrets of s, as s holds them (for the check of the
	// file afterwards).
	Found(s string) []string
}

// SetRedactor makes every later write redact its messages and sessions
// with r (nil stops it).
func (s *Store) SetRedactor(r TextRedactor) {
	if r == nil {
		s.redactor.Store(nil)
		return
	}
	s.redactor.Store(&r)
}

// redactIncoming applies the store's redactor, if any, to a message about
// to be written.
func (tx *Tx) redactIncoming(m *Message) {
	if p := tx.s.redactor.Load(); p != nil {
		r := *p
		m.Content, m.ToolCalls, m.Reasoning = r.Text(m.Content), r.JSON(m.ToolCalls), r.Text(m.Reasoning)
	}
}

// redactSession applies the store's redactor, if any, to a session about
// to be written.
func (tx *Tx) redactSession(sess *Session) {
	if p := tx.s.redactor.Load(); p != nil {
		r := *p
		sess.Title, sess.ModelConfig, sess.EndReason = r.Text(sess.Title), r.JSON(sess.ModelConfig), r.Text(sess.EndReason)
	}
}

// RedactResult says what RedactStored rewrote.
type RedactResult struct {
	Messages int // messages whose text changed
	Sessions int // sessions whose title or configuration changed
	Scanned  int64
	// Left counts the secrets still found in the database file and its WAL
	// afterwards (0: the file holds none of the text that was replaced).
	Left int
}

// redactBatch is how many messages one transaction of RedactStored reads.
const redactBatch = 500

// RedactStored rewrites every stored text through r: each message's
// content, tool calls and reasoning, each session's title, model
// configuration and end reason. Rows change in batches (one transaction
// each, PRAGMA secure_delete on, so freed pages are zeroed); the triggers
// rewrite the full-text indexes' rows, which are then merged into one
// segment each (so no old segment keeps a secret's terms), and a
// checkpoint truncates the WAL. The file is then searched for what was
// replaced (RedactResult.Left). progress, if set, is told how many of the
// total messages were read so far.
func (s *Store) RedactStored(ctx context.Context, r TextRedactor, progress func(done, total int64)) (RedactResult, error) {
	var res RedactResult
	if s.readOnly {
		return res, ErrReadOnly
	}
	var total int64
	if err := s.read(ctx, func(c *conn) error {
		n, _, err := c.scalarInt("SELECT count(*) FROM messages")
		total = n
		return err
	}); err != nil {
		return res, err
	}
	found := map[string]bool{}
	note := func(text string) {
		if len(found) < 100000 {
			for _, f := range r.Found(text) {
				if len(f) >= minCheckedText {
					found[f] = true
				}
			}
		}
	}
	last := int64(0)
	for {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		var read int
		err := s.Write(ctx, func(tx *Tx) error {
			restore, err := tx.secureDelete()
			defer restore()
			if err != nil {
				return err
			}
			type row struct {
				id                           int64
				content, toolCalls, thinking string
			}
			var rows []row
			if err := tx.c.query("SELECT id, COALESCE(content, ''), COALESCE(tool_calls, ''), "+
				"COALESCE("+tx.s.layout.messageCol("reasoning", "NULL")+", '') FROM messages m WHERE id > ? ORDER BY id LIMIT ?",
				[]any{last, redactBatch}, func(st stmtRow) error {
					rows = append(rows, row{st.ColumnInt64(0), st.ColumnText(1), st.ColumnText(2), st.ColumnText(3)})
					return nil
				}); err != nil {
				return err
			}
			read = len(rows)
			for _, m := range rows {
				content, calls, thinking := r.Text(m.content), r.JSON(m.toolCalls), r.Text(m.thinking)
				if content == m.content && calls == m.toolCalls && thinking == m.thinking {
					continue
				}
				note(m.content)
				note(m.toolCalls)
				note(m.thinking)
				sql := "UPDATE messages SET content = ?, tool_calls = ? WHERE id = ?"
				args := []any{content, nullString(calls), m.id}
				if tx.s.layout.messageCols["reasoning"] {
					sql = "UPDATE messages SET content = ?, tool_calls = ?, reasoning = ? WHERE id = ?"
					args = []any{content, nullString(calls), nullString(thinking), m.id}
				}
				if err := tx.c.run(sql, args...); err != nil {
					return fmt.Errorf("rewrite message %d: %w", m.id, err)
				}
				res.Messages++
			}
			if len(rows) > 0 {
				last = rows[len(rows)-1].id
			}
			return nil
		})
		if err != nil {
			return res, err
		}
		res.Scanned += int64(read)
		if progress != nil {
			progress(res.Scanned, total)
		}
		if read < redactBatch {
			break
		}
	}
	err := s.Write(ctx, func(tx *Tx) error {
		restore, err := tx.secureDelete()
		defer restore()
		if err != nil {
			return err
		}
		type srow struct{ id, title, config, reason string }
		var rows []srow
		if err := tx.c.query("SELECT id, COALESCE(title, ''), COALESCE(model_config, ''), COALESCE(end_reason, '') FROM sessions", nil, func(st stmtRow) error {
			rows = append(rows, srow{st.ColumnText(0), st.ColumnText(1), st.ColumnText(2), st.ColumnText(3)})
			return nil
		}); err != nil {
			return err
		}
		for _, sr := range rows {
			title, config, reason := r.Text(sr.title), r.JSON(sr.config), r.Text(sr.reason)
			if title == sr.title && config == sr.config && reason == sr.reason {
				continue
			}
			note(sr.title)
			note(sr.config)
			note(sr.reason)
			if title != sr.title {
				// Titles are unique (Hermes's index): "key [REDACTED:…]" twice is numbered.
				if err := tx.c.run("UPDATE sessions SET title = NULL WHERE id = ?", sr.id); err != nil {
					return err
				}
				if title, err = tx.freeTitle(sr.id, title); err != nil {
					return err
				}
			}
			if err := tx.c.run("UPDATE sessions SET title = ?, model_config = ?, end_reason = ? WHERE id = ?",
				nullString(title), nullString(config), nullString(reason), sr.id); err != nil {
				return fmt.Errorf("rewrite session %s: %w", sr.id, err)
			}
			res.Sessions++
		}
		if res.Messages == 0 && res.Sessions == 0 {
			return nil
		}
		return tx.purgeIndexes()
	})
	if err != nil {
		return res, err
	}
	s.writeMu.Lock()
	if s.writer != nil {
		err = s.writer.exec("PRAGMA wal_checkpoint(TRUNCATE)")
	}
	s.writeMu.Unlock()
	if err != nil {
		return res, fmt.Errorf("rewritten, but the checkpoint that clears the WAL failed: %w", dbError(s.path, err))
	}
	needles := make([]string, 0, len(found))
	for f := range found {
		needles = append(needles, f)
	}
	res.Left, err = fileHolds(s.path, needles)
	if err != nil {
		return res, fmt.Errorf("rewritten, but checking the file failed: %w", err)
	}
	return res, nil
}
