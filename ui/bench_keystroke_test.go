package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// BenchmarkKeystroke measures keystroke → new list drawn through the real
// store and recall engine: each iteration types one character of a query
// mix and waits until the answer for that keystroke (its first phase) is in
// the list and View has drawn it. It reports p50/p99 and the process RSS.
//
// The corpus is $RECALL_BENCH_DB when set (e.g. the 1,000,000-message corpus
// from `recall gen`), else $RECALL_BENCH_MESSAGES (default 20,000) generated
// messages from synth (the `recall gen` corpus) in a temporary database.
func BenchmarkKeystroke(b *testing.B) { benchKeystroke(b, false) }

// BenchmarkKeystrokeRanked is BenchmarkKeystroke up to the ranked list
// (PhaseFinal) of each keystroke, which starts after finalPhaseDelay (60 ms)
// without typing: the time a user who stops typing waits for the final order.
func BenchmarkKeystrokeRanked(b *testing.B) { benchKeystroke(b, true) }

func benchKeystroke(b *testing.B, ranked bool) {
	st := benchStore(b)
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions})
	d := newDriver(b, NewEngineBackend(eng, st), 200, 60)
	d.pump("browse", func() bool { return d.m.finalSeq == d.m.seq })
	queries := []string{"migration", "connection refused", "部署", "docker network", "brontide", "timeout"}
	var lat []time.Duration
	qi, ci := 0, 0
	b.ResetTimer()
	for b.Loop() {
		q := []rune(queries[qi])
		t0 := time.Now()
		if ci == 0 {
			d.key("ctrl+u")
		}
		d.typ(string(q[ci]))
		want := strings.TrimSpace(string(q[:ci+1]))
		seq := d.m.seq
		d.pump("answer", func() bool {
			return d.m.seq == seq && d.m.lastQuery == want && (!ranked || d.m.finalSeq == seq)
		})
		_ = d.m.View()
		lat = append(lat, time.Since(t0))
		if ci++; ci == len(q) {
			qi, ci = (qi+1)%len(queries), 0
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(rssMB("VmRSS"), "RSS-MB")
	b.ReportMetric(rssMB("VmHWM"), "peakRSS-MB")
}

// rssMB reads a memory line of /proc/self/status (Linux), 0 elsewhere.
func rssMB(field string) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, field+":") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

func benchStore(b *testing.B) *store.Store {
	ctx := context.Background()
	if p := os.Getenv("RECALL_BENCH_DB"); p != "" {
		st, err := store.Open(ctx, p, store.Options{ReadOnly: true}) // a shared corpus: never written
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		return st
	}
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("RECALL_BENCH_MESSAGES")); err == nil && v > 0 {
		n = v
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
