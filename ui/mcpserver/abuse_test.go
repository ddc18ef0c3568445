package mcpserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// rawProc is `recall mcp` driven by hand over real pipes, for frames no
// well-behaved client would send.
type rawProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // stdout, line by line; closed at EOF
	stderr strings.Builder
}

func startRaw(t *testing.T, db string) *rawProc {
	t.Helper()
	p := &rawProc{cmd: recallCommand(t, "mcp", "--db", db), lines: make(chan string, 1<<16)}
	p.cmd.Env = append(os.Environ(), "RECALL_LLM_BASE_URL=", "RECALL_LLM_MODEL=", "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "XDG_CONFIG_HOME="+t.TempDir())
	p.cmd.Stderr = &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

func (p *rawProc) send(t *testing.T, frames ...string) {
	t.Helper()
	for _, f := range frames {
		if _, err := io.WriteString(p.stdin, f+"\n"); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
}

// reply is one frame the server wrote, by id.
type reply struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// await reads replies until one with every id in want (numbers, or
// strings) arrived; they are keyed by the id's text.
func (p *rawProc) await(t *testing.T, want ...any) map[string]reply {
	t.Helper()
	got := map[string]reply{}
	deadline := time.After(20 * time.Second)
	for len(got) < len(want) {
		select {
		case line, ok := <-p.lines:
			if !ok {
				t.Fatalf("stdout closed with replies %v of %v; stderr: %s", keys(got), want, p.stderr.String())
			}
			var r reply
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("stdout line is not one JSON-RPC message: %v: %.200s", err, line)
			}
			if r.ID != nil {
				got[fmt.Sprint(r.ID)] = r
			}
		case <-deadline:
			t.Fatalf("waited 20s; replies %v of %v; stderr: %s", keys(got), want, p.stderr.String())
		}
	}
	return got
}

func keys(m map[string]reply) []string {
	var k []string
	for id := range m {
		k = append(k, id)
	}
	return k
}

// exit closes stdin and waits for a clean exit.
func (p *rawProc) exit(t *testing.T) {
	t.Helper()
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("recall mcp exited with %v; stderr: %s", err, p.stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("recall mcp still running 20s after stdin closed")
	}
}

func initFrames(protocol string) []string {
	return []string{
		fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, protocol),
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
}

func callFrame(id int, query string) string {
	q, _ := json.Marshal(query)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"session_search","arguments":{"query":%s}}}`, id, q)
}

// A JSON-RPC batch is answered with an error per request and the server
// keeps serving, in every protocol version (the SDK exits on one from
// 2025-06-18 on, and with 2025-03-26 lost even the initialize reply).
func TestStdioBatchEveryProtocol(t *testing.T) {
	fx := writeFixture(t)
	for _, protocol := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		t.Run(protocol, func(t *testing.T) {
			p := startRaw(t, fx.path)
			p.send(t, initFrames(protocol)...)
			p.send(t, `[{"jsonrpc":"2.0","id":2,"method":"tools/list"},`+callFrame(3, "overlay")+`]`,
				`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`)
			got := p.await(t, 1, 2, 3, 4)
			if got["1"].Error != nil || got["4"].Error != nil {
				t.Errorf("initialize %+v, tools/list after the batch %+v", got["1"].Error, got["4"].Error)
			}
			for _, id := range []string{"2", "3"} {
				if got[id].Error == nil || !strings.Contains(got[id].Error.Message, "batch") {
					t.Errorf("batched request %s: %+v, want an error naming the batch", id, got[id])
				}
			}
			p.exit(t)
		})
	}
}

// A frame over 16 MiB or nested deeper than 10,000 levels gets an error
// reply when its id can be read (at the start or the end of the frame), and
// the server goes on.
func TestStdioHugeAndDeepFrames(t *testing.T) {
	fx := writeFixture(t)
	p := startRaw(t, fx.path)
	p.send(t, initFrames("2025-06-18")...)
	big := strings.Repeat("x", 17<<20)
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	p.send(t,
		callFrame(10, big),
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"session_search","arguments":{"query":"`+big+`"}},"id":"tail-11"}`,
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"session_search","arguments":{"query":`+deep+`}}}`,
		`{"jsonrpc":"2.0","id":13,"method":"tools/list"}`)
	got := p.await(t, 1, 10, "tail-11", 12, 13)
	for _, id := range []string{"10", "tail-11"} {
		if e := got[id].Error; e == nil || !strings.Contains(e.Message, "longer than") {
			t.Errorf("17 MiB frame %s: %+v", id, got[id])
		}
	}
	if e := got["12"].Error; e == nil || !strings.Contains(e.Message, "nested") {
		t.Errorf("10,001 levels: %+v", got["12"])
	}
	if got["13"].Error != nil {
		t.Errorf("tools/list after them: %+v", got["13"].Error)
	}
	p.exit(t)
}

// Closing stdin right after the last request: every request read is
// answered before the server exits (the SDK dropped the ones in flight).
func TestStdioCloseAnswersEverything(t *testing.T) {
	fx := writeFixture(t)
	for run := 0; run < 3; run++ {
		p := startRaw(t, fx.path)
		p.send(t, initFrames("2025-06-18")...)
		want := []any{1}
		for id := 2; id < 22; id++ {
			p.send(t, callFrame(id, "overlay network"))
			want = append(want, id)
		}
		p.send(t, `{"jsonrpc":"2.0","id":22,"method":"tools/list"}`)
		want = append(want, 22)
		p.stdin.Close()
		got := p.await(t, want...)
		for id, r := range got {
			if r.Error != nil {
				t.Errorf("run %d: request %s: %+v", run, id, r.Error)
			}
		}
		p.exit(t)
	}
}

// Hostile argument values: a query of a million characters (ASCII or CJK)
// is not echoed past max_chars; a session_id of a million characters is
// "not found", not an SQLite pattern error, and not echoed whole; limit is
// clamped for every out-of-range integer, however large, while a fraction
// is an error.
func TestHostileArguments(t *testing.T) {
	fx := writeFixture(t)
	cs := connect(t, fx, nil, 0)
	for name, q := range map[string]string{"ascii": strings.Repeat("network ", 125000), "cjk": strings.Repeat("数据库迁移", 200000)} {
		a := call(t, cs, map[string]any{"query": q, "max_chars": 4000})
		if n := utf8.RuneCountInString(a.text); a.isError || n > 4000 {
			t.Errorf("1M-character %s query: %d characters for max_chars 4000 (error %v)", name, n, a.isError)
		}
	}
	a := call(t, cs, map[string]any{"session_id": strings.Repeat("a", 1000000)})
	if msg, _ := a.v["error"].(string); !a.isError || !strings.Contains(msg, "session_id not found") || len(a.text) > 1000 {
		t.Errorf("1M-character session_id: %.300s (%d bytes)", a.text, len(a.text))
	}
	for _, tc := range []struct {
		limit any
		want  int
	}{{50, 10}, {1e17, 10}, {1e300, 10}, {"1e400", 10}, {-1e300, 1}, {"-1e400", 1}, {-5, 1}} {
		a := call(t, cs, map[string]any{"query": "kubernetes", "limit": tc.limit, "max_chars": 100000})
		if n := len(results(a)); a.isError || n != tc.want {
			t.Errorf("limit %v: %d results (%.200s), want %d", tc.limit, n, a.text, tc.want)
		}
	}
	if a := call(t, cs, map[string]any{"query": "kubernetes", "limit": 2.5}); !a.isError {
		t.Errorf("limit 2.5: %.200s, want an error", a.text)
	}
}
