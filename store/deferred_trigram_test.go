package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestDeferredTrigram: an import with the trigram index deferred leaves
// its rows out of it, recorded as one id range; every search still finds
// them (the range is scanned), in the store and in another process's view
// of it; the pass indexes them in chunks, resumes after it was stopped,
// never indexes a row twice (one updated meanwhile got its entry from the
// trigger), and leaves an index that native SQLite finds whole.
func TestDeferredTrigram(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	reader := mustOpenPath(t, st.Path(), Options{})
	defer func(n int64) { trigramChunk = n }(trigramChunk)
	trigramChunk = 7
	if err := st.CreateSession(ctx, Session{ID: "s", Source: "test", StartedAt: at(0)}); err != nil {
		t.Fatal(err)
	}
	var msgs []Message
	for i := 0; i < 30; i++ {
		msgs = append(msgs, Message{SessionID: "s", Role: "user", Timestamp: at(i),
			Content: fmt.Sprintf("第%d次部署数据库迁移 migration-%02d kubernetes", i, i)})
	}
	st.SetDeferTrigram(true)
	if _, err := st.AppendMessages(ctx, msgs[:20]); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AppendMessages(ctx, msgs[20:21]); err != nil { // one row: still deferred
		t.Fatal(err)
	}
	st.SetDeferTrigram(false)
	if _, err := st.AppendMessages(ctx, msgs[21:]); err != nil {
		t.Fatal(err)
	}
	if n, err := st.DeferredTrigram(ctx); err != nil || n != 21 {
		t.Fatalf("deferred: %d, %v; want 21", n, err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages_fts_trigram"); n != 9 {
		t.Fatalf("%d rows in the trigram index before the pass, want the 9 written after", n)
	}
	// A row of the range updated meanwhile gets its entry from the trigger.
	if err := st.Write(ctx, func(tx *Tx) error {
		return tx.c.run("UPDATE messages SET content = content || ' 回滚' WHERE id = 3")
	}); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		for _, s := range []*Store{st, reader} {
			for q, want := range map[string]int{"数据库迁移": 30, "ubernete": 30, "回滚": 1, "migration-05": 1} {
				res, err := s.SearchMessages(ctx, q, SearchFilter{Limit: 100})
				if err != nil || len(res.Hits) != want {
					t.Errorf("%s: %q found %d (%s, %v), want %d", when, q, len(res.Hits), res.Index, err, want)
				}
			}
		}
	}
	check("deferred")
	stop, cancel := context.WithCancel(ctx)
	calls := 0
	err := st.IndexDeferredTrigram(stop, func(left int64) {
		if calls++; calls == 2 {
			cancel() // killed mid-pass: what was done stays done
		}
	})
	if err == nil {
		t.Fatal("a cancelled pass returned no error")
	}
	if n, _ := st.DeferredTrigram(ctx); n != 21-2*7 {
		t.Errorf("after two chunks of 7: %d left, want 7", n)
	}
	check("half indexed")
	if err := st.IndexDeferredTrigram(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.DeferredTrigram(ctx); n != 0 {
		t.Errorf("after the pass: %d left", n)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages_fts_trigram"); n != 30 {
		t.Errorf("%d rows in the trigram index, want 30 (none twice)", n)
	}
	check("indexed")
	st.Close()
	reader.Close()
	needSQLite3(t)
	if out := shell(t, st.Path(), "INSERT INTO messages_fts_trigram(messages_fts_trigram, rank) VALUES ('integrity-check', 1); SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '数据库迁移';"); strings.TrimSpace(out) != "30" {
		t.Errorf("native sqlite3: %q", out)
	}
}
