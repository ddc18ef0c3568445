package mcpserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recall-dev/recall/migrations"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// recallBinary builds the recall binary once per test run.
func recallBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "recall-mcp-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "recall")
		out, err := exec.Command("go", "build", "-o", binPath, "../..").CombinedOutput()
		if err != nil {
			binErr = &buildError{err: err, out: string(out)}
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v", binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// proc is a `recall mcp` child process and an SDK client talking to it
// over its real stdin and stdout pipes. Every byte of its stdout is also
// kept, to check that only protocol frames were written.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer // a copy of everything the server wrote
	stderr bytes.Buffer
	mu     sync.Mutex // guards stdout
	cs     *mcp.ClientSession
	initMs float64
}

func startMCP(t *testing.T, args ...string) *proc {
	t.Helper()
	return startMCPEnv(t, append(os.Environ(), "RECALL_LLM_BASE_URL=", "RECALL_LLM_MODEL=", "OPENAI_BASE_URL=", "OPENAI_API_KEY=", "XDG_CONFIG_HOME="+t.TempDir()), args...)
}

// startMCPEnv is startMCP with the child's whole environment given.
// rssFile, while set (the heavy tests' measureRSS), is where /usr/bin/time
// writes the peak RSS of the recall children started by recallCommand.
var rssFile string

// recallCommand runs the built recall with args (under /usr/bin/time when
// a test measures its memory).
func recallCommand(t *testing.T, args ...string) *exec.Cmd {
	if rssFile != "" {
		return exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, recallBinary(t)}, args...)...)
	}
	return exec.Command(recallBinary(t), args...)
}

func startMCPEnv(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: recallCommand(t, append([]string{"mcp"}, args...)...)}
	p.cmd.Env = env
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	tee := io.TeeReader(out, writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.stdout.Write(b)
	}))
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	began := time.Now()
	p.cs, err = client.Connect(t.Context(), &mcp.IOTransport{Reader: io.NopCloser(tee), Writer: p.stdin}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\nstderr: %s", err, p.stderr.String())
	}
	p.initMs = float64(time.Since(began).Microseconds()) / 1000
	return p
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func (p *proc) call(t *testing.T, args map[string]any) answer {
	t.Helper()
	res, err := p.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
	if err != nil {
		t.Fatalf("call %v: %v\nstderr: %s", args, err, p.stderr.String())
	}
	return decodeResult(t, res)
}

// frames returns every line the server wrote, each checked to be one JSON-RPC message.
func (p *proc) frames(t *testing.T) []map[string]any {
	t.Helper()
	p.mu.Lock()
	out := p.stdout.String()
	p.mu.Unlock()
	var frames []map[string]any
	for line := range strings.Lines(out) {
		if _, err := jsonrpc.DecodeMessage([]byte(line)); err != nil {
			t.Errorf("stdout holds something other than a JSON-RPC frame: %v: %.200q", err, line)
			continue
		}
		var f map[string]any
		json.Unmarshal([]byte(line), &f)
		frames = append(frames, f)
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		t.Errorf("stdout ends mid-line: %.200q", out[max(0, len(out)-200):])
	}
	return frames
}

// closeAndWait closes the client (and so the child's stdin) and waits for the child to exit.
func (p *proc) closeAndWait(t *testing.T) {
	t.Helper()
	p.cs.Close()
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("recall mcp exited with %v after stdin closed; stderr: %s", err, p.stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("recall mcp still running 10s after its stdin closed")
	}
}

