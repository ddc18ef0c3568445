package store

import (
	"strings"
	"testing"
	"time"
)

func TestStatsAndChangeToken(t *testing.T) {
	st := openTestStore(t)
	ctx := t.Context()
	before, err := st.ChangeToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = st.Write(ctx, func(tx *Tx) error {
		if err := tx.UpsertSession(Session{ID: "s1", Source: "cli"}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]Message{{SessionID: "s1", Role: "user", Content: "数据库 docker", Timestamp: time.Now()}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	after, err := st.ChangeToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if before == after {
		t.Fatalf("change token did not change: %s", after)
	}
	s, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sessions != 1 || s.Messages != 1 || s.Sources["cli"] != 1 || s.SchemaVersion != 11 || s.RecallVersion != latestRecall(t) {
		t.Fatalf("unexpected stats: %+v", s)
	}
	if !strings.HasPrefix(s.SQLiteVersion, "3.") || s.IndexBytes["messages_fts"] == 0 || s.IndexBytes["recall_fts_cjk"] == 0 {
		t.Fatalf("sizes/version missing: %+v", s)
	}
}
