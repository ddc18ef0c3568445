package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TestSearchRowNamedByFirstPrompt: a search result for an untitled session
// is named in the list by its first prompt, as its browse row is, not
// "(untitled)".
func TestSearchRowNamedByFirstPrompt(t *testing.T) {
	d := &recall.Discovery{Results: []recall.Result{{SessionID: "a", MatchMessageID: 2,
		Messages: []store.Message{{ID: 1, Role: "user", Content: "Fix the flaky login test"}, {ID: 2, Role: "assistant", Content: "Done."}}}}}
	if got := rowTitle(searchItems(d)[0]); got != "Fix the flaky login test" {
		t.Errorf("row title %q, want the first prompt", got)
	}
}

// Through the real engine, which the TUI asks without evidence: an
// untitled session found by a search is named by its first prompt in the
// list and the detail header, as the browse list names it. Before, the
// search list said "(untitled)".
func TestSearchRowOfAnUntitledSessionWithTheEngine(t *testing.T) {
	st := openTestStore(t)
	ctx := context.Background()
	err := st.Write(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "u-5555", Source: "cli", StartedAt: testNow.Add(-time.Hour)}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]store.Message{
			{SessionID: "u-5555", Role: "user", Content: "how do we rotate the signing key?", Timestamp: testNow.Add(-time.Hour)},
			{SessionID: "u-5555", Role: "assistant", Content: "Generate a new keystore entry, then switch the alias.", Timestamp: testNow.Add(-time.Hour)},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions})
	d := newDriver(t, NewEngineBackend(eng, st), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 5 })
	if s := d.screen(); !strings.Contains(s, "how do we rotate the signing key?") {
		t.Fatalf("the browse list does not name the untitled session by its first prompt:\n%s", s)
	}
	d.typ("keystore")
	d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == "keystore" && len(d.m.list.items) == 1 })
	if got := rowTitle(d.m.list.items[0]); got != "how do we rotate the signing key?" {
		t.Fatalf("the search row is named %q, want the first prompt\n%s", got, d.screen())
	}
	if s := d.screen(); strings.Contains(s, "(untitled)") {
		t.Fatalf("(untitled) on screen:\n%s", s)
	}
}
