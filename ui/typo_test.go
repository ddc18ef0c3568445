package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// A typo in the last (or only) word is retried in the TUI as `recall
// search` retries it: the ranked phase runs after a pause in typing, so a
// last word that no indexed word starts with is read as complete, and the
// status line says what was searched instead. Before, the ranked phase
// kept the word as a prefix, which never has a typo looked for: `recall
// demo --query dokcer` said "no matches" where `recall search dokcer`
// found docker. A word that is a prefix of indexed words is left alone
// ("migr" is not corrected to anything).
func TestTypoRetryWhenTheLastWordIsTheTypo(t *testing.T) {
	st := openTestStore(t)
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions})
	settled := func(q string) string { // what `recall search` says of q
		d, err := eng.Discover(context.Background(), q, recall.DiscoverOptions{Filter: store.SearchFilter{Phase: store.PhaseFinal}})
		if err != nil {
			t.Fatal(err)
		}
		_, fix, _ := strings.Cut(d.Suggestion, ": ")
		return fix
	}
	if fix := settled("migratoin"); fix != "migratoin → migration" {
		t.Fatalf("the engine retries migratoin as %q; this test needs migration", fix)
	}
	for _, tc := range []struct {
		name, query string
		atStart     bool
	}{
		{"the query given at start", "migratoin", true},
		{"typed, the only word", "migratoin", false},
		{"typed, the last word", "sqlite migratoin", false},
		{"typed, a prefix of words", "migr", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			if tc.atStart {
				opts.Query = tc.query
			}
			d := newDriverWith(t, NewEngineBackend(eng, st), 120, 30, opts)
			if !tc.atStart {
				d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
				d.typ(tc.query)
			}
			d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == tc.query })
			fix := settled(tc.query)
			switch {
			case tc.query == "migr" && fix != "":
				t.Fatalf("the engine corrects migr (%q); the prefix case needs a word it leaves alone", fix)
			case tc.query == "migr":
				if strings.Contains(d.m.status.search, "searched instead") || len(d.m.list.items) == 0 {
					t.Fatalf("a prefix of indexed words: status %q, %d sessions", d.m.status.search, len(d.m.list.items))
				}
			case !strings.Contains(d.m.status.search, "searched instead: "+fix) || len(d.m.list.items) == 0 || d.m.list.items[0].SessionID != "cc-1111":
				t.Fatalf("status %q, %d sessions; want \"searched instead: %s\" and the migration session first\n%s",
					d.m.status.search, len(d.m.list.items), fix, d.screen())
			}
		})
	}
}
