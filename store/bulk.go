package store

import (
	"fmt"
	"strings"

	"github.com/recall-dev/recall/store/engine/analysis"
)

// bulkMin is the batch size from which InsertMessages indexes rows itself
// instead of through the triggers.
//
// Why: SQLite opens a statement savepoint for every trigger program, and FTS5
// flushes its in-memory pending index on every savepoint, so trigger-driven
// inserts write one tiny segment per row and then merge them: measured here
// 1.3-1.7k rows/s into a trigram table through a trigger versus 4.8-7.3k/s
// with direct INSERTs (wazero, 300-character rows). Inside one IMMEDIATE
// transaction the insert triggers are dropped, rows and index entries are
// written directly, and the triggers are recreated from their own stored SQL
// before COMMIT: no other connection can ever observe the database without
// them, and a crash rolls the whole batch back.
//
// Dropping and recreating three triggers costs less than one trigger-driven
// row already: importing 600 Claude Code files of ~30 messages ran at 1.7k
// msg/s with the bulk path from 64 rows, 2.6k from 8, 3.3k from 2. A single
// row (an agent appending live) keeps the trigger path.
const bulkMin = 2

// indexTriggers are the insert triggers the bulk path replaces.
var indexTriggers = []string{"messages_fts_insert", "messages_fts_trigram_insert", "recall_cjk_insert"}

// ftsHashSize lets FTS5 keep up to 16 MiB of pending index per table in
// memory before writing a segment (default 1 MiB): fewer, larger segments,
// less merging during large imports.
const ftsHashSize = 16 << 20

// beginBulk drops the insert triggers (remembering their SQL) once per transaction.
func (tx *Tx) beginBulk() error {
	if tx.bulkTriggers != nil {
		return nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(indexTriggers)), ",")
	args := make([]any, len(indexTriggers))
	for i, n := range indexTriggers {
		args[i] = n
	}
	saved := map[string]string{}
	err := tx.c.query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ("+ph+")", args, func(st stmtRow) error {
		saved[st.ColumnText(0)] = st.ColumnText(1)
		return nil
	})
	if err != nil {
		return err
	}
	if len(saved) != len(indexTriggers) {
		return fmt.Errorf("bulk insert: expected %d index triggers, found %d", len(indexTriggers), len(saved))
	}
	for name := range saved {
		if err := tx.c.exec("DROP TRIGGER " + name); err != nil {
			return err
		}
	}
	for _, t := range []string{"messages_fts", "messages_fts_trigram"} {
		if err := tx.c.run("INSERT INTO "+t+"("+t+", rank) VALUES ('hashsize', ?)", ftsHashSize); err != nil {
			return err
		}
	}
	tx.bulkTriggers = saved
	return nil
}

// endBulk recreates the triggers exactly as they were.
func (tx *Tx) endBulk() error {
	for _, name := range indexTriggers {
		if sql, ok := tx.bulkTriggers[name]; ok {
			if err := tx.c.exec(sql); err != nil {
				return fmt.Errorf("restore trigger %s: %w", name, err)
			}
		}
	}
	tx.bulkTriggers = nil
	return nil
}

// indexDirect writes the index entries the insert triggers would have written.
func (tx *Tx) indexDirect(m *Message, content string) error {
	text := indexText(content, m.ToolName, m.ToolCalls, m.Reasoning)
	if err := tx.c.run("INSERT INTO messages_fts(rowid, content) VALUES (?, ?)", m.ID, text); err != nil {
		return err
	}
	if tx.s.deferTrigram.Load() {
		tx.deferred(m.ID)
	} else if err := tx.c.run("INSERT INTO messages_fts_trigram(rowid, content) VALUES (?, ?)", m.ID, text); err != nil {
		return err
	}
	// Same gate as the recall_cjk_insert trigger, so both paths index alike.
	if !cjkIndexed(content, m.ToolCalls, m.Reasoning) {
		return nil
	}
	if g := analysis.CJKGrams(text); g != "" {
		return tx.c.run("INSERT INTO recall_fts_cjk(rowid, grams) VALUES (?, ?)", m.ID, g)
	}
	return nil
}
