package hermes

import (
	"context"
	"fmt"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestCompactionAfterImport: a session Hermes compacts after recall copied
// it (archive_and_compact: the live rows become active=0, compacted=1, a
// summary row is added, message_count set to the live count) is copied
// again, so recall's copy shows what Hermes shows (before: the old rows
// stayed live in recall, which counted 7 messages where Hermes shows 2,
// because compaction leaves the searchable count unchanged).
func TestCompactionAfterImport(t *testing.T) {
	const sE = "20260615_090000_e5f6a7"
	path, w := hermesDB(t, t.TempDir())
	exec(t, w, `INSERT INTO sessions(id, source, model, started_at, message_count) VALUES ('`+sE+`', 'cli', 'openai/gpt-5', 1781514000.0, 6)`)
	for i := 1; i <= 6; i++ {
		exec(t, w, fmt.Sprintf(`INSERT INTO messages(session_id, role, content, timestamp) VALUES ('%s', 'user', 'turn %d about the nginx reload', %d)`, sE, i, 1781514000+i))
	}
	st := it.Open(t)
	it.Run(t, st, &Source{}, path)
	ctx := context.Background()
	if sess, err := st.Session(ctx, sE); err != nil || sess.MessageCount != 6 {
		t.Fatalf("first import: %+v, %v", sess, err)
	}
	// Hermes's archive_and_compact, then one new turn.
	exec(t, w, `UPDATE messages SET active = 0, compacted = 1 WHERE session_id = '`+sE+`' AND active = 1`)
	exec(t, w, `INSERT INTO messages(session_id, role, content, timestamp) VALUES ('`+sE+`', 'user', '[CONTEXT COMPACTION] Earlier: nginx reloads dropped connections.', 1781514100)`)
	exec(t, w, `INSERT INTO messages(session_id, role, content, timestamp) VALUES ('`+sE+`', 'user', 'now use graceful reload', 1781514101)`)
	exec(t, w, `UPDATE sessions SET message_count = 2 WHERE id = '`+sE+`'`)
	it.Run(t, st, &Source{}, path)
	sess, err := st.Session(ctx, sE)
	if err != nil || sess.MessageCount != 2 {
		t.Errorf("after compaction: message_count %d (%v), want 2 as Hermes shows", sess.MessageCount, err)
	}
	msgs, err := st.Messages(ctx, sE)
	if err != nil {
		t.Fatal(err)
	}
	compacted := 0
	for _, m := range msgs {
		if m.Compacted && m.Inactive {
			compacted++
		}
	}
	if len(msgs) != 8 || compacted != 6 {
		t.Errorf("%d messages, %d compacted: want 8 and 6", len(msgs), compacted)
	}
}
