package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestDeferredTrigramDiskFull: an import whose trigram pass meets a full
// disk (SQLITE_FULL, here from max_page_count: deterministic, no root or
// tmpfs) has committed rows that no index but trigram answers for a piece
// of a token ("sg1999" of msg1999). They are found all the same, in both
// phases, by the scan of the pending range; Stats says how many are
// pending; once there is room, FinishDeferredTrigram (what the TUI and the
// MCP server call when they open the store) completes the index. Before:
// "messages sg1999" found nothing until a later import.
func TestDeferredTrigramDiskFull(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	const n = 20_000
	st.SetDeferTrigram(true)
	for s := 0; s < n/100; s++ {
		id := fmt.Sprintf("s%d", s)
		if err := st.CreateSession(ctx, Session{ID: id, Source: "toolA", StartedAt: at(s)}); err != nil {
			t.Fatal(err)
		}
		var msgs []Message
		for i := s * 100; i < (s+1)*100; i++ {
			msgs = append(msgs, Message{SessionID: id, Role: "user", Timestamp: at(i),
				Content: fmt.Sprintf("message msg%d about the quick brown fox", i)})
		}
		if _, err := st.AppendMessages(ctx, msgs); err != nil {
			t.Fatal(err)
		}
	}
	st.SetDeferTrigram(false)
	pages := storeCount(t, st, "PRAGMA page_count")
	if err := st.writer.exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages+2)); err != nil {
		t.Fatal(err)
	}
	err := st.IndexDeferredTrigram(ctx, nil)
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("the pass on a full disk: %v, want ErrDiskFull", err)
	}
	found := func(when string) {
		t.Helper()
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			res, err := st.SearchMessages(ctx, "sg1999", SearchFilter{Limit: 100, Phase: ph})
			if err != nil || len(res.Hits) != 11 { // msg1999 and msg19990-msg19999
				t.Errorf("%s, phase %d: %q found %d (%s, %v), want 11", when, ph, "sg1999", len(res.Hits), res.Index, err)
			}
		}
	}
	found("disk full")
	s, err := st.Stats(ctx)
	if err != nil || s.PendingTrigramRows != n {
		t.Errorf("stats: %d pending, %v; want %d", s.PendingTrigramRows, err, n)
	}
	if err := st.writer.exec("PRAGMA max_page_count = 1073741823"); err != nil {
		t.Fatal(err)
	}
	st.FinishDeferredTrigram(ctx)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if left, err := st.DeferredTrigram(ctx); err != nil || left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the deferred rows were not indexed in the background")
		}
	}
	if got := storeCount(t, st, "SELECT count(*) FROM messages_fts_trigram"); got != n {
		t.Errorf("%d rows in the trigram index, want %d", got, n)
	}
	if s, _ := st.Stats(ctx); s.PendingTrigramRows != 0 {
		t.Errorf("stats after: %d pending", s.PendingTrigramRows)
	}
	found("indexed")
}
