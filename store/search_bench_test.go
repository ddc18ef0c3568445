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
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		b.Skip("set RECALL_BENCH_DB to a corpus made by `recall gen`")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, q := range synth.BenchQueries {
		for _, phase := range []store.Phase{store.PhaseFirst, store.PhaseFinal} {
			name := q.Kind + "/first"
			if phase == store.PhaseFinal {
				name = q.Kind + "/final"
			}
			b.Run(name, func(b *testing.B) {
				f := store.SearchFilter{Typing: true, Limit: 50, Phase: phase}
				if _, err := st.SearchMessages(ctx, q.Query, f); err != nil { // warm
					b.Fatal(err)
				}
				ds := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					if _, err := st.SearchMessages(ctx, q.Query, f); err != nil {
						b.Fatal(err)
					}
					ds = append(ds, time.Since(t0))
				}
				sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
				b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(ds[(len(ds)*99)/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}
