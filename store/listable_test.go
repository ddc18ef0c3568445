package store

import (
	"strings"
	"testing"
	"time"
)

// TestRecentListsBranches: a list holds roots and branch children (a
// Codex fork, a Hermes /branch: model_config._branched_from), not
// delegated sub-agent runs or other children; IncludeChildren lists all.
func TestRecentListsBranches(t *testing.T) {
	st := openTestStore(t)
	at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for i, s := range []Session{
		{ID: "root", Source: "codex"},
		{ID: "fork", Source: "codex", ParentID: "root", ModelConfig: `{"_branched_from":"root"}`},
		{ID: "sub", Source: "codex", ParentID: "root", ModelConfig: `{"_delegate_from":"root"}`},
		{ID: "compressed", Source: "codex", ParentID: "root"},
		{ID: "odd", Source: "codex", ParentID: "root", ModelConfig: `not json`},
	} {
		s.StartedAt = at.Add(time.Duration(i) * time.Minute)
		if err := st.CreateSession(t.Context(), s); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		all  bool
		want string
	}{{false, "fork root"}, {true, "odd compressed sub fork root"}} {
		list, err := st.RecentSessions(t.Context(), ListOptions{IncludeChildren: tc.all})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range list {
			ids = append(ids, s.ID)
		}
		if got := strings.Join(ids, " "); got != tc.want {
			t.Errorf("IncludeChildren=%v: %s, want %s", tc.all, got, tc.want)
		}
	}
}
