package dsh

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

var update = flag.Bool("update", false, "rewrite the fixture's session logs from testdata/importers/dsh/src")

const (
	mainID = "session-5b7e2c1a-9d34-4f60-8a21-3c4d5e6f7a80"
	subID  = "session-6c8f3d2b-0e45-4a71-9b32-4d5e6f7a8b91"
	// projectKey("/home/dev/shop")
	project = "--home-dev-shop--"
)

// frames compresses a log as dsh appends it: one zstd frame per flush
// (here, per turn).
func frames(t *testing.T, log []byte) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var out []byte
	var chunk []byte
	for _, line := range bytes.SplitAfter(log, []byte("\n")) {
		chunk = append(chunk, line...)
		if bytes.Contains(line, []byte(`"type":"turn/end"`)) || len(line) == 0 {
			if len(chunk) > 0 {
				out = enc.EncodeAll(chunk, out)
			}
			chunk = nil
		}
	}
	if len(chunk) > 0 {
		out = enc.EncodeAll(chunk, out)
	}
	return out
}

// TestSeed: the fixture's session logs are src/*.jsonl as dsh writes them
// (the main session zstd-compressed, the sub-agent's plain).
func TestSeed(t *testing.T) {
	dir := it.Fixtures(t, "dsh")
	for _, f := range []struct{ src, dst string }{
		{"main.jsonl", filepath.Join("sessions", project, mainID, "session.jsonl.zstd")},
		{"subagent.jsonl", filepath.Join("sessions", project, subID, "session.jsonl")},
	} {
		src, err := os.ReadFile(filepath.Join(dir, "src", f.src))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f.dst)
		if *update {
			data := src
			if strings.HasSuffix(dst, ".zstd") {
				data = frames(t, src)
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := read(dst)
		if err != nil || !bytes.Equal(got, src) {
			t.Errorf("%s is not src/%s (%v): run go test ./store/importer/dsh -run TestSeed -update", f.dst, f.src, err)
		}
	}
}

// TestDSH imports a session and its sub-agent's (testdata/importers/dsh/manifest.json
// names each shape's source).
func TestDSH(t *testing.T) {
	home := it.CopyTree(t, it.Fixtures(t, "dsh"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, home) // a dsh home: its sessions folder is found
	if rep.Files != 2 || rep.Sessions != 2 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	m := d[mainID]
	if m.Source != SourceName || m.Title != "Cart total test failure" || m.Cwd != "/home/dev/shop" || m.Model != "deepseek-v4" ||
		m.InputTokens != 6150 || m.OutputTokens != 192 || m.CacheReadTokens != 5248 || m.ReasoningTokens != 12 || m.ParentID != "" {
		t.Errorf("main: %+v", m.Session)
	}
	if m.StartedAt.UTC().Format("15:04:05") != "14:02:11" || m.EndedAt.UTC().Format("15:04:05") != "14:03:47" {
		t.Errorf("times %v .. %v", m.StartedAt, m.EndedAt)
	}
	it.SameMsgs(t, mainID, m.Msgs, []it.Msg{
		{Role: "user", Content: "Why does the cart total test fail?"},
		{Role: "assistant", Content: "Let me run the tests.", Reasoning: "Run the failing test first.",
			ToolCalls: it.Calls("call_01", "bash", `{"command":"go test ./cart/..."}`), Tokens: 62},
		{Role: "tool", Content: "--- FAIL: TestTotal (0.00s)\n    cart_test.go:18: got 10.29, want 10.30\nFAIL", ToolCallID: "call_01", ToolName: "bash", Finish: "error"},
		{Role: "assistant", Content: "Total sums float64 prices without rounding; the test expects cents.", Tokens: 40},
		{Role: "user", Content: "Fix it, and ask a sub-agent to list other money sums\n[image]"},
		{Role: "user", Content: "<system-reminder>AGENTS.md changed on disk.</system-reminder>", Kind: store.DisplayKindAgent},
		{Role: "assistant", ToolCalls: `[{"id":"call_02","type":"function","function":{"name":"edit","arguments":"{\"path\":\"cart/total.go\",\"old\":\"return t\",\"new\":\"return math.Round(t*100) / 100\"}"}},{"id":"call_03","type":"function","function":{"name":"task","arguments":"{\"prompt\":\"List every place the code sums money\"}"}}]`, Tokens: 90},
		{Role: "tool", Content: "Edited cart/total.go", ToolCallID: "call_02", ToolName: "edit"},
		{Role: "tool", Content: "cart/total.go:3 and invoice/sum.go:12 sum float64 money.", ToolCallID: "call_03", ToolName: "task"},
		{Role: "assistant", Content: "Rounded Total to cents; invoice/sum.go has the same", Finish: "canceled"},
		{Role: "user", Content: "Summary: the cart test failed on unrounded float sums; Total now rounds to cents.", Kind: store.DisplayKindCompaction},
		{Role: "user", Content: "run the whole suite"},
		{Role: "assistant", Content: "error: 429 rate limited", Finish: "error"},
	})
	s := d[subID]
	if s.ParentID != mainID || s.ModelConfig != `{"_delegate_from":"`+mainID+`"}` || s.Title != "List every place the code sums money" || s.InputTokens != 900 {
		t.Errorf("sub-agent: %+v", s.Session)
	}
	it.SameMsgs(t, subID, s.Msgs, []it.Msg{
		{Role: "user", Content: "List every place the code sums money", Kind: store.DisplayKindAgent},
		{Role: "assistant", Content: "cart/total.go:3 and invoice/sum.go:12 sum float64 money.", Tokens: 30},
	})

	// Nothing changed: nothing read again.
	if rep := it.Run(t, st, &Source{}, home); rep.Sessions != 0 || rep.Unchanged != 2 {
		t.Errorf("second run %+v", rep)
	}
}

// TestTornFrame: a last frame dsh was still writing is left for the next
// run; the whole frames before it are read.
func TestTornFrame(t *testing.T) {
	home := it.CopyTree(t, it.Fixtures(t, "dsh"))
	log := filepath.Join(home, "sessions", project, mainID, "session.jsonl.zstd")
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, raw[:len(raw)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, log)
	if rep.Sessions != 1 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	if n := len(it.Dump(t, st)[mainID].Msgs); n == 0 || n >= 13 {
		t.Errorf("%d messages from the whole frames", n)
	}
	if err := os.WriteFile(log, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	it.Run(t, st, &Source{}, log)
	if n := len(it.Dump(t, st)[mainID].Msgs); n != 13 {
		t.Errorf("%d messages once the frame is whole", n)
	}
}
