package recall

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// benchStore opens $RECALL_BENCH_DB (for the 1,000,000-message corpus `recall
// gen` writes) read-only, or else builds a corpus of n messages in a temp dir.
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
	rng := rand.New(rand.NewSource(3))
	// A Zipf-distributed vocabulary: a few words are everywhere, most are rare.
	words := strings.Fields("the a to is it and of in docker network timeout error deploy container build cache " +
		"bridge port service config retry log migration database schema index query latency memory file path test " +
		"flaky commit branch merge review release rollback token request response handler worker queue")
	for i := len(words); i < 5000; i++ {
		words = append(words, fmt.Sprintf("term%04d", i))
	}
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(words)-1))
	sentence := func() string {
		var sb strings.Builder
		for i := range 12 + rng.Intn(30) {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(words[zipf.Uint64()])
		}
		return sb.String()
	}
	const perSession = 50
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for batch := 0; batch < n; batch += 10_000 {
		err := st.Write(ctx, func(tx *store.Tx) error {
			var msgs []store.Message
			for i := batch; i < min(n, batch+10_000); i++ {
				sid := fmt.Sprintf("bench-%05d", i/perSession)
				if i%perSession == 0 {
					parent := ""
					if (i/perSession)%5 == 4 { // every fifth session continues the previous one
						parent = fmt.Sprintf("bench-%05d", i/perSession-1)
					}
					if err := tx.UpsertSession(store.Session{ID: sid, Source: []string{"cli", "cron", "telegram"}[rng.Intn(3)],
						ParentID: parent, StartedAt: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
						return err
					}
				}
				msgs = append(msgs, store.Message{SessionID: sid, Role: []string{"user", "assistant"}[i%2],
					Content: sentence(), Timestamp: t0.Add(time.Duration(i) * time.Minute)})
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
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
	for _, q := range []string{"docker network", "timeout", "rollback migration"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Discover(ctx, q, DiscoverOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
