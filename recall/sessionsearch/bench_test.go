package sessionsearch

import (
	"context"
	"os"
	"testing"

	"github.com/recall-dev/recall/store"
)

// BenchmarkCall splits a discover call's cost on a real corpus
// (RECALL_BENCH_DB, opened read-only): the search and evidence alone, with
// the offline summaries (the MCP default), and with the budget applied.
//
//	RECALL_BENCH_DB=/work/bench/mcp-1m.db go test ./recall/sessionsearch -run '^$' -bench Call -benchtime 20x
//
// RECALL_BENCH_QUERY names another query (default: docker network).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	tool := benchTool(b)
	q := "docker network"
	if v := os.Getenv("RECALL_BENCH_QUERY"); v != "" {
		q = v
	}
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"evidence", Request{Query: q}},
		{"evidence+budget", Request{Query: q, MaxChars: DefaultMaxChars}},
		{"offline-summaries", Request{Query: q, Summary: SummaryOffline}},
		{"mcp-default", Request{Query: q, Summary: SummaryOffline, MaxChars: DefaultMaxChars}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if resp := tool.Call(ctx, tc.req); resp.IsError {
					b.Fatal(string(resp.JSON))
				}
			}
		})
	}
}

// benchTool is a Tool over RECALL_BENCH_DB, opened read-only (the
// benchmark is skipped without one).
func benchTool(b *testing.B) *Tool {
	db := os.Getenv("RECALL_BENCH_DB")
	if db == "" {
		b.Skip("RECALL_BENCH_DB is not set")
	}
	st, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return New(st, Options{})
}
