//go:build heavy

package mcpserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// hugeStream answers every request with a 100 MB event stream of 4 KiB
// deltas (or until the client goes away), as a hostile summary endpoint.
func hugeStream() *httptest.Server {
	piece := strings.Repeat("all work and no play ", 200)[:4096]
	frame := []byte(fmt.Sprintf("data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", piece))
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for sent := 0; sent < 100<<20; sent += len(piece) {
			if _, err := w.Write(frame); err != nil {
				return
			}
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
}

// modelEnv points a child recall at the fake endpoint.
func modelEnv(t *testing.T, url string) []string {
	return append(os.Environ(), "RECALL_LLM_BASE_URL="+url+"/v1", "RECALL_LLM_MODEL=fake",
		"RECALL_LLM_API_KEY=sk-x", "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "XDG_CONFIG_HOME="+t.TempDir())
}

// maxRSSMB is the child's peak RSS. The kernel's own figure (rusage)
// carries the parent's peak over an exec, and Go starts children with
// vfork: under a test process that has grown (other tests, the 100 MB
// stream it serves) it reports the test's RSS, not recall's. So the child
// runs under /usr/bin/time (see measureRSS), a small process whose figure
// is recall's own; without it rusage is the fallback.
func maxRSSMB(ps *os.ProcessState) float64 {
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if kb, err2 := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && err2 == nil {
			return kb / 1024
		}
	}
	return float64(ps.SysUsage().(*syscall.Rusage).Maxrss) / 1024
}

// measureRSS makes the next recall children run under /usr/bin/time.
func measureRSS(t *testing.T) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return
	}
	rssFile = filepath.Join(t.TempDir(), "maxrss")
	t.Cleanup(func() { rssFile = "" })
}

// TestSummaryStreamRSS: a 100 MB streamed summary (max_tokens 10,000
// asked) keeps `recall search` and `recall mcp` flat: the client reads at
// most 160 KB of it. The old client held all of it (1.6 GB in search,
// 2.7 GB in mcp).
func TestSummaryStreamRSS(t *testing.T) {
	measureRSS(t)
	fx := writeFixture(t)
	ts := hugeStream()
	defer ts.Close()
	const limitMB = 200.0

	cmd := recallCommand(t, "search", "--db", fx.path, "overlay network")
	cmd.Env = modelEnv(t, ts.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("recall search: %v\n%.2000s", err, out)
	}
	search := maxRSSMB(cmd.ProcessState)
	t.Logf("recall search under a 100 MB summary stream: max RSS %.0f MB, output %d bytes", search, len(out))
	if search > limitMB {
		t.Errorf("recall search peaked at %.0f MB RSS", search)
	}

	p := startMCPEnv(t, modelEnv(t, ts.URL), "--db", fx.path)
	a := p.call(t, map[string]any{"query": "overlay network", "summarize": true})
	if a.isError {
		t.Errorf("summarized call: %.500s", a.text)
	}
	p.closeAndWait(t)
	mcp := maxRSSMB(p.cmd.ProcessState)
	t.Logf("recall mcp under a 100 MB summary stream: max RSS %.0f MB, answer %d chars", mcp, len(a.text))
	if mcp > limitMB {
		t.Errorf("recall mcp peaked at %.0f MB RSS", mcp)
	}
}

// TestStdioPipelinedRSS: 10,000 tools/call written without waiting for
// any answer meet back-pressure (16 in flight), so the server's memory
// stays flat; every one is answered. The old server queued them all
// (4.3 GB).
func TestStdioPipelinedRSS(t *testing.T) {
	measureRSS(t)
	fx := writeFixture(t)
	p := startRaw(t, fx.path)
	calls := 10000
	if s := os.Getenv("RECALL_PIPELINED_CALLS"); s != "" {
		calls, _ = strconv.Atoi(s)
	}
	go func() {
		for _, f := range initFrames("2025-06-18") {
			io.WriteString(p.stdin, f+"\n")
		}
		for id := 2; id < 2+calls; id++ {
			// A cheap call (scroll, a window of one): the queue, not the search, is under test.
			frame := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"session_search","arguments":{"session_id":"r1","around_message_id":%d,"window":1}}}`, id, fx.ids["r1-20"])
			if _, err := io.WriteString(p.stdin, frame+"\n"); err != nil {
				return
			}
		}
		p.stdin.Close()
	}()
	answered := 0
	for line := range p.lines {
		if strings.Contains(line, `"result"`) {
			answered++
		}
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("recall mcp: %v; stderr: %.2000s", err, p.stderr.String())
	}
	rss := maxRSSMB(p.cmd.ProcessState)
	t.Logf("%d pipelined calls: %d answered, max RSS %.0f MB", calls, answered, rss)
	if answered != calls+1 {
		t.Errorf("answered %d of %d", answered, calls+1)
	}
	// 50-90 MB; queued without bound it was 4.3 GB.
	if rss > 150 {
		t.Errorf("max RSS %.0f MB", rss)
	}
}
