package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReasoningSearchable: an agent's thinking (messages.reasoning) is
// found by search, Latin and CJK, whether the row came in one at a time
// (the triggers) or in a batch (the bulk path), and an update of the
// reasoning is indexed again.
func TestReasoningSearchable(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, bulkMin + 1} {
		st := openTestStore(t)
		var msgs []Message
		for i := 0; i < n; i++ {
			msgs = append(msgs, Message{SessionID: "s", Role: "assistant", Content: "The project holds notes.txt.",
				Reasoning: "zebrathought: ls shows the files; 用中文回答", Timestamp: time.Unix(int64(1000+i), 0)})
		}
		err := st.Write(ctx, func(tx *Tx) error {
			if err := tx.UpsertSession(Session{ID: "s", Source: "claude-code"}); err != nil {
				return err
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"zebrathought", "shows the files", "中文", "用中文回答"} {
			res, err := st.SearchMessages(ctx, q, SearchFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != n {
				t.Errorf("%d rows: %q found %d, want %d", n, q, len(res.Hits), n)
			}
		}
	}
}

// TestMigrationIndexesReasoning: a database written before migration 1025
// (its indexes without the reasoning) finds the thinking of the rows it
// already had once it is opened (migrated).
func TestMigrationIndexesReasoning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	os.WriteFile(path, nil, 0o600)
	c := rawConn(t, path, false)
	c.exec("PRAGMA journal_mode=WAL")
	ms, _ := loadMigrations()
	for i, m := range ms {
		if m.version >= 1025 {
			break
		}
		if err := withWriteLock(c, path, func() error { return applyMigration(c, m, i == 0) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.exec(`INSERT INTO sessions(id, source, started_at) VALUES ('s', 'claude-code', 1);
		INSERT INTO messages(session_id, role, content, reasoning, timestamp) VALUES
			('s', 'assistant', 'The project holds notes.txt.', 'zebrathought 用中文回答', 1),
			('s', 'assistant', 'plain', NULL, 2);`); err != nil {
		t.Fatal(err)
	}
	c.close()
	st := mustOpenPath(t, path, Options{})
	for _, q := range []string{"zebrathought", "中文"} {
		res, err := st.SearchMessages(context.Background(), q, SearchFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 1 {
			t.Errorf("%q: %d hits after migrating, want 1", q, len(res.Hits))
		}
	}
}
