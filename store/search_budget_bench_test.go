package store

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/recall-dev/recall/store/engine/pipeline"
)

// BenchmarkSearchBudgetCost measures what counting a search's CPU time
// costs: the same final-phase searches with the budget on and off, side by
// side, on $RECALL_BENCH_DB (the progress handler reads the thread's clock
// every 1,000 SQLite steps while a budget runs).
func BenchmarkSearchBudgetCost(b *testing.B) {
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		b.Skip("set RECALL_BENCH_DB to a corpus made by `recall gen`")
	}
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	defer func(d time.Duration) { pipeline.SearchBudget = d }(pipeline.SearchBudget)
	on := pipeline.SearchBudget
	for _, q := range []string{"error", "docker network", "brontide"} {
		for _, v := range []struct {
			name   string
			budget time.Duration
		}{{"budget", on}, {"none", 0}} {
			b.Run(q+"/"+v.name, func(b *testing.B) {
				pipeline.SearchBudget = v.budget
				f := SearchFilter{Typing: true, Limit: 50, Phase: PhaseFinal}
				for i := 0; i < b.N; i++ {
					if _, err := st.SearchMessages(context.Background(), q, f); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
