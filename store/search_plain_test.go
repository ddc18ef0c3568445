package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/query"
)

// plainCorpus: the evidence of a question is spread over a session's
// messages, a title names a session's topic, a word is inflected.
func plainCorpus(t *testing.T) (*Store, map[string]int64) {
	st := mustOpen(t)
	ids := seed(t, st, []fixtureSession{
		{id: "s-group", source: "cli", title: "", minute: 0},
		{id: "s-other", source: "cli", title: "", minute: 10},
		{id: "s-migr", source: "cli", title: "Migration 0042 failed in staging", minute: 20},
		{id: "s-billing", source: "cli", title: "billing cleanup", minute: 30},
		{id: "s-may", source: "cli", title: "", minute: 60 * 24 * 400},
	}, []fixture{
		{label: "g1", session: "s-group", role: "user", content: "Caroline: I went to a LGBTQ support group yesterday.", minute: 1},
		{label: "g2", session: "s-group", role: "assistant", content: "Melanie: that group sounds powerful, I painted a sunrise", minute: 2},
		{label: "o1", session: "s-other", role: "user", content: "Caroline: my support for the team matters", minute: 11},
		{label: "m1", session: "s-migr", role: "user", content: "the deploy step failed on the migration", minute: 21},
		{label: "b1", session: "s-billing", role: "user", content: "remove the old migration log line", minute: 31},
		{label: "y1", session: "s-may", role: "user", content: "the deploy step failed again", minute: 60*24*400 + 1},
	})
	return st, ids
}

func TestSearchPlainSessions(t *testing.T) {
	st, _ := plainCorpus(t)
	sessions := func(res SearchResult) []string {
		var out []string
		for _, h := range res.Hits {
			if !slices.Contains(out, h.SessionID) {
				out = append(out, h.SessionID)
			}
		}
		return out
	}
	ranked := SearchFilter{Sessions: true, Limit: 50, Now: epoch.AddDate(0, 0, 500)}
	cases := []struct {
		name, query string
		f           SearchFilter
		first       string // "" for no hits
		words       []string
		matched     []string
	}{
		{"question words dropped, evidence spread over messages", "When did Caroline go to the LGBTQ support group?", ranked, "s-group",
			[]string{"Caroline", "go", "LGBTQ", "support", "group"}, []string{"Caroline", "LGBTQ", "support", "group"}},
		{"inflection", "paint sunrise", ranked, "s-group", []string{"paint", "sunrise"}, []string{"paint", "sunrise"}},
		{"title beats a passing mention", "migration", ranked, "s-migr", []string{"migration"}, []string{"migration"}},
		{"typo corrected", "sunrsie", ranked, "s-group", []string{"sunrise"}, []string{"sunrise"}},
		{"date ranks its sessions first", "deploy failed in June 2027", ranked, "s-may", []string{"deploy", "failed"}, []string{"deploy", "failed"}},
		{"explicit syntax keeps its meaning", `"support group"`, ranked, "s-group", nil, nil},
		{"without Sessions: FTS5 AND per message", "Caroline LGBTQ support group sunrise", SearchFilter{Limit: 50}, "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := search(t, st, c.query, c.f)
			got := sessions(res)
			if c.first == "" {
				if len(got) != 0 {
					t.Fatalf("sessions %v, want none", got)
				}
				return
			}
			if len(got) == 0 || got[0] != c.first {
				t.Fatalf("sessions %v, want %s first", got, c.first)
			}
			if c.words == nil && len(got) != 1 {
				t.Fatalf("sessions %v: an exact FTS5 query matched more than %s", got, c.first)
			}
			if !slices.Equal(res.Words, c.words) {
				t.Errorf("words %q, want %q", res.Words, c.words)
			}
			if !slices.Equal(res.Hits[0].Matched, c.matched) {
				t.Errorf("matched %q, want %q", res.Hits[0].Matched, c.matched)
			}
		})
	}
	if res := search(t, st, "sunrsie", ranked); !strings.Contains(res.Suggestion, "sunrsie → sunrise") {
		t.Errorf("suggestion %q does not say which word was replaced", res.Suggestion)
	}
	if res := search(t, st, "deploy failed in June 2027", ranked); res.DateFilter != "June 2027" || res.DateFrom.IsZero() {
		t.Errorf("date filter %q from %v", res.DateFilter, res.DateFrom)
	}
	// A quoted title in a question matches nothing as a phrase: its words answer.
	res := search(t, st, `When did Melanie paint "a sunrise at dawn"?`, ranked)
	if got := sessions(res); len(got) == 0 || got[0] != "s-group" || !strings.Contains(res.Suggestion, "as written") {
		t.Errorf("quoted question: sessions %v, suggestion %q", got, res.Suggestion)
	}
}

