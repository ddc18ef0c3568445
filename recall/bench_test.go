package recall

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// benchStore opens $RECALL_BENCH_DB (for the 1,000,000-message corpus `recall
// gen` writes) read-only, or else generates the same kind of corpus with n
// messages in a temp dir.
func benchStore(b *testing.B, n int) *store.Store {
	b.Helper()
	ctx := context.Background()
	if p := os.Getenv("RECALL_BENCH_DB"); p != "" {
		st, err := store.Open(ctx, p, store.Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		return st
	}
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), store.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := synth.Load(ctx, st, synth.Options{Messages: n, Seed: 1}, nil); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkDiscover is phase 1 end to end (300-row scan, lineage, evidence
// for 3 sessions). Target: < 50 ms for a common query on the
// 1,000,000-message corpus (RECALL_BENCH_DB); without it, a 20,000-message
// corpus is built.
func BenchmarkDiscover(b *testing.B) {
	st := benchStore(b, 20_000)
	e := New(st, Options{})
	ctx := context.Background()
	for _, q := range []string{"docker network", "error", "migration rollback"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Discover(ctx, q, DiscoverOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
