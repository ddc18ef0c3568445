package store

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkImportLeversStore measures, side by side in one run, the write
// levers of a first import the store itself can pull, on messages shaped
// like a Claude Code tree (files of 640 messages, ~24 words each):
//
//   - per-file: one write transaction per file, as importers do;
//   - files-per-tx-8: eight files per transaction (fewer, larger FTS5
//     segments);
//   - deferred-trigram: rows, unicode61 and CJK first, the trigram index
//     in one pass at the end; it reports the rate at which Latin search is
//     complete (latin-msgs/s) and at which every index is (msgs/s).
func BenchmarkImportLeversStore(b *testing.B) {
	const files, perFile = 60, 640
	words := strings.Fields(`the build fails on staging because the overlay network is missing docker compose deploy
migrate schema sqlite index query planner trigram token latency refactor handler middleware retry backoff context
cancel goroutine channel deadlock kubernetes ingress certificate renew cron job queue worker parse json stream buffer`)
	rng := rand.New(rand.NewSource(1))
	batches := make([][]Message, files)
	for f := range batches {
		for m := 0; m < perFile; m++ {
			n := 12 + rng.Intn(25)
			w := make([]string, n)
			for i := range w {
				w[i] = words[rng.Intn(len(words))]
			}
			batches[f] = append(batches[f], Message{SessionID: fmt.Sprintf("s%03d", f), Role: []string{"user", "assistant"}[m%2],
				Content: strings.Join(w, " "), Timestamp: time.Unix(1_780_000_000+int64(f*perFile+m), 0)})
		}
	}
	run := func(b *testing.B, perTx int, deferTrigram bool) {
		var latin, all time.Duration
		for i := 0; i < b.N; i++ {
			st := mustOpenPath(b, filepath.Join(b.TempDir(), "state.db"), Options{Create: true})
			ctx := context.Background()
			st.SetDeferTrigram(deferTrigram)
			t0 := time.Now()
			for f := 0; f < files; f += perTx {
				err := st.Write(ctx, func(tx *Tx) error {
					for g := f; g < min(f+perTx, files); g++ {
						if err := tx.UpsertSession(Session{ID: fmt.Sprintf("s%03d", g), Source: "bench"}); err != nil {
							return err
						}
						msgs := append([]Message(nil), batches[g]...)
						if _, err := tx.InsertMessages(msgs); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			st.SetDeferTrigram(false)
			latin += time.Since(t0)
			if err := st.IndexDeferredTrigram(ctx, nil); err != nil {
				b.Fatal(err)
			}
			all += time.Since(t0)
			st.Close()
		}
		n := float64(files * perFile * b.N)
		b.ReportMetric(n/latin.Seconds(), "latin-msgs/s")
		b.ReportMetric(n/all.Seconds(), "msgs/s")
	}
	b.Run("per-file", func(b *testing.B) { run(b, 1, false) })
	b.Run("files-per-tx-8", func(b *testing.B) { run(b, 8, false) })
	b.Run("deferred-trigram", func(b *testing.B) { run(b, 1, true) })
	b.Run("deferred-trigram+files-per-tx-8", func(b *testing.B) { run(b, 8, true) })
}
