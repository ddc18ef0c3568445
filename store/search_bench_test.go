package store_test

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// BenchmarkSearchMixed runs the mixed query set through the
// as-you-type path (Typing, limit 50) against the corpus in
// $RECALL_BENCH_DB (build one with `recall gen --messages 1000000 --db F`),
// reporting the median and p99 of the first phase (newest hits) and of the
// final phase (bm25-ranked) per query.
func BenchmarkSearchMixed(b *testing.B) {
	st := openBenchDB(b)
	for _, q := range synth.BenchQueries {
		benchPhases(b, st, q.Kind, q.Query)
	}
}

// openBenchDB opens $RECALL_BENCH_DB, or skips the benchmark.
func openBenchDB(b *testing.B) *store.Store {
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		b.Skip("set RECALL_BENCH_DB to a corpus made by `recall gen`")
	}
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// benchPhases runs query as typed (limit 50) in each phase, as the
// sub-benchmarks name/first and name/final, after one warm-up search, and
// reports the p50, p99 and worst latency.
func benchPhases(b *testing.B, st *store.Store, name, query string) {
	ctx := context.Background()
	for _, phase := range []store.Phase{store.PhaseFirst, store.PhaseFinal} {
		sub := name + "/first"
		if phase == store.PhaseFinal {
			sub = name + "/final"
		}
		b.Run(sub, func(b *testing.B) {
			f := store.SearchFilter{Typing: true, Limit: 50, Phase: phase}
			if _, err := st.SearchMessages(ctx, query, f); err != nil { // warm
				b.Fatal(err)
			}
			ds := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := st.SearchMessages(ctx, query, f); err != nil {
					b.Fatal(err)
				}
				ds = append(ds, time.Since(t0))
			}
			reportLatencies(b, ds)
		})
	}
}

// reportLatencies reports the p50, p99 and slowest of a benchmark's calls.
func reportLatencies(b *testing.B, ds []time.Duration) {
	b.Helper()
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms")
	b.ReportMetric(ms(ds[(len(ds)*99)/100]), "p99-ms")
	b.ReportMetric(ms(ds[len(ds)-1]), "max-ms")
}
