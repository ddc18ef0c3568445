package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// BenchmarkFullRankMixed times the final phase of `recall messages --limit
// 10` and of Discover's session search for queries that mix 1-2 character
// CJK terms with Latin words (fullrank_mixed.go), on the corpus in
// $RECALL_BENCH_DB, after one warm-up search, and reports p50, p99 and how
// many rows matched:
//
//	RECALL_BENCH_DB=/tmp/cov-1m.db go test ./store -run '^$' -bench FullRankMixed -benchtime 20x
func BenchmarkFullRankMixed(b *testing.B) {
	st := openBenchDB(b)
	ctx := context.Background()
	calls := []struct {
		name string
		f    store.SearchFilter
	}{
		{"messages", store.SearchFilter{Limit: 10, Phase: store.PhaseFinal}},
		// Discover's final phase (recall.DefaultRoles, HiddenSources, DiscoverScanLimit).
		{"sessions", store.SearchFilter{Limit: 300, Phase: store.PhaseFinal, Sessions: true,
			Roles: []string{"user", "assistant"}, ExcludeSources: []string{"subagent", "tool"}}},
	}
	for _, query := range []string{"docker 容器", "部署 docker", "修改 rollback", "go 服务", "数据库", "数据库 部署", "数据库 zzzqqq"} {
		for _, call := range calls {
			f := call.f
			b.Run(query+"/"+call.name, func(b *testing.B) {
				res, err := st.SearchMessages(ctx, query, f) // warm
				if err != nil {
					b.Fatal(err)
				}
				ds := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					if res, err = st.SearchMessages(ctx, query, f); err != nil {
						b.Fatal(err)
					}
					ds = append(ds, time.Since(t0))
				}
				reportLatencies(b, ds)
				b.ReportMetric(float64(res.Matches), "matches")
				complete := 0.0
				if res.Complete {
					complete = 1
				}
				b.ReportMetric(complete, "complete")
			})
		}
	}
}
