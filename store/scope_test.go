package store

import (
	"context"
	"testing"
)

// Cwd scopes search and the recent list to one repository: its directory
// and every directory under it, not a sibling sharing its prefix
// ("/src/app" is not "/src/app2"), LIKE's wildcards taken literally.
func TestCwdScope(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	err := st.Write(ctx, func(tx *Tx) error {
		for _, s := range []Session{
			{ID: "root", Source: "cli", Cwd: "/src/app", StartedAt: at(0)},
			{ID: "sub", Source: "cli", Cwd: "/src/app/web", StartedAt: at(1)},
			{ID: "sibling", Source: "cli", Cwd: "/src/app2", StartedAt: at(2)},
			{ID: "wild", Source: "cli", Cwd: "/src/a_p", StartedAt: at(3)},
			{ID: "none", Source: "cli", StartedAt: at(4)},
		} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
			if _, err := tx.InsertMessages([]Message{{SessionID: s.ID, Role: "user", Content: "deploy the thing", Timestamp: at(5)}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := st.RecentSessions(ctx, ListOptions{Cwd: "/src/app/"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.ID)
	}
	if !equalStrings(sorted(got), []string{"root", "sub"}) {
		t.Errorf("recent in /src/app: %v", got)
	}
	res := search(t, st, "deploy", SearchFilter{Cwd: "/src/a_p"})
	if len(res.Hits) != 1 || res.Hits[0].SessionID != "wild" {
		t.Errorf("search in /src/a_p: %v", hitIDs(res))
	}
	if res := search(t, st, "deploy", SearchFilter{}); len(res.Hits) != 5 {
		t.Errorf("unscoped search: %d hits, want 5", len(res.Hits))
	}
}
