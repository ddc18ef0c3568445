package store

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/migrations"
	"github.com/recall-dev/recall/store/engine"
)

// hiddenSessions stores what Gemini CLI 0.61 writes: each chat opens with
// a <session_context> block (GEMINI.md among it) stored hidden, then the
// person's prompts. The marker and "heron" are only in hidden rows (and in
// a rewound one); "marker" and "quokka" are in ordinary rows too.
func hiddenSessions(t *testing.T) (*Store, map[int64]bool) {
	t.Helper()
	st := mustOpen(t)
	ctx := context.Background()
	sc := "<session_context> This is the Gemini CLI. GEMINI-MD-MARKER-heron: deploy with care. </session_context>"
	sessions := map[string][]Message{
		"g1": {
			{Role: "user", Content: sc, DisplayKind: DisplayKindHidden},
			{Role: "user", Content: "List the files in this project"},
			{Role: "assistant", Content: "Print a marker with echo"},
		},
		"g2": {
			{Role: "user", Content: sc, DisplayKind: DisplayKindHidden},
			{Role: "user", Content: "Search recall for the quokka"},
			{Role: "assistant", Content: "The heron nests by the lake", Inactive: true}, // rewound
			{Role: "assistant", Content: "Found the quokka session"},
		},
	}
	hidden := map[int64]bool{}
	next := int64(1) // a fresh file numbers rows from 1, in order
	for _, id := range []string{"g1", "g2"} {
		if err := st.CreateSession(ctx, Session{ID: id, Source: "gemini-cli", StartedAt: at(0)}); err != nil {
			t.Fatal(err)
		}
		rows := sessions[id]
		for i := range rows {
			rows[i].SessionID, rows[i].Timestamp = id, at(i)
		}
		if _, err := st.AppendMessages(ctx, rows); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.DisplayKind == DisplayKindHidden || r.Inactive {
				hidden[next] = true
			}
			next++
		}
	}
	return st, hidden
}