// TestStdio drives the real binary over real pipes: initialize, tools/list,
// each calling shape, a malformed frame (answered, then more calls still
// work), stdout holding only protocol frames, and exit when stdin closes.
func TestStdio(t *testing.T) {
	fx := writeFixture(t)
	p := startMCP(t, "--db", fx.path)
	t.Logf("initialize (process start, store open, handshake): %.1f ms", p.initMs)
	if info := p.cs.InitializeResult(); info.ServerInfo.Name != "recall" {
		t.Errorf("server info %+v", info.ServerInfo)
	}
	tools, err := p.cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != ToolName {
		t.Fatalf("tools/list: %v %v", tools, err)
	}

	d := p.call(t, map[string]any{"query": "overlay network"})
	if d.v["mode"] != "discover" || len(results(d)) == 0 {
		t.Errorf("discover: %s", d.text)
	}
	if b := p.call(t, map[string]any{}); b.v["mode"] != "browse" || len(results(b)) != 3 {
		t.Errorf("browse: %s", b.text)
	}
	if s := p.call(t, map[string]any{"session_id": "r1", "around_message_id": fx.ids["r1-20"]}); s.v["mode"] != "scroll" || len(msgIDs(s.v["messages"])) != 11 {
		t.Errorf("scroll: %s", s.text)
	}
	if r := p.call(t, map[string]any{"session_id": "r1"}); r.v["mode"] != "read" || len(msgIDs(r.v["messages"])) != 30 {
		t.Errorf("read: %s", r.text)
	}
	if e := p.call(t, map[string]any{"session_id": "nope"}); !e.isError {
		t.Errorf("unknown session: %s", e.text)
	}

	// Malformed frames, written straight to the pipe between calls.
	for _, bad := range []string{"this is not json", `{"jsonrpc":"2.0","id":77,"method":5}`, `[]`, `{"id":78,"method":"tools/list"}`} {
		if _, err := io.WriteString(p.stdin, bad+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	if again := p.call(t, map[string]any{"query": "kubernetes"}); again.isError || len(results(again)) == 0 {
		t.Errorf("after malformed frames: %s", again.text)
	}
	// Replies go to the frames that carry an id; the rest are logged only.
	var invalid []any
	for _, f := range p.frames(t) {
		if e, ok := f["error"].(map[string]any); ok && e["code"] == float64(jsonrpc.CodeInvalidRequest) {
			invalid = append(invalid, f["id"])
		}
	}
	if len(invalid) != 2 || invalid[0] != float64(77) || invalid[1] != float64(78) {
		t.Errorf("invalid request replies (ids) %v, want [77 78]", invalid)
	}
	p.closeAndWait(t)
	if s := p.stderr.String(); strings.Count(s, "dropped") != 4 || strings.Contains(s, "panic") {
		t.Errorf("stderr: %s", s)
	}
}

// TestStdioHermesReadOnly: a database Hermes wrote is served in place and
// not a byte of it (or its directory) changes.
func TestStdioHermesReadOnly(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("native sqlite3 shell not installed")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	var ddl strings.Builder
	names, err := fs.Glob(migrations.FS, "00*.sql")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	for _, n := range names[:10] { // Hermes v1..v10, as Hermes itself ran them
		b, _ := fs.ReadFile(migrations.FS, n)
		ddl.Write(b)
		ddl.WriteString("\n")
	}
	ddl.WriteString(`INSERT INTO sessions(id, source, model, started_at, message_count) VALUES ('h1', 'cli', 'claude', 1777636800.0, 2);
INSERT INTO messages(session_id, role, content, timestamp) VALUES ('h1', 'user', 'restart the docker container', 1777636810.0),
 ('h1', 'assistant', 'docker compose restart api', 1777636820.0);
INSERT INTO schema_version VALUES (10);
`)
	cmd := exec.Command("sqlite3", "-batch", "-bail", db)
	cmd.Stdin = strings.NewReader(ddl.String())
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("sqlite3: %v %s", err, out)
	}
	before, beforeNames := sum(t, db), dirList(t, dir)

	p := startMCP(t, "--db", db)
	d := p.call(t, map[string]any{"query": "docker"})
	if rs := results(d); len(rs) != 1 || rs[0]["session_id"] != "h1" {
		t.Errorf("discover on a Hermes file: %s", d.text)
	}
	if r := p.call(t, map[string]any{"session_id": "h1"}); r.isError || len(msgIDs(r.v["messages"])) != 2 {
		t.Errorf("read on a Hermes file: %s", r.text)
	}
	p.closeAndWait(t)
	if after := sum(t, db); after != before {
		t.Error("the Hermes database changed")
	}
	if after := dirList(t, dir); strings.Join(after, " ") != strings.Join(beforeNames, " ") {
		t.Errorf("files beside the database: %v, before %v", after, beforeNames)
	}
}

func sum(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func dirList(t *testing.T, dir string) []string {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

// TestStdioStartupErrors: a database that does not exist is one line on
// stderr and exit 1 before any protocol; stdout stays empty.
func TestStdioStartupErrors(t *testing.T) {
	cmd := exec.Command(recallBinary(t), "mcp", "--db", filepath.Join(t.TempDir(), "none.db"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "no such database") {
		t.Errorf("exit %v, stdout %q, stderr %q", err, out.String(), errb.String())
	}
}
