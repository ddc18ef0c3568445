package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRootSessionAndChildren(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	seed(t, st, []fixtureSession{{id: "a", source: "cli"}, {id: "b", source: "cli", parent: "a", minute: 1}, {id: "c", source: "cli", parent: "b", minute: 2}, {id: "b2", source: "cli", parent: "a", minute: 3}}, nil)
	for id, want := range map[string]string{"a": "a", "b": "a", "c": "a", "missing": "missing"} {
		if got, err := st.RootSession(ctx, id); err != nil || got != want {
			t.Errorf("RootSession(%s) = %s, %v; want %s", id, got, err, want)
		}
	}
	if got, err := st.Children(ctx, "a"); err != nil || !equalStrings(got, []string{"b", "b2"}) {
		t.Errorf("Children(a) = %v, %v", got, err)
	}
	c := rawConn(t, st.Path(), false)
	if err := c.exec("UPDATE sessions SET parent_session_id = 'c' WHERE id = 'a'"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		got, err := st.RootSession(ctx, id) // a cycle must terminate
		if err != nil || (got != "a" && got != "b" && got != "c") {
			t.Errorf("RootSession(%s) in a cycle = %q, %v", id, got, err)
		}
	}
}

func TestPendingParentLinkedLater(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	if err := st.CreateSession(ctx, Session{ID: "child", Source: "cli", ParentID: "parent"}); err != nil {
		t.Fatal(err)
	}
	if s, _ := st.Session(ctx, "child"); s.ParentID != "" {
		t.Errorf("parent set before it exists: %q", s.ParentID)
	}
	if err := st.CreateSession(ctx, Session{ID: "parent", Source: "cli"}); err != nil {
		t.Fatal(err)
	}
	if s, err := st.Session(ctx, "child"); err != nil || s.ParentID != "parent" {
		t.Errorf("child parent = %q, %v; want parent", s.ParentID, err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM recall_pending_parents"); n != 0 {
		t.Errorf("%d pending links left", n)
	}
}

// TestParentRowCompletedLater: a child imported before its parent (a
// newest-first import) leaves a minimal parent row with the child's start;
// the parent's own import completes it, its earlier start included.
func TestParentRowCompletedLater(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	if err := st.CreateSession(ctx, Session{ID: "parent", Source: "codex", StartedAt: at(60)}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateSession(ctx, Session{ID: "parent", Source: "codex", Title: "fork me", Cwd: "/src", StartedAt: at(0)}); err != nil {
		t.Fatal(err)
	}
	s, err := st.Session(ctx, "parent")
	if err != nil || !s.StartedAt.Equal(at(0)) || s.Title != "fork me" || s.Cwd != "/src" {
		t.Errorf("parent %+v, %v: want started at %v, its title and cwd", s, err, at(0))
	}
}

func TestTitlesUniqueAndResolve(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	for _, id := range []string{"abc123", "abc456", "xyz", "xy"} {
		if err := st.CreateSession(ctx, Session{ID: id, Source: "cli", Title: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]string{"abc123": "t", "abc456": "t #2", "xyz": "t #3", "xy": "t #4"} {
		if s, _ := st.Session(ctx, id); s.Title != want {
			t.Errorf("title of %s = %q, want %q", id, s.Title, want)
		}
	}
	if s, err := st.SessionByTitle(ctx, "T #2"); err != nil || s.ID != "abc456" {
		t.Errorf("SessionByTitle = %s, %v", s.ID, err)
	}
	// Any case, by an index: Discover asks on every query.
	var plan []string
	st.read(ctx, func(c *conn) error {
		return c.query("EXPLAIN QUERY PLAN "+st.sessionByTitleSQL(), []any{"T #2"}, func(r stmtRow) error {
			plan = append(plan, r.ColumnText(3))
			return nil
		})
	})
	if !slices.ContainsFunc(plan, func(p string) bool { return strings.Contains(p, "USING INDEX idx_sessions_title_nocase") }) {
		t.Errorf("SessionByTitle's plan %q reads no title index", plan)
	}
	for in, want := range map[string]string{"abc123": "abc123", "abc4": "abc456", "xyz": "xyz", "xy": "xy"} {
		if got, err := st.ResolveSessionID(ctx, in); err != nil || got != want {
			t.Errorf("ResolveSessionID(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := st.ResolveSessionID(ctx, "abc"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := st.ResolveSessionID(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
	if _, err := st.ResolveSessionID(ctx, "%"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LIKE wildcard matched: %v", err)
	}
}

func TestRecentMessagesAroundBookends(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	var msgs []fixture
	for i, r := range []string{"system", "assistant", "user", "assistant", "tool", "user", "assistant", "user", "assistant", "user"} {
		content := "m" + string(rune('0'+i))
		if i == 2 {
			content = "  first\n user   question  "
		}
		if i == 6 {
			content = ""
		}
		msgs = append(msgs, fixture{label: content, session: "s", role: r, content: content, minute: 100 - i}) // clock runs backwards
	}
	seed(t, st, []fixtureSession{{id: "s", source: "cli", minute: 5}, {id: "old", source: "cli", minute: 1}, {id: "kid", source: "cli", parent: "s", minute: 9}, {id: "arch", source: "cli", minute: 8}}, msgs)
	c := rawConn(t, st.Path(), false)
	c.exec("UPDATE sessions SET archived = 1 WHERE id = 'arch'")
	rs, err := st.RecentSessions(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	if !equalStrings(ids, []string{"s", "old"}) || rs[0].Preview != "first user question" || rs[0].MessageCount != 10 {
		t.Errorf("recent = %v, preview %q", ids, rs[0].Preview)
	}
	if rs, _ := st.RecentSessions(ctx, ListOptions{IncludeChildren: true}); len(rs) != 3 {
		t.Errorf("with children: %d", len(rs))
	}
	all, err := st.Messages(ctx, "s")
	if err != nil || len(all) != 10 {
		t.Fatal(len(all), err)
	}
	for i := 1; i < len(all); i++ {
		if all[i].ID <= all[i-1].ID {
			t.Error("Messages not in id order")
		}
	}
	around, before, after, err := st.MessagesAround(ctx, "s", all[5].ID, 2)
	if err != nil || before != 2 || after != 2 || len(around) != 5 || around[2].ID != all[5].ID || around[0].ID != all[3].ID {
		t.Errorf("around middle: %d msgs, %d/%d, %v", len(around), before, after, err)
	}
	around, before, after, _ = st.MessagesAround(ctx, "s", all[0].ID, 3)
	if before != 0 || after != 3 || len(around) != 4 {
		t.Errorf("around first: %d/%d", before, after)
	}
	around, before, after, _ = st.MessagesAround(ctx, "s", all[9].ID, 3)
	if before != 3 || after != 0 || len(around) != 4 {
		t.Errorf("around last: %d/%d", before, after)
	}
	if _, _, _, err := st.MessagesAround(ctx, "s", 99999, 2); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing anchor: %v", err)
	}
	start, end, err := st.Bookends(ctx, "s", all[5].ID, all[5].ID, 2)
	if err != nil {
		t.Fatal(err)
	}
	// before id 5: user/assistant non-empty = 1, 2, 3 -> first two; after: 7, 8, 9 (6 empty) -> last two.
	if len(start) != 2 || start[0].ID != all[1].ID || start[1].ID != all[2].ID || len(end) != 2 || end[0].ID != all[8].ID || end[1].ID != all[9].ID {
		t.Errorf("bookends start %v end %v", start, end)
	}
}

func TestDecodeContent(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain",
		"\x00json:[{\"type\":\"text\",\"text\":\"hello\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}},{\"type\":\"text\",\"text\":\"world\"}]": "hello\n[image]\nworld",
		"\x00json:[{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]":                                                                               "[image]",
		"\x00json:[]":                                   "[multimodal content]",
		"\x00json:[{\"type\":\"input_audio\"}]":         "[audio]",
		"\x00json:{\"type\":\"text\",\"text\":\"one\"}": "one",
		"\x00json:not json":                             "not json",
		"\x00json:\"just a string\"":                    "just a string",
	} {
		if got := DecodeContent(in); got != want {
			t.Errorf("DecodeContent(%q) = %q, want %q", in, got, want)
		}
	}
	st := mustOpen(t)
	seed(t, st, []fixtureSession{{id: "s", source: "cli"}}, []fixture{{label: "mm", session: "s", role: "user", content: "\x00json:[{\"type\":\"text\",\"text\":\"look at this screenshot\"}]"}})
	ms, err := st.Messages(context.Background(), "s")
	if err != nil || len(ms) != 1 || ms[0].Content != "look at this screenshot" {
		t.Errorf("stored multimodal = %+v, %v", ms, err)
	}
	start, _, err := st.Bookends(context.Background(), "s", ms[0].ID+1, ms[0].ID+1, 2)
	rs, _ := st.RecentSessions(context.Background(), ListOptions{})
	if len(rs) != 1 || rs[0].Preview != "look at this screenshot" || len(start) != 1 {
		t.Errorf("multimodal content: RecentSessions preview %q, Bookends %d msgs, %v", rs[0].Preview, len(start), err)
	}
}

func TestStatsCountsAndChangeToken(t *testing.T) {
	ctx := context.Background()
	st, _ := routingStore(t)
	s, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sessions != 3 || s.Messages != int64(len(routingCorpus)) || s.SchemaVersion != 11 || s.RecallVersion != newestRecallMigration(t) ||
		s.Backend == "" || !strings.Contains(s.Backend, "wazero") || s.SQLiteVersion == "" || s.Sources["cli"] != 2 || !s.RecallCreated {
		t.Errorf("stats = %+v", s)
	}
	tok1, _ := st.ChangeToken(ctx)
	seed(t, st, nil, []fixture{{label: "x", session: "s-cli", role: "user", content: "new"}})
	tok2, _ := st.ChangeToken(ctx)
	st.CreateSession(ctx, Session{ID: "another", Source: "cli"})
	tok3, _ := st.ChangeToken(ctx)
	if tok1 == tok2 || tok2 == tok3 {
		t.Errorf("change tokens %s %s %s", tok1, tok2, tok3)
	}
}