// TestHiddenRowsNeverMatch: a hidden row (and a rewound one) is never a
// hit, never the reason a session is listed and never one of the words a
// session is said to match, whatever the query's syntax (phrase, OR, NEAR,
// a column filter, a prefix, plain words), in a session ranking (recall
// search, MCP) and in a message search (recall messages, the first phase
// while typing).
func TestHiddenRowsNeverMatch(t *testing.T) {
	st, hidden := hiddenSessions(t)
	ctx := context.Background()
	modes := []struct {
		name string
		f    SearchFilter
	}{
		{"sessions", SearchFilter{Sessions: true, Phase: engine.PhaseFinal}},
		{"messages", SearchFilter{Phase: engine.PhaseFinal}},
		{"typing", SearchFilter{Phase: engine.PhaseFirst, Typing: true}},
		{"newest", SearchFilter{Sort: engine.SortNewest}},
	}
	cases := []struct {
		query string
		none  bool // no session holds it outside hidden rows
	}{
		{`"GEMINI-MD-MARKER-heron"`, true},
		{`"gemini md marker heron"`, false}, // relaxed to its words: "marker" is in g1
		{`"deploy with care"`, true},
		{`heron OR zzzqqq`, true},
		{`heron OR gemini`, true},
		{`NEAR(gemini heron)`, true},
		{`NEAR(gemini heron, 3) OR deploy`, true},
		{`content:heron`, true},
		{`content:gemini AND content:deploy`, true},
		{`her*`, true},
		{`gemin*`, true},
		{`^session_context`, true},
		{`heron`, true},
		{`gemini deploy heron`, true},
		{`nests lake`, true},
		{`quokka heron`, false},
		{`marker heron`, false},
		{`GEMINI-MD-MARKER-heron`, false}, // plain words: "marker" is in g1's reply
	}
	for _, m := range modes {
		for _, c := range cases {
			res, err := st.SearchMessages(ctx, c.query, m.f)
			if err != nil {
				t.Fatalf("%s %q: %v", m.name, c.query, err)
			}
			if c.none && len(res.Hits) > 0 {
				t.Errorf("%s %q: %d hits, want none (first: %s #%d %q)", m.name, c.query, len(res.Hits), res.Hits[0].SessionID, res.Hits[0].MessageID, res.Hits[0].Snippet)
			}
			for _, h := range res.Hits {
				if hidden[h.MessageID] {
					t.Errorf("%s %q: hit on hidden row #%d %q", m.name, c.query, h.MessageID, h.Snippet)
				}
				for _, w := range h.Matched {
					if lw := strings.ToLower(w); lw == "heron" || lw == "gemini" || lw == "deploy" {
						t.Errorf("%s %q: session %s said to match %q, which only its hidden rows hold", m.name, c.query, h.SessionID, w)
					}
				}
			}
		}
	}
	// The plain words find the sessions their ordinary rows hold, and only those.
	res, err := st.SearchMessages(ctx, "quokka heron", SearchFilter{Sessions: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		if !slices.Contains(got, h.SessionID) {
			got = append(got, h.SessionID)
		}
	}
	if !slices.Equal(got, []string{"g2"}) {
		t.Errorf("quokka heron: sessions %v, want [g2]", got)
	}
}

// TestEarlierVersionOfHiddenRowUnsearched: when a source rewrites a
// message, its earlier text is kept and searched (an earlier version);
// the earlier text of a hidden message stays unsearched, as it was.
func TestEarlierVersionOfHiddenRowUnsearched(t *testing.T) {
	for _, old := range []bool{false, true} {
		t.Run(fmt.Sprintf("migrated=%v", old), func(t *testing.T) { earlierVersionOfHiddenRow(t, old) })
	}
}

func earlierVersionOfHiddenRow(t *testing.T, old bool) {
	st := mustOpen(t)
	ctx := context.Background()
	write := func(hidden, shown string) {
		t.Helper()
		err := st.Write(ctx, func(tx *Tx) error {
			if err := tx.UpsertSession(Session{ID: "r", Source: "gemini-cli", StartedAt: at(0)}); err != nil {
				return err
			}
			msgs, err := tx.KeepDropped("r", []Message{
				{SessionID: "r", Role: "user", Content: hidden, DisplayKind: DisplayKindHidden, SourceKey: "ctx", Timestamp: at(0)},
				{SessionID: "r", Role: "user", Content: shown, SourceKey: "p1", Timestamp: at(1)},
			})
			if err != nil {
				return err
			}
			_, err = tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	write("<session_context> heron v1 </session_context>", "plover question v1")
	write("<session_context> osprey v2 </session_context>", "plover question v2")
	if old {
		// As a recall before migration 1065 stored it: searched. The
		// migration makes it unsearched again.
		c := rawConn(t, st.Path(), false)
		mustRun(t, c, "UPDATE messages SET compacted = 1 WHERE display_kind = 'earlier'")
		sql, err := fs.ReadFile(migrations.FS, "1065_recall_unsearched_rows.sql")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.exec(string(sql)); err != nil {
			t.Fatal(err)
		}
		c.close()
	}
	for _, c := range []struct {
		query string
		want  int
	}{{"heron", 0}, {"osprey", 0}, {`"heron"`, 0}, {"heron OR osprey", 0}, {"plover", 2}} {
		for _, f := range []SearchFilter{{Sessions: true, Phase: PhaseFinal}, {Phase: PhaseFinal}} {
			res, err := st.SearchMessages(ctx, c.query, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != c.want {
				t.Errorf("%q (sessions %v): %d hits, want %d: %+v", c.query, f.Sessions, len(res.Hits), c.want, res.Hits)
			}
		}
	}
}

// TestMirroredHiddenRowStaysUnsearched: a hidden message its source no
// longer has (a Hermes rewrite of the session) is kept as an earlier
// version, and stays out of search as it was, whether it keeps its place
// or the rows after a restored turn are written again around it.
func TestMirroredHiddenRowStaysUnsearched(t *testing.T) {
	ctx := context.Background()
	hidden := Message{SessionID: "m", Role: "user", Content: "<session_context> heron </session_context>", DisplayKind: DisplayKindHidden, SourceKey: "ctx", Timestamp: at(2)}
	p1 := Message{SessionID: "m", Role: "user", Content: "plover question", SourceKey: "p1", Timestamp: at(1)}
	p0 := Message{SessionID: "m", Role: "user", Content: "plover restored turn", SourceKey: "p0", Timestamp: at(0)}
	for _, c := range []struct {
		name          string
		first, second []Message
	}{
		{"in place", []Message{hidden, p1}, []Message{p1}},
		{"written again", []Message{p1, hidden}, []Message{p0, p1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := mustOpen(t)
			for _, msgs := range [][]Message{c.first, c.second} {
				err := st.Write(ctx, func(tx *Tx) error {
					if err := tx.UpsertSession(Session{ID: "m", Source: "hermes", StartedAt: at(0)}); err != nil {
						return err
					}
					_, err := tx.MirrorSession("m", "hermes", slices.Clone(msgs))
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []struct {
				query string
				want  int
			}{{"heron", 0}, {`"heron"`, 0}, {"plover", len(c.second)}} {
				res, err := st.SearchMessages(ctx, q.query, SearchFilter{Sessions: true, Phase: PhaseFinal})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Hits) != q.want {
					t.Errorf("%q: %d hits, want %d: %+v", q.query, len(res.Hits), q.want, res.Hits)
				}
			}
		})
	}
}
