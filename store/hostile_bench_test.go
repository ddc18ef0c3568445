package store_test

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// BenchmarkHostileQueries runs each hostile shape (store.HostileShapes)
// through the as-you-type path, both phases, against $RECALL_BENCH_DB, and
// reports the p50 and the worst case: every query must answer well inside a
// second, with results or a notice, never an error.
func BenchmarkHostileQueries(b *testing.B) {
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
	for _, sh := range store.HostileShapes {
		for _, phase := range []store.Phase{store.PhaseFirst, store.PhaseFinal} {
			name := sh.Name + "/first"
			if phase == store.PhaseFinal {
				name = sh.Name + "/final"
			}
			b.Run(name, func(b *testing.B) {
				f := store.SearchFilter{Typing: true, Limit: 50, Phase: phase}
				ds := make([]time.Duration, 0, b.N)
				for b.Loop() {
					t0 := time.Now()
					if _, err := st.SearchMessages(ctx, sh.Query, f); err != nil {
						b.Fatal(err)
					}
					ds = append(ds, time.Since(t0))
				}
				sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
				b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(ds[len(ds)-1].Microseconds())/1000, "max-ms")
			})
		}
	}
}
