package store_test

import (
	"testing"

	"github.com/recall-dev/recall/store"
)

// BenchmarkHostileQueries runs each hostile shape (store.HostileShapes)
// through the as-you-type path, both phases, against $RECALL_BENCH_DB, and
// reports the p50 and the worst case: every query must answer well inside a
// second, with results or a notice, never an error.
func BenchmarkHostileQueries(b *testing.B) {
	st := openBenchDB(b)
	for _, sh := range store.HostileShapes {
		benchPhases(b, st, sh.Name, sh.Query)
	}
}
