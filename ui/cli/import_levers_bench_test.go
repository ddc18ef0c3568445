package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// BenchmarkImportLevers imports one generated Claude Code tree into fresh
// databases with and without each throughput lever, as sub-benchmarks of
// one run, so the rates compare side by side on a noisy machine (run with
// -count to interleave). Levers:
//   - base: the schema as migrated (FTS5's default pgsz, 1000 bytes);
//   - pgszN: every FTS5 index (unicode61, trigram, CJK bigrams) with leaf
//     pages of N bytes, fewer and larger leaves per segment;
//   - deferred-trigram: rows, unicode61 and CJK grams first, the trigram
//     index in one pass after (what `recall import` does): latin-msgs/s is
//     the rate until words are searchable, msgs/s until every index is.
//
// RECALL_BENCH_IMPORT_FILES sets the tree's size (default 200 files).
func BenchmarkImportLevers(b *testing.B) {
	files := benchFiles(b, 200)
	tree := writeClaudeTree(b, b.TempDir(), files, 640, 24)
	src, ok := importer.Lookup("claude")
	if !ok {
		b.Fatal("claude source not registered")
	}
	for _, lever := range []struct {
		name     string
		pgsz     int // 0: FTS5's default
		deferTri bool
	}{{"base", 0, false}, {"pgsz4000", 4000, false}, {"pgsz8000", 8000, false}, {"deferred-trigram", 0, true}} {
		b.Run(lever.name, func(b *testing.B) {
			ctx := context.Background()
			var msgs int
			var elapsed, latin time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				path := filepath.Join(b.TempDir(), "state.db")
				st, err := store.Open(ctx, path, store.Options{Create: true})
				if err != nil {
					b.Fatal(err)
				}
				if lever.pgsz > 0 {
					st.Close()
					setFTSPageSize(b, path, lever.pgsz)
					if st, err = store.Open(ctx, path, store.Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				t0 := time.Now()
				st.SetDeferTrigram(lever.deferTri)
				rep, err := importer.Run(ctx, st, src, []string{tree.Dir}, importer.Options{})
				latin += time.Since(t0)
				if err == nil && lever.deferTri {
					st.SetDeferTrigram(false)
					err = st.IndexDeferredTrigram(ctx, nil)
				}
				elapsed += time.Since(t0)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if rep.Messages != tree.Messages {
					b.Fatalf("imported %d messages, want %d", rep.Messages, tree.Messages)
				}
				msgs += rep.Messages
				st.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(msgs)/latin.Seconds(), "latin-msgs/s")
			b.ReportMetric(float64(msgs)/elapsed.Seconds(), "msgs/s")
		})
	}
}

// setFTSPageSize sets FTS5's pgsz option on every full-text index of the
// database at path (a persistent setting, kept in each index's _config).
func setFTSPageSize(b *testing.B, path string, pgsz int) {
	b.Helper()
	db, err := sqlite3.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, t := range []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"} {
		if err := db.Exec(fmt.Sprintf("INSERT INTO %s(%s, rank) VALUES('pgsz', %d)", t, t, pgsz)); err != nil {
			b.Fatalf("%s pgsz: %v", t, err)
		}
	}
}
