package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// BenchmarkPlainSessions times Discover's search (limit 300, user and
// assistant rows, ranked phase) of plain words and questions on a real
// corpus, read-only: fts5 is the query run as FTS5 syntax (an AND per
// message, before plain queries), plain the session ranking of its words.
//
//	RECALL_BENCH_DB=/tmp/c1m.db go test ./store -run '^$' -bench PlainSessions -benchtime 20x
func BenchmarkPlainSessions(b *testing.B) {
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		b.Skip("set RECALL_BENCH_DB to a corpus made by `recall gen`")
	}
	st, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	queries := []struct{ name, q string }{
		{"rare", "zenkowitz"},
		{"common", "error"},
		{"stopword", "the"},
		{"two-words", "docker network"},
		{"prefix1", "d*"},
		{"prefix2", "co*"},
		{"four-words", "connection refused postgres container"},
		{"question", "how did we fix the docker networking error?"},
		{"question-date", "what did we change in the migration last week?"},
		{"typo", "dokcer netwrok"},
		{"long-question", "why does the api container keep crashing on startup with connection refused when postgres runs in a separate docker network on the staging box"},
	}
	for _, q := range queries {
		for _, plain := range []bool{false, true} {
			name := q.name + "/fts5"
			if plain {
				name = q.name + "/plain"
			}
			b.Run(name, func(b *testing.B) {
				f := store.SearchFilter{Limit: 300, Roles: []string{"user", "assistant"}, ExcludeSources: []string{"subagent", "tool"}, Sessions: plain}
				ctx := context.Background()
				if _, err := st.SearchMessages(ctx, q.q, f); err != nil { // warm
					b.Fatal(err)
				}
				var ds []time.Duration
				var hits int
				for b.Loop() {
					t0 := time.Now()
					res, err := st.SearchMessages(ctx, q.q, f)
					if err != nil {
						b.Fatal(err)
					}
					ds, hits = append(ds, time.Since(t0)), len(res.Hits)
				}
				reportLatencies(b, ds)
				b.ReportMetric(float64(hits), "hits")
			})
		}
	}
}
