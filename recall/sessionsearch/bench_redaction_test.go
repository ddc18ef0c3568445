//go:build unix

package sessionsearch

import (
	"context"
	"fmt"
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
	reps := 5
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	call := func(q string, show, cold bool) (time.Duration, int64, int) {
		if cold {
			secrets.DropCache()
		}
		scanned, began := secrets.ScannedBytes(), cpu()
		resp := tool.Call(ctx, Request{Query: q, Summary: SummaryOffline, MaxChars: DefaultMaxChars, ShowSecrets: show})
		if resp.IsError {
			b.Fatal(string(resp.JSON))
		}
		return cpu() - began, secrets.ScannedBytes() - scanned, len(resp.JSON)
	}
	for b.Loop() {
		fmt.Println("| query (kind) | answer KB | scanned KB (first) | CPU as stored | CPU redacted, first | redaction, first | CPU redacted, again | redaction, again |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
		var sumCold, sumWarm time.Duration
		var scannedAll int64
		for _, q := range synth.BenchQueries {
			call(q.Query, true, false) // the search's own caches, warm for both
			var raw, cold, warm time.Duration
			var scannedKB int64
			answer := 0
			for range reps {
				d, _, _ := call(q.Query, true, false)
				raw += d
				d, n, size := call(q.Query, false, true)
				cold, scannedKB, answer = cold+d, scannedKB+n, size
				d, _, _ = call(q.Query, false, false)
				warm += d
			}
			raw, cold, warm, scannedKB = raw/time.Duration(reps), cold/time.Duration(reps), warm/time.Duration(reps), scannedKB/int64(reps)
			sumCold += cold - raw
			sumWarm += warm - raw
			scannedAll += scannedKB
			fmt.Printf("| `%s` (%s) | %.1f | %.1f | %s | %s | %s | %s | %s |\n", q.Query, q.Kind, float64(answer)/1000, float64(scannedKB)/1000,
				ms(raw), ms(cold), ms(cold-raw), ms(warm), ms(warm-raw))
		}
		n := time.Duration(len(synth.BenchQueries))
		fmt.Printf("\nredaction per answer, mean of %d queries: first %s CPU (%.1f KB scanned; %s per 30 KB), again %s\n",
			len(synth.BenchQueries), ms(sumCold/n), float64(scannedAll)/1000/float64(n),
			ms(time.Duration(float64(sumCold)/(float64(scannedAll)/30000))), ms(sumWarm/n))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
