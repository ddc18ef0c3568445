package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// BenchmarkStdio measures `recall mcp` as an agent sees it, over real
// stdio pipes against the built binary, on a corpus named by
// RECALL_BENCH_DB (a copy: the server may migrate it, never the shared file):
//
//	RECALL_BENCH_DB=/work/bench/mcp-1m.db go test ./ui/mcpserver -run '^$' -bench Stdio -benchtime 1x
//
// It prints a table: initialize (process start, store open, handshake)
// over several starts, then p50/p99 of tools/call discover for each query
// of the benchmark mix, with the default offline summaries and without
// summaries, and the same call in-process with and without summaries, each
// query's three kinds of call interleaved so they share the machine's load.
func BenchmarkStdio(b *testing.B) {
	db := os.Getenv("RECALL_BENCH_DB")
	if db == "" {
		b.Skip("RECALL_BENCH_DB is not set")
	}
	bin := recallBinary(b)
	ctx := context.Background()
	reps := 30
	if s := os.Getenv("RECALL_BENCH_REPS"); s != "" {
		fmt.Sscan(s, &reps)
	}
	for b.Loop() {
		var inits []time.Duration
		var cs *mcp.ClientSession
		var cmd *exec.Cmd
		for i := range 7 {
			if cs != nil {
				cs.Close()
				cmd.Wait()
			}
			cmd = exec.Command(bin, "mcp", "--db", db)
			cmd.Env = append(os.Environ(), "RECALL_LLM_BASE_URL=", "RECALL_LLM_MODEL=", "OPENAI_BASE_URL=", "OPENAI_API_KEY=")
			began := time.Now()
			var err error
			cs, err = mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				b.Fatal(err)
			}
			if i > 0 { // the first start may migrate the copy or fill the compile cache
				inits = append(inits, time.Since(began))
			}
		}
		fmt.Printf("\ninitialize (spawn + open + handshake), %d starts: p50 %s, max %s\n\n", len(inits), pct(inits, 50), pct(inits, 100))

		st, err := store.Open(ctx, db, store.Options{ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		tool := sessionsearch.New(st, sessionsearch.Options{})
		fmt.Println("| query (kind) | stdio p50 | stdio p99 | answer chars | in-process p50 | p99 | in-process, no summaries p50 | p99 |")
		fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
		var all, allBare []time.Duration
		for _, q := range synth.BenchQueries {
			var stdio, inproc, bare []time.Duration
			chars := 0
			for range reps {
				began := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"query": q.Query}})
				stdio = append(stdio, time.Since(began))
				if err != nil || res.IsError {
					b.Fatalf("%s: %v %v", q.Query, err, res)
				}
				chars = len([]rune(res.Content[0].(*mcp.TextContent).Text))
				began = time.Now()
				tool.Call(ctx, sessionsearch.Request{Query: q.Query, MaxChars: sessionsearch.DefaultMaxChars, Summary: sessionsearch.SummaryOffline})
				inproc = append(inproc, time.Since(began))
				began = time.Now()
				tool.Call(ctx, sessionsearch.Request{Query: q.Query, MaxChars: sessionsearch.DefaultMaxChars})
				bare = append(bare, time.Since(began))
			}
			all, allBare = append(all, stdio...), append(allBare, bare...)
			fmt.Printf("| `%s` (%s) | %s | %s | %d | %s | %s | %s | %s |\n", q.Query, q.Kind, pct(stdio, 50), pct(stdio, 99), chars,
				pct(inproc, 50), pct(inproc, 99), pct(bare, 50), pct(bare, 99))
		}
		fmt.Printf("\nall %d stdio discover calls (default: offline summaries, 12,000-character budget): p50 %s, p99 %s\n", len(all), pct(all, 50), pct(all, 99))
		fmt.Printf("the same queries in-process without summaries: p50 %s, p99 %s\n", pct(allBare, 50), pct(allBare, 99))
		b.ReportMetric(ms(pctD(all, 50)), "p50-ms")
		b.ReportMetric(ms(pctD(all, 99)), "p99-ms")
		b.ReportMetric(ms(pctD(inits, 50)), "init-ms")
		st.Close()
		cs.Close()
		cmd.Wait()
	}
}

func pctD(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := min(len(s)-1, (len(s)*p+99)/100-1)
	return s[max(i, 0)]
}

func pct(ds []time.Duration, p int) string { return fmt.Sprintf("%.1f ms", ms(pctD(ds, p))) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkHugeQuery: one session_search call whose query is a million
// characters (CJK, then ASCII), from its raw arguments to the fitted
// answer: the server's share of the "< 1 s for any text" promise (the
// transport's decoding of the 3 MB frame comes on top).
func BenchmarkHugeQuery(b *testing.B) {
	fx := writeFixture(b)
	st, err := store.Open(context.Background(), fx.path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h := &handler{tool: sessionsearch.New(st, sessionsearch.Options{}), maxChars: sessionsearch.DefaultMaxChars, log: slog.New(slog.DiscardHandler)}
	for name, q := range map[string]string{"cjk": strings.Repeat("数据库迁移", 200000), "ascii": strings.Repeat("network ", 125000)} {
		raw, _ := json.Marshal(map[string]any{"query": q})
		b.Run(name, func(b *testing.B) {
			for range b.N {
				res, _ := h.call(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: ToolName, Arguments: raw}})
				if n := len(res.Content[0].(*mcp.TextContent).Text); n > 4*sessionsearch.DefaultMaxChars {
					b.Fatalf("answer of %d bytes", n)
				}
			}
		})
	}
}
