//go:build unix

package sessionsearch

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store/synth"
)

// BenchmarkRedaction is the cost of redaction per answer on a real corpus
// (RECALL_BENCH_DB): each query of the benchmark mix answered as MCP
// answers by default (offline summaries, 12,000-character budget), with
// its secrets redacted and without (ShowSecrets), the first time (the
// cache of redactions dropped) and again; CPU time of the process, so a
// busy machine's waiting is not counted.
//
//	RECALL_BENCH_DB=/tmp/redact/c1m.db go test ./recall/sessionsearch -run '^$' -bench Redaction -benchtime 1x
func BenchmarkRedaction(b *testing.B) {
	ctx := context.Background()
	tool := benchTool(b)
	reps := 9
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	// call answers q and returns the CPU it took (a collection first, so
	// none of an earlier call's garbage is paid for here), the bytes the
	// rules scanned and the answer's size.
	call := func(q string, show, cold bool) (time.Duration, int64, int) {
		if cold {
			secrets.DropCache()
		}
		runtime.GC()
		scanned, began := secrets.ScannedBytes(), cpu()
		resp := tool.Call(ctx, Request{Query: q, Summary: SummaryOffline, MaxChars: DefaultMaxChars, ShowSecrets: show})
		if resp.IsError {
			b.Fatal(string(resp.JSON))
		}
		return cpu() - began, secrets.ScannedBytes() - scanned, len(resp.JSON)
	}
	median := func(ds []time.Duration) time.Duration {
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	for b.Loop() {
		fmt.Println("| query (kind) | answer KB | scanned KB, first | CPU as stored | CPU redacted, first | redaction, first | scanned KB, again | redaction, again |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
		var sumCold, sumWarm time.Duration
		var scannedAll int64
		for _, q := range synth.BenchQueries {
			call(q.Query, true, false) // the search's own caches, warm for both
			var raw, cold, warm []time.Duration
			var scannedCold, scannedWarm int64
			answer := 0
			for range reps {
				d, _, _ := call(q.Query, true, false)
				raw = append(raw, d)
				d, n, size := call(q.Query, false, true)
				cold, scannedCold, answer = append(cold, d), n, size
				d, n, _ = call(q.Query, false, false)
				warm, scannedWarm = append(warm, d), n
			}
			r, c, w := median(raw), median(cold), median(warm)
			sumCold += c - r
			sumWarm += w - r
			scannedAll += scannedCold
			fmt.Printf("| `%s` (%s) | %.1f | %.1f | %s | %s | %s | %.1f | %s |\n", q.Query, q.Kind, float64(answer)/1000, float64(scannedCold)/1000,
				ms(r), ms(c), ms(c-r), float64(scannedWarm)/1000, ms(w-r))
		}
		n := time.Duration(len(synth.BenchQueries))
		fmt.Printf("\nredaction per answer (medians of %d, mean over %d queries): first %s CPU for %.1f KB scanned (%s per 30 KB), again %s\n",
			reps, len(synth.BenchQueries), ms(sumCold/n), float64(scannedAll)/1000/float64(n),
			ms(time.Duration(float64(sumCold)/(float64(scannedAll)/30000))), ms(sumWarm/n))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
