package copilotchat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessAgent = "7c9e6679-7425-40de-944b-e07fc1f90ae7" // chatSessions/*.json, agent mode
	sessLog   = "1b4e28ba-2fa1-11d2-883f-0016d3cca427" // chatSessions/*.jsonl, the mutation log
	sessEmpty = "f47ac10b-58cc-4372-a567-0e02b2c3d479" // emptyWindowChatSessions, ask mode
)

func user(t *testing.T) string { return filepath.Join(it.Fixtures(t, "copilot-chat"), "User") }

// TestCopilotChat imports sessions laid out as VS Code and Copilot Chat
// write them (testdata/importers/copilot-chat/manifest.json).
func TestCopilotChat(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, user(t))
	if rep.Files != 3 || rep.Sessions != 3 || rep.Messages != 12 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	for id, w := range map[string]struct {
		title, cwd, model string
		in, out           int64
	}{
		sessAgent: {"Cart total drifts by a cent", "/home/dev/shop", "copilot/claude-sonnet-4.5", 18342, 611},
		sessLog:   {"幂等性", "/home/dev/shop", "copilot/gpt-5.1", 2600, 75},
		sessEmpty: {"How do I list Docker networks?", "", "copilot/gpt-4.1", 900, 25},
	} {
		s := d[id]
		if s.Source != SourceName || s.Title != w.title || s.Cwd != w.cwd || s.Model != w.model || s.InputTokens != w.in || s.OutputTokens != w.out {
			t.Errorf("%s: %+v", id, s.Session)
		}
	}
	// Agent mode: each tool-call round a reply (its thinking, its calls
	// with their arguments), each call's result from toolCallResults.
	it.SameMsgs(t, "agent", d[sessAgent].Msgs, []it.Msg{
		{Role: "user", Content: "Why does the cart total drift by a cent? #file:cart.ts"},
		{Role: "assistant", Content: "I'll run the cart tests first.", Reasoning: "The total sums floats; run the tests to see the drift.",
			ToolCalls: it.Calls("call_MHxRdW5fMQ__vscode-1793610846", "run_in_terminal", `{"command":"npx vitest run cart","explanation":"Run the cart tests","isBackground":false}`)},
		{Role: "tool", Content: "FAIL  cart.test.ts > total\nAssertionError: expected 10.3 to be 10.31\n\nCommand exited with code 1", ToolCallID: "call_MHxRdW5fMQ__vscode-1793610846", ToolName: "run_in_terminal"},
		{Role: "assistant", Content: "Prices are summed as floats. Summing integer cents fixes it:\n\n```ts\nconst total = items.reduce((s, i) => s + Math.round(i.price * 100) * i.qty, 0) / 100;\n```", Tokens: 611},
		{Role: "user", Content: "also round when displaying"},
		{Role: "assistant", Content: "Display with `(total).toFixed(2)`", Finish: "canceled"},
	})
	// The .jsonl replayed: a request pushed, its response and result set,
	// the title set last; thinking given as a list of pieces.
	it.SameMsgs(t, "log", d[sessLog].Msgs, []it.Msg{
		{Role: "user", Content: "用中文解释一下什么是幂等性"},
		{Role: "assistant", Content: "**幂等性**是指同一个操作执行一次和执行多次的效果相同。", Tokens: 40},
		{Role: "user", Content: "再举一个例子"},
		{Role: "assistant", Content: "例如 PUT 请求：重复发送同样的内容，结果不变。", Reasoning: "用户要一个例子；PUT 请求最直观。", Tokens: 35},
	})
	if m := d[sessEmpty].Msgs; m[1].Content != "Run `docker` `network ls`; `docker network inspect bridge` shows its containers." || m[1].Tokens != 25 {
		t.Errorf("ask mode %v", m)
	}
	if rep := it.Run(t, st, &Source{}, user(t)); rep.Unchanged != 3 {
		t.Errorf("second run %+v", rep)
	}
}

// TestLogGrows: VS Code appends to the log; the session is read again whole
// and nothing is doubled; a torn last line is left for the next run.
func TestLogGrows(t *testing.T) {
	dir := it.CopyTree(t, user(t))
	log := filepath.Join(dir, "workspaceStorage", "6f1d2c3b4a5e6f708192a3b4c5d6e7f8", "chatSessions", sessLog+".jsonl")
	st := it.Open(t)
	it.Run(t, st, &Source{}, dir)
	it.Append(t, log, `{"kind":2,"k":["requests"],"v":[{"requestId":"request_zh_0003","message":{"text":"谢谢","parts":[]},"variableData":{"variables":[]},"response":[{"value":"不客气。"}],"timestamp":1793614500000}]}`+"\n"+`{"kind":1,"k":["requests",2,"resp`)
	rep := it.Run(t, st, &Source{}, dir)
	if m := it.Dump(t, st)[sessLog].Msgs; rep.Malformed != 0 || len(m) != 6 || m[5].Content != "不客气。" {
		t.Errorf("grown %+v %v", rep, m)
	}
}

// TestDiscover: chat sessions of workspaces and empty windows only, the
// .jsonl of a session kept both ways.
func TestDiscover(t *testing.T) {
	dir := it.CopyTree(t, user(t))
	ws := filepath.Join(dir, "workspaceStorage", "6f1d2c3b4a5e6f708192a3b4c5d6e7f8")
	for _, f := range []string{"chatSessions/" + sessLog + ".json", "chatEditingSessions/x/state.json", "state.vscdb"} {
		os.MkdirAll(filepath.Dir(filepath.Join(ws, f)), 0o755)
		os.WriteFile(filepath.Join(ws, f), []byte("{}"), 0o644)
	}
	got, err := (&Source{}).Discover([]string{dir})
	if err != nil || len(got) != 3 {
		t.Fatalf("discover %q %v", got, err)
	}
	for _, f := range got {
		if strings.HasSuffix(f, sessLog+".json") {
			t.Errorf("the .json beside the .jsonl was kept: %q", got)
		}
	}
}
