package recall

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

func resultIDs(d *Discovery) []string {
	var ids []string
	for _, r := range d.Results {
		ids = append(ids, r.RootID)
	}
	return ids
}

func TestDiscover(t *testing.T) {
	f := openFixture(t)
	e := New(f.st, Options{})
	tests := map[string]struct {
		query string
		o     DiscoverOptions
		want  []string // result roots, in order
		check func(t *testing.T, d *Discovery)
	}{
		"lineage deduplicated, hidden sources out, cron demoted to last": {
			query: "docker network", o: DiscoverOptions{Limit: 10},
			check: func(t *testing.T, d *Discovery) {
				ids := resultIDs(d)
				if slices.Contains(ids, "s-sub") || slices.Contains(ids, "s-tool") {
					t.Errorf("hidden sources in results: %v", ids)
				}
				if slices.Contains(ids, "s-docker-child") {
					t.Errorf("child listed as its own result: %v", ids)
				}
				if len(ids) != 3 || ids[len(ids)-1] != "s-cron" || !slices.Contains(ids, "s-docker") || !slices.Contains(ids, "s-tg") {
					t.Errorf("roots %v, want s-docker and s-tg, then s-cron last", ids)
				}
				for _, r := range d.Results {
					if r.RootID == "s-docker" && r.Hits < 3 {
						t.Errorf("s-docker lineage has %d hits, want its own and its child's (>= 3)", r.Hits)
					}
				}
				if d.SessionsSearched != 3 || d.Index == store.IndexNone {
					t.Errorf("sessions searched %d, index %q", d.SessionsSearched, d.Index)
				}
			},
		},
		"metadata comes from the root even when the hit is in a child": {
			query: "reboot",
			want:  []string{"s-docker"},
			check: func(t *testing.T, d *Discovery) {
				r := d.Results[0]
				if r.SessionID != "s-docker-child" || r.Title != "Docker networking fix" || r.Source != "cli" {
					t.Errorf("result %+v: want hit in s-docker-child with the root's title", r)
				}
				if r.When.Unix() != 1767225600 {
					t.Errorf("when %v, want the root's start", r.When)
				}
			},
		},
		"current session's whole lineage is excluded": {
			query: "docker network", o: DiscoverOptions{Limit: 10, CurrentSessionID: "s-docker-child"},
			want: []string{"s-tg", "s-cron"},
		},
		"title match comes first": {
			query: "`kafka rebalancing`",
			check: func(t *testing.T, d *Discovery) {
				if len(d.Results) != 1 {
					t.Fatalf("results %v, want the kafka session once", resultIDs(d))
				}
				r := d.Results[0]
				if r.MatchedRole != TitleMatchRole || r.Snippet != "Session title matched: kafka rebalancing" {
					t.Errorf("first result %q %q, want a title match", r.MatchedRole, r.Snippet)
				}
				if r.MatchMessageID != f.ids["s-kafka"][0] {
					t.Errorf("anchor %d, want the first message %d", r.MatchMessageID, f.ids["s-kafka"][0])
				}
			},
		},
		"limit clamps to 10 and defaults to 3": {
			query: "docker OR kafka OR 数据库迁移 OR network", o: DiscoverOptions{Limit: 0},
			check: func(t *testing.T, d *Discovery) {
				if len(d.Results) != 3 {
					t.Errorf("%d results, want the default 3", len(d.Results))
				}
			},
		},
		"CJK query": {
			query: "数据库迁移",
			check: func(t *testing.T, d *Discovery) {
				if len(d.Results) == 0 || d.Results[0].RootID != "s-zh" {
					t.Fatalf("results %v, want s-zh first", resultIDs(d))
				}
			},
		},
		"no match": {
			query: "xylophone",
			want:  nil,
		},
		"empty query is browse's job": {
			query: "   ",
			check: func(t *testing.T, d *Discovery) {
				if d.Index != store.IndexNone || len(d.Results) != 0 {
					t.Errorf("got %d results via %q", len(d.Results), d.Index)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d, err := e.Discover(context.Background(), tc.query, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if tc.check != nil {
				tc.check(t, d)
				return
			}
			if got := resultIDs(d); !slices.Equal(got, tc.want) {
				t.Errorf("roots %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDiscoverEvidence(t *testing.T) {
	f := openFixture(t)
	e := New(f.st, Options{})
	ctx := context.Background()
	// The tool message (index 14 of s-docker) is the hit: searched with the tool role.
	d, err := e.Discover(ctx, "bridge not found", DiscoverOptions{Filter: store.SearchFilter{Roles: []string{"tool"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Results) != 1 {
		t.Fatalf("results %v", resultIDs(d))
	}
	r := d.Results[0]
	ids := f.ids["s-docker"]
	anchor := ids[14]
	if r.MatchMessageID != anchor || r.MatchedRole != "tool" {
		t.Fatalf("anchor %d (%s), want %d (tool)", r.MatchMessageID, r.MatchedRole, anchor)
	}
	hasAnchor := false
	for _, m := range r.Messages {
		if m.ID == anchor {
			hasAnchor = true
			continue
		}
		if m.Role != "user" && m.Role != "assistant" {
			t.Errorf("evidence has a %s message besides the anchor", m.Role)
		}
		if m.ID < anchor-5 || m.ID > anchor+5 {
			t.Errorf("message %d outside the ±5 window of %d", m.ID, anchor)
		}
	}
	if !hasAnchor {
		t.Error("the anchor was filtered out of its own evidence")
	}
	if r.MessagesBefore != 5 || r.MessagesAfter != 5 {
		t.Errorf("before/after %d/%d, want 5/5 (the window has no other tool messages)", r.MessagesBefore, r.MessagesAfter)
	}
	if len(r.BookendStart) != 3 || len(r.BookendEnd) != 3 {
		t.Fatalf("bookends %d/%d, want 3/3", len(r.BookendStart), len(r.BookendEnd))
	}
	if r.BookendStart[0].ID != ids[0] || r.BookendEnd[2].ID != ids[len(ids)-1] {
		t.Errorf("bookends %d..%d, want the session's first and last messages %d..%d",
			r.BookendStart[0].ID, r.BookendEnd[2].ID, ids[0], ids[len(ids)-1])
	}
	if r.BookendStart[2].ID >= r.Messages[0].ID || r.BookendEnd[0].ID <= r.Messages[len(r.Messages)-1].ID {
		t.Error("bookends overlap the window")
	}
	if !strings.Contains(r.Snippet, store.HighlightStart) {
		t.Errorf("snippet %q has no highlight", r.Snippet)
	}
}

func TestDiscoverFirstHitPerRootAcrossChattySessions(t *testing.T) {
	f := openFixture(t)
	ctx := context.Background()
	// A chatty session with 250 better-ranked hits must not hide two quiet ones:
	// Hermes scanned 50 rows (and missed them) before raising the scan to 300.
	var msgs []store.Message
	for i := range 250 {
		role := []string{"user", "assistant"}[i%2]
		msgs = append(msgs, store.Message{SessionID: "s-chatty", Role: role, Content: "the flaky quokka test failed again, quokka quokka"})
	}
	msgs = append(msgs, store.Message{SessionID: "s-quiet1", Role: "user", Content: "one flaky quokka"},
		store.Message{SessionID: "s-quiet2", Role: "assistant", Content: "a quokka appeared once"})
	err := f.st.Write(ctx, func(tx *store.Tx) error {
		for _, id := range []string{"s-chatty", "s-quiet1", "s-quiet2"} {
			if err := tx.UpsertSession(store.Session{ID: id, Source: "cli"}); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(f.st, Options{}).Discover(ctx, "quokka", DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := resultIDs(d)
	slices.Sort(got)
	if !slices.Equal(got, []string{"s-chatty", "s-quiet1", "s-quiet2"}) {
		t.Fatalf("roots %v, want the chatty session and both quiet ones", got)
	}
	for _, r := range d.Results {
		if r.RootID == "s-chatty" && r.Hits < 50 {
			t.Errorf("chatty hits %d, want the scanned rows counted", r.Hits)
		}
	}
}

func TestBrowse(t *testing.T) {
	f := openFixture(t)
	list, err := New(f.st, Options{}).Browse(context.Background(), store.ListOptions{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	for _, hidden := range []string{"s-sub", "s-tool", "s-docker-child"} {
		if slices.Contains(ids, hidden) {
			t.Errorf("browse lists %s: %v", hidden, ids)
		}
	}
	if len(ids) == 0 || ids[0] != "s-zh" {
		t.Errorf("browse %v, want the newest (s-zh) first", ids)
	}
}

// TestBrowseLength: with no number asked, Browse lists Options.Recent
// sessions (the TUI's long recent list), else Options.Sessions; a search
// still stops at Sessions.
func TestBrowseLength(t *testing.T) {
	f := openFixture(t)
	all, err := New(f.st, Options{}).Browse(context.Background(), store.ListOptions{Limit: 100})
	if err != nil || len(all) < 3 {
		t.Fatalf("fixture browse: %d sessions, %v", len(all), err)
	}
	for _, tc := range []struct {
		opts Options
		want int
	}{
		{Options{Sessions: 1}, 1},
		{Options{Sessions: 1, Recent: 100}, len(all)},
		{Options{Sessions: 2, Recent: 3}, 3},
	} {
		got, err := New(f.st, tc.opts).Browse(context.Background(), store.ListOptions{})
		if err != nil || len(got) != tc.want {
			t.Errorf("%+v: %d sessions (%v), want %d", tc.opts, len(got), err, tc.want)
		}
	}
}

// TestDiscoverCarriesTheParse: a Discovery and each of its results carry
// the store's parse of the query, so Summarize and the TUI look for the
// terms the index matched (deploy, not the excluded docker).
func TestDiscoverCarriesTheParse(t *testing.T) {
	f := openFixture(t)
	e := New(f.st, Options{})
	d, err := e.Discover(context.Background(), "network -zzzz", DiscoverOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Results) == 0 {
		t.Fatal("no results for network")
	}
	if got := d.Parsed.Words(); !slices.Equal(got, []string{"network"}) {
		t.Errorf("Discovery.Parsed words = %q, want [network]", got)
	}
	for _, r := range d.Results {
		if got := r.Parsed.Words(); !slices.Equal(got, []string{"network"}) {
			t.Errorf("result %s: Parsed words = %q", r.SessionID, got)
		}
	}
}
