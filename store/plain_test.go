package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadPlain(t *testing.T) {
	now := time.Date(2026, 6, 15, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		query string
		typed bool
		ok    bool
		words []string
		date  string
	}{
		{"When did Caroline go to the LGBTQ support group?", false, true, []string{"Caroline", "go", "LGBTQ", "support", "group"}, ""},
		{"docker postgres network", false, true, []string{"docker", "postgres", "network"}, ""},
		{"what did we change in May 2023", false, true, []string{"change"}, "May 2023"},
		{"the docker fix last week", false, true, []string{"docker", "fix"}, "last week"},
		{"nginx yesterday", false, true, []string{"nginx"}, "yesterday"},
		{"may I ask about the deploy", false, true, []string{"ask", "deploy"}, ""},
		{"the who", false, true, []string{"the", "who"}, ""},
		{"docker-compose up", false, true, []string{"docker", "compose"}, ""},
		{"docker netw", true, true, []string{"docker", "netw"}, ""},
		{`"exact phrase" here`, false, false, nil, ""},
		{"deploy NOT rollback", false, false, nil, ""},
		{"deploy -rollback", false, false, nil, ""},
		{"migrat*", false, false, nil, ""},
		{"content: docker", false, false, nil, ""},
		{"nginx OR caddy", false, false, nil, ""},
		{"NEAR(a b)", false, false, nil, ""},
		{"数据库 迁移", false, false, nil, ""},
		{"?!", false, false, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			pq, ok := readPlain(c.query, []string{"content"}, c.typed, now)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			var words []string
			for _, w := range pq.words {
				words = append(words, w.text)
			}
			if !slices.Equal(words, c.words) {
				t.Errorf("words = %q, want %q", words, c.words)
			}
			if pq.date.text != c.date {
				t.Errorf("date = %q, want %q", pq.date.text, c.date)
			}
			if c.typed && !pq.words[len(pq.words)-1].prefix {
				t.Errorf("the word being typed is not a prefix")
			}
		})
	}
}

// No term cap cuts a long question's content words (the FTS5 sanitiser
// keeps 12 terms).
func TestReadPlainKeepsLongQuestions(t *testing.T) {
	q := "what did alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa say"
	pq, ok := readPlain(q, []string{"content"}, false, time.Time{})
	if !ok || len(pq.words) != 17 {
		t.Fatalf("got %d words (ok %v), want 17", len(pq.words), ok)
	}
}

func TestInflections(t *testing.T) {
	cases := []struct {
		word      string
		want, not []string
	}{
		{"painted", []string{"painted", "paint", "paints", "painting"}, []string{"pain"}},
		{"paint", []string{"paint", "painted", "paintings"}, nil},
		{"played", []string{"play", "plays", "playing"}, nil},
		{"studying", []string{"study", "studies", "studied"}, nil},
		{"running", []string{"running", "run", "runs"}, nil},
		{"migration", []string{"migration", "migrations", "migrate", "migrated"}, nil},
		{"go", []string{"go"}, nil},
		{"k8s", []string{"k8s"}, nil},
	}
	for _, c := range cases {
		got := inflections(c.word)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("inflections(%q) = %q: lacks %q", c.word, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("inflections(%q) = %q: has %q", c.word, got, w)
			}
		}
	}
}

func TestFindDate(t *testing.T) {
	now := time.Date(2026, 4, 10, 15, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		query    string
		from, to time.Time
		rest     string
	}{
		{"deploy in May 2023", day(2023, 5, 1), day(2023, 6, 1), "deploy in"},
		{"7 May 2023 support group", day(2023, 5, 6), day(2023, 5, 14), "support group"},
		{"May 7th 2023", day(2023, 5, 6), day(2023, 5, 14), ""},
		{"John August 11 15 2023", day(2023, 8, 10), day(2023, 8, 22), "John"},
		{"in May", day(2025, 5, 1), day(2025, 6, 1), "in"}, // asked in April: last May
		{"in March", day(2026, 3, 1), day(2026, 4, 1), "in"},
		{"yesterday nginx", day(2026, 4, 9), day(2026, 4, 10), "nginx"},
		{"today", day(2026, 4, 10), day(2026, 4, 11), ""},
		{"last month", day(2026, 3, 1), day(2026, 4, 1), ""},
		{"2023 taxes", day(2023, 1, 1), day(2024, 1, 1), "taxes"},
		{"we may march", time.Time{}, time.Time{}, "we may march"},
		{"port 8080", time.Time{}, time.Time{}, "port 8080"},
	}
	for _, c := range cases {
		d, rest := findDate(strings.Fields(c.query), now)
		if !d.from.Equal(c.from) || !d.to.Equal(c.to) || strings.Join(rest, " ") != c.rest {
			t.Errorf("findDate(%q) = [%v, %v) rest %q; want [%v, %v) rest %q", c.query, d.from, d.to, rest, c.from, c.to, c.rest)
		}
	}
}

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

func TestRelaxSyntax(t *testing.T) {
	cases := []struct {
		query, want string
		ok          bool
	}{
		{`When did Mel read "nothing is impossible"?`, `When did Mel read nothing is impossible ?`, true},
		{`migrat* AND (docker OR podman)`, `migrat and docker or podman`, true},
		{`content: docker`, `content docker`, true},
		{`deploy NOT rollback`, "", false},
		{`deploy -rollback`, "", false},
	}
	for _, c := range cases {
		got, ok := relaxSyntax(c.query, []string{"content"})
		if got != c.want || ok != c.ok {
			t.Errorf("relaxSyntax(%q) = %q, %v; want %q, %v", c.query, got, ok, c.want, c.ok)
		}
	}
}

func TestEdits1(t *testing.T) {
	cheap := edits1("dokcer", true)
	if !slices.Contains(cheap, "docker") || len(cheap) > 2*len("dokcer") {
		t.Errorf("cheap edits of dokcer: %q", cheap)
	}
	full := edits1("netwrk", false)
	if !slices.Contains(full, "network") || slices.Contains(full, "netwrk") {
		t.Errorf("full edits of netwrk lack network or hold the word itself (%d)", len(full))
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
	pq, ok := readPlain("docker network error", st.layout.ftsColumns(), false, time.Now())
	if !ok {
		t.Fatal("not a plain query")
	}
	err := st.read(context.Background(), func(c *conn) error {
		ix, err := st.openIndex(c, "messages_fts")
		if err != nil {
			return err
		}
		if _, _, release, err := plainDocs(ix, &pq, map[string]bool{"network": true}); err != nil {
			return fmt.Errorf("before the interrupt: %w", err)
		} else {
			release()
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		defer c.db.SetInterrupt(c.db.SetInterrupt(ctx))
		_, _, release, err := plainDocs(ix, &pq, map[string]bool{"network": true})
		if err == nil || release != nil {
			t.Errorf("interrupted: err %v, release %v; want an error and nothing to release", err, release != nil)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