// TestSearchPlainBounded: on a file whose words index full ranking does not
// read (here another tokenizer), a plain query is ranked by the bounded
// path (engine/pipeline/bounded.go: the newest matches of each word, the
// best rows of those): on this small corpus it puts the same sessions
// first as ranking over every match does, corrects the same typo and
// prefers the same date.
func TestSearchPlainBounded(t *testing.T) {
	st, _ := plainCorpus(t)
	path := st.Path()
	st.Close()
	c := rawConn(t, path, false)
	mustRun(t, c, "DROP TABLE messages_fts")
	mustRun(t, c, "CREATE VIRTUAL TABLE messages_fts USING fts5(content, prefix='1 2 3', tokenize='porter unicode61')")
	mustRun(t, c, "INSERT INTO messages_fts(rowid, content) SELECT m.id, "+indexTextSQL("m")+" FROM messages m")
	st = mustOpenPath(t, path, Options{})
	if err := st.read(context.Background(), func(c *conn) error {
		_, err := testIndexes(st).Open(c, "messages_fts")
		return err
	}); !errors.Is(err, postings.ErrNotApplicable) {
		t.Fatalf("full ranking reads a porter table (%v): the bounded path is not what answers", err)
	}
	ranked := SearchFilter{Sessions: true, Limit: 50, Now: epoch.AddDate(0, 0, 500)}
	for _, c := range []struct{ query, first, suggestion, date string }{
		{"When did Caroline go to the LGBTQ support group?", "s-group", "", ""},
		{"paint sunrise", "s-group", "", ""},
		{"migration", "s-migr", "", ""}, // its title beats a passing mention
		{"sunrsie", "s-group", "sunrsie → sunrise", ""},
		{"deploy failed in June 2027", "s-may", "", "June 2027"},
	} {
		res := search(t, st, c.query, ranked)
		if len(res.Hits) == 0 || res.Hits[0].SessionID != c.first {
			t.Errorf("%q: %+v, want %s first", c.query, res.Hits, c.first)
			continue
		}
		if !strings.Contains(res.Suggestion, c.suggestion) || res.DateFilter != c.date || len(res.Words) == 0 || res.Hits[0].Snippet == "" {
			t.Errorf("%q: suggestion %q, date %q, words %q, snippet %q", c.query, res.Suggestion, res.DateFilter, res.Words, res.Hits[0].Snippet)
		}
	}
}

// While typing, the ranked phase reads the last word as a whole word when
// it is one, and as a prefix only when it is a fragment.
func TestSearchPlainTypedWord(t *testing.T) {
	st, _ := plainCorpus(t)
	f := SearchFilter{Sessions: true, Typing: true, Limit: 50}
	if res := search(t, st, "sunri", f); len(res.Hits) == 0 || res.Hits[0].SessionID != "s-group" {
		t.Errorf("fragment sunri: %+v", res.Hits)
	}
	res := search(t, st, "deploy step", f)
	if strings.Contains(res.Query, "*") {
		t.Errorf("a complete last word was searched as a prefix: %s", res.Query)
	}
}

// TestPlainDocsReadError: a read of the index that fails half-way (here
// interrupted, as a spent search budget interrupts it) is an error of the
// search, with every buffer read so far given back, not a crash.
func TestPlainDocsReadError(t *testing.T) {
	st, _ := routingStore(t)
	pq, ok := query.ReadPlain("docker network error", st.layout.engineLayout().Columns(), false, time.Now())
	if !ok {
		t.Fatal("not a plain query")
	}
	err := st.read(context.Background(), func(c *conn) error {
		ix, err := testIndexes(st).Open(c, "messages_fts")
		if err != nil {
			return err
		}
		if _, _, release, err := postings.WordPostings(ix, &pq, map[string]bool{"network": true}); err != nil {
			return fmt.Errorf("before the interrupt: %w", err)
		} else {
			release()
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		defer c.db.SetInterrupt(c.db.SetInterrupt(ctx))
		_, _, release, err := postings.WordPostings(ix, &pq, map[string]bool{"network": true})
		if err == nil || release != nil {
			t.Errorf("interrupted: err %v, release %v; want an error and nothing to release", err, release != nil)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
