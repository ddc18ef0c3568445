package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestHelperOpen is run as a child process by BenchmarkOpen*: it opens the
// database named by RECALL_OPEN_DB and reports how long Open took.
func TestHelperOpen(t *testing.T) {
	path := os.Getenv("RECALL_OPEN_DB")
	if path == "" {
		t.Skip("helper process for BenchmarkOpen")
	}
	t0 := time.Now()
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	os.Stdout.WriteString(time.Since(t0).String() + "\n")
}

func benchOpen(b *testing.B, warm bool) {
	dir := b.TempDir()
	db := filepath.Join(dir, "open.db")
	st, err := Open(context.Background(), db, Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	cache := filepath.Join(dir, "cache")
	run := func() time.Duration {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperOpen$")
		cmd.Env = append(os.Environ(), "RECALL_OPEN_DB="+db, "RECALL_WAZERO_CACHE="+cache)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		d, err := time.ParseDuration(string(firstLine(out)))
		if err != nil {
			b.Fatalf("parse %q: %v", out, err)
		}
		return d
	}
	if warm {
		run() // fills the compilation cache
	}
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !warm {
			os.RemoveAll(cache)
		}
		total += run()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "open-ms")
}

func firstLine(b []byte) []byte {
	for i, c := range b {
		if c == '\n' {
			return b[:i]
		}
	}
	return b
}

// BenchmarkOpenCold: first start on a machine, SQLite's Wasm compiled from scratch.
func BenchmarkOpenCold(b *testing.B) { benchOpen(b, false) }

// BenchmarkOpenWarm: every later start, machine code loaded from the cache.
func BenchmarkOpenWarm(b *testing.B) { benchOpen(b, true) }
