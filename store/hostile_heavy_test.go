//go:build heavy

package store_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// TestHostileQueriesHeavy types generated hostile queries (store.HostileQuery:
// deep nesting, thousands of terms, huge phrases, NEAR groups, long words,
// CJK runs, punctuation, all spliced and cut at random) at a real database,
// both phases, typed and not, for RECALL_HOSTILE_DURATION (default 60s):
// every one must answer (no error; a notice, if any, on one line). The
// worst cases are logged, not asserted: timings belong to benchmarks. The
// database is $RECALL_BENCH_DB (the 1M corpus) or else 100,000 generated
// messages.
func TestHostileQueriesHeavy(t *testing.T) {
	ctx := context.Background()
	dur := 60 * time.Second
	if v := os.Getenv("RECALL_HOSTILE_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("RECALL_HOSTILE_DURATION: %v", err)
		}
		dur = d
	}
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		path = filepath.Join(t.TempDir(), "hostile.db")
		st, err := store.Open(ctx, path, store.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := synth.Load(ctx, st, synth.Options{Messages: 100_000, Seed: 1}, nil); err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	type run struct {
		query  string
		phase  store.Phase
		typing bool
		took   time.Duration
		hits   int
		notice string
	}
	var runs []run
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	queries := []string{}
	for _, sh := range store.HostileShapes {
		queries = append(queries, sh.Query)
	}
	deadline := time.Now().Add(dur)
	notices := 0
	for i := 0; time.Now().Before(deadline) || i < len(queries); i++ {
		q := ""
		if i < len(queries) {
			q = queries[i]
		} else {
			q = store.HostileQuery(rng)
		}
		for _, typing := range []bool{true, false} {
			for _, ph := range []store.Phase{store.PhaseFirst, store.PhaseFinal} {
				t0 := time.Now()
				res, err := st.SearchMessages(ctx, q, store.SearchFilter{Typing: typing, Phase: ph, Limit: 50})
				took := time.Since(t0)
				if err != nil {
					t.Fatalf("query %q (typing %v, phase %d): %v", clip(q), typing, ph, err)
				}
				if strings.ContainsAny(res.Notice, "\r\n") {
					t.Fatalf("query %q: notice is not one line: %q", clip(q), res.Notice)
				}
				if res.Notice != "" {
					notices++
				}
				runs = append(runs, run{q, ph, typing, took, len(res.Hits), res.Notice})
			}
		}
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].took > runs[j].took })
	p := func(f float64) time.Duration { return runs[int(float64(len(runs)-1)*(1-f))].took }
	t.Logf("%d searches (%d with a notice) in %v: p50 %v, p99 %v, p99.9 %v, worst %v",
		len(runs), notices, dur, p(0.5), p(0.99), p(0.999), runs[0].took)
	for _, r := range runs[:min(8, len(runs))] {
		t.Logf("  %8v  phase %d typing %-5v %3d hits  %s  %s", r.took.Round(time.Millisecond), r.phase, r.typing, r.hits, clip(r.query), r.notice)
	}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 90 {
		return fmt.Sprintf("%q… (%d chars)", string(r[:90]), len(r))
	}
	return fmt.Sprintf("%q", s)
}
