package store

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// write runs one transaction that writes the sessions (by their own ids)
// and then the messages.
func writeAll(t *testing.T, st *Store, sessions []Session, msgs []Message) {
	t.Helper()
	err := st.Write(context.Background(), func(tx *Tx) error {
		for _, s := range sessions {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func contentsOf(t *testing.T, st *Store, id string) string {
	t.Helper()
	msgs, err := st.Messages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return strings.Join(out, ",")
}

// TestIdentitySourceAndID: two sources' sessions with one id are two
// sessions; the second is stored under a qualified id, keeps its own id
// beside it, and later writes of either (by their own ids) find their own.
func TestIdentitySourceAndID(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	writeAll(t, st, []Session{{ID: "s1", Source: "toolA", Title: "A's", StartedAt: at(1)}},
		[]Message{{SessionID: "s1", Role: "user", Content: "a one", Timestamp: at(1), SourceKey: "1"}})
	writeAll(t, st, []Session{{ID: "s1", Source: "toolB", Title: "B's", StartedAt: at(2)}},
		[]Message{{SessionID: "s1", Role: "user", Content: "b one", Timestamp: at(2), SourceKey: "1"}})
	// Each source appends to its own session, by the id it knows.
	writeAll(t, st, []Session{{ID: "s1", Source: "toolA"}},
		[]Message{{SessionID: "s1", Role: "assistant", Content: "a two", Timestamp: at(3), SourceKey: "2"}})
	writeAll(t, st, []Session{{ID: "s1", Source: "toolB"}},
		[]Message{{SessionID: "s1", Role: "assistant", Content: "b two", Timestamp: at(4), SourceKey: "2"}})

	if got := contentsOf(t, st, "s1"); got != "a one,a two" {
		t.Errorf("toolA's s1 = %q", got)
	}
	if got := contentsOf(t, st, "s1@toolB"); got != "b one,b two" {
		t.Errorf("toolB's s1 = %q", got)
	}
	a, err := st.Session(ctx, "s1")
	if err != nil || a.Source != "toolA" || a.NativeID != "s1" || a.Title != "A's" || a.MessageCount != 2 {
		t.Errorf("s1 = %+v, %v", a, err)
	}
	b, err := st.Session(ctx, "s1@toolB")
	if err != nil || b.Source != "toolB" || b.NativeID != "s1" || b.Title != "B's" || b.MessageCount != 2 {
		t.Errorf("s1@toolB = %+v, %v", b, err)
	}
	if s, err := st.SessionOf(ctx, "toolB", "s1"); err != nil || s.ID != "s1@toolB" {
		t.Errorf("SessionOf(toolB, s1) = %s, %v", s.ID, err)
	}
	if _, err := st.SessionOf(ctx, "toolC", "s1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SessionOf(toolC, s1) = %v, want not found", err)
	}
	// A session read and written back keeps its identity.
	err = st.Write(ctx, func(tx *Tx) error { b.Title = "B renamed"; return tx.UpdateSession(b) })
	if s, _ := st.Session(ctx, "s1@toolB"); err != nil || s.Title != "B renamed" {
		t.Errorf("update by the session read: %q, %v", s.Title, err)
	}
	if s, _ := st.Session(ctx, "s1"); s.Title != "A's" {
		t.Errorf("toolA's title became %q", s.Title)
	}
	stats, err := st.Stats(ctx)
	if err != nil || stats.Sessions != 2 || stats.SessionsQualified != 1 {
		t.Errorf("stats: %d sessions, %d qualified, %v", stats.Sessions, stats.SessionsQualified, err)
	}
}

// TestIdentityOneBatch: one batch holding two sources' sessions of one id
// (a generic JSONL file) keeps them apart by the messages' Source.
func TestIdentityOneBatch(t *testing.T) {
	st := mustOpen(t)
	writeAll(t, st, []Session{{ID: "s1", Source: "toolA", StartedAt: at(1)}, {ID: "s1", Source: "toolB", StartedAt: at(1)}}, []Message{
		{SessionID: "s1", Source: "toolA", Role: "user", Content: "a", Timestamp: at(1)},
		{SessionID: "s1", Source: "toolB", Role: "user", Content: "b", Timestamp: at(2)},
	})
	if a, b := contentsOf(t, st, "s1"), contentsOf(t, st, "s1@toolB"); a != "a" || b != "b" {
		t.Errorf("s1 = %q, s1@toolB = %q", a, b)
	}
}

// TestIdentityParents: a child names its parent by the parent's own id; of
// two sessions with that id, the one of the child's source is the parent,
// whether it exists already or arrives later.
func TestIdentityParents(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	writeAll(t, st, []Session{{ID: "p", Source: "toolA", StartedAt: at(1)}, {ID: "p", Source: "toolB", StartedAt: at(1)}}, nil)
	writeAll(t, st, []Session{{ID: "kid", Source: "toolB", ParentID: "p", StartedAt: at(2)}}, nil)
	if s, _ := st.Session(ctx, "kid"); s.ParentID != "p@toolB" {
		t.Errorf("kid's parent = %q, want p@toolB", s.ParentID)
	}
	// The parent comes after the child.
	writeAll(t, st, []Session{{ID: "q", Source: "toolA", StartedAt: at(1)}}, nil)
	writeAll(t, st, []Session{{ID: "kid2", Source: "toolB", ParentID: "q", StartedAt: at(2)}}, nil)
	if s, _ := st.Session(ctx, "kid2"); s.ParentID != "" {
		t.Errorf("kid2's parent = %q before its parent exists (q is toolA's)", s.ParentID)
	}
	writeAll(t, st, []Session{{ID: "q", Source: "toolB", StartedAt: at(1)}}, nil)
	if s, _ := st.Session(ctx, "kid2"); s.ParentID != "q@toolB" {
		t.Errorf("kid2's parent = %q, want q@toolB", s.ParentID)
	}
}

// TestResolveSessionIDForms: show, resume and MCP take the stored id, the
// own id when one session has it, "<id>@<source>" and a unique prefix; an
// id that fits two sessions says which they are (by short ids, which name
// their sources).
func TestResolveSessionIDForms(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	writeAll(t, st, []Session{
		{ID: "1718000000000", Source: "cline", StartedAt: at(1)},
		{ID: "1718000000000", Source: "roo-code", StartedAt: at(2)},
		{ID: "only-b", Source: "toolB", StartedAt: at(3)},
	}, nil)
	// only-b's own id is free: stored as it is. Make one stored elsewhere
	// whose own id is not a stored id.
	writeAll(t, st, []Session{{ID: "x@toolC", Source: "toolZ", StartedAt: at(4)}, {ID: "x", Source: "toolC", StartedAt: at(5)}}, nil)
	for in, want := range map[string]string{
		"1718000000000":          "1718000000000",
		"1718000000000@roo-code": "1718000000000@roo-code",
		"1718000000000@cline":    "1718000000000",
		"only":                   "only-b",
		"x":                      "x",
		"x@toolC":                "x@toolC", // a stored id wins over the qualified form
	} {
		if got, err := st.ResolveSessionID(ctx, in); err != nil || got != want {
			t.Errorf("ResolveSessionID(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	_, err := st.ResolveSessionID(ctx, "1718")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "17180000@roo-code") || !strings.Contains(err.Error(), "17180000@cline") {
		t.Errorf("prefix of two sessions: %v", err)
	}
	// The own id of a session stored under another id.
	writeAll(t, st, []Session{{ID: "n1", Source: "toolA", StartedAt: at(6)}}, nil)
	writeAll(t, st, []Session{{ID: "n1", Source: "toolB", StartedAt: at(6)}}, nil)
	if err := st.Write(ctx, func(tx *Tx) error { return tx.DeleteSession("n1") }); err != nil {
		t.Fatal(err)
	}
	if got, err := st.ResolveSessionID(ctx, "n1"); err != nil || got != "n1@toolB" {
		t.Errorf("ResolveSessionID(n1) = %s, %v; want n1@toolB (the one session whose own id it is)", got, err)
	}
}

// TestIdentityForget: forgetting one source's session leaves the other
// source's session of the same id importable; the forgotten one stays
// forgotten.
func TestIdentityForget(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	writeAll(t, st, []Session{{ID: "s", Source: "toolA", StartedAt: at(1)}},
		[]Message{{SessionID: "s", Role: "user", Content: "secret of A", Timestamp: at(1)}})
	if _, err := st.Forget(ctx, []string{"s"}, nil, ForgetOptions{}); err != nil {
		t.Fatal(err)
	}
	writeAll(t, st, []Session{{ID: "s", Source: "toolB", StartedAt: at(2)}},
		[]Message{{SessionID: "s", Role: "user", Content: "B's words", Timestamp: at(2)}})
	writeAll(t, st, []Session{{ID: "s", Source: "toolA", StartedAt: at(1)}},
		[]Message{{SessionID: "s", Role: "user", Content: "secret of A", Timestamp: at(1)}})
	if got := contentsOf(t, st, "s@toolB"); got != "B's words" {
		t.Errorf("toolB's s = %q", got)
	}
	if _, err := st.Session(ctx, "s"); !errors.Is(err, ErrNotFound) {
		t.Errorf("forgotten toolA's s came back: %v", err)
	}
}
