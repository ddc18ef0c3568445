package store

import (
	"context"
	"testing"
)

// RecentSessions orders by last activity (the newest message), as Claude
// Code's and Codex's pickers do, and reports that time: a session started
// long ago but active now comes first. Before, the order was by start while
// the rows were labelled with last activity ("14d ago", "Aug 20", "1h ago").
func TestRecentSessionsByLastActivity(t *testing.T) {
	st := mustOpen(t)
	seed(t, st, []fixtureSession{
		{id: "old-but-active", source: "cli", minute: 0},
		{id: "middle", source: "cli", minute: 100},
		{id: "newest-start", source: "cli", minute: 200},
		{id: "empty", source: "cli", minute: 150},
	}, []fixture{
		{label: "a1", session: "old-but-active", role: "user", content: "first", minute: 1},
		{label: "a2", session: "old-but-active", role: "user", content: "resumed", minute: 500},
		{label: "m1", session: "middle", role: "user", content: "middle", minute: 300},
		{label: "n1", session: "newest-start", role: "user", content: "newest", minute: 201},
	})
	rs, err := st.RecentSessions(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"old-but-active", "middle", "newest-start", "empty"}
	wantAt := []int{500, 300, 201, 150}
	if len(rs) != len(want) {
		t.Fatalf("%d sessions, want %d", len(rs), len(want))
	}
	for i, r := range rs {
		if r.ID != want[i] || !r.LastActive.Equal(at(wantAt[i])) {
			t.Errorf("row %d: %s last active %v; want %s at %v", i, r.ID, r.LastActive, want[i], at(wantAt[i]))
		}
	}
	// Paging follows the same order.
	page, err := st.RecentSessions(context.Background(), ListOptions{Limit: 2, Offset: 1})
	if err != nil || len(page) != 2 || page[0].ID != "middle" || page[1].ID != "newest-start" {
		t.Errorf("page 2: %v, %v", page, err)
	}
}
