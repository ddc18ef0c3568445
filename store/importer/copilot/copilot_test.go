package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// home is the HOME the fixtures were written in: files Copilot CLI 1.0.102
// wrote itself (testdata/agents/copilot-cli/drive.sh).
func home(t *testing.T) string {
	return importtest.AgentHome(t, "copilot-cli")
}

const (
	sessQA    = "11111111-1111-4111-8111-111111111111"
	sessTools = "22222222-2222-4222-8222-222222222222"
	sessZH    = "33333333-3333-4333-8333-333333333333"
	sessAgent = "44444444-4444-4444-8444-444444444444"
	child     = sessAgent + "-agent-1e0ffe6a-826f-4be2-90c6-c0a2a3863201"
	cwd       = "/tmp/recall-drive-copilot-cli/home/demo"
)

// TestFixtures imports what Copilot CLI wrote and checks every session.
func TestFixtures(t *testing.T) {
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".copilot"))
	if rep.Files != 4 || rep.Sessions != 5 || rep.Messages != 20 || rep.Malformed != 0 || rep.Skipped != 32 {
		t.Fatalf("report = %+v", rep)
	}
	d := importtest.Dump(t, st)
	importtest.CheckSessions(t, d, map[string]importtest.Want{
		sessQA:    {Msgs: 2, In: 12007, Out: 80, Title: "Reverse a string in Go, as markdown with a code block"},
		sessTools: {Msgs: 6, In: 36300, Out: 69, Title: "List the files here, then read missing.txt"},
		sessZH:    {Msgs: 4, In: 24061, Out: 29, Title: "用中文解释 Go 的并发"},
		sessAgent: {Msgs: 4, In: 24125, Out: 60, Title: "Delegate counting the words of hello.txt to a sub-agent"},
		child:     {Msgs: 4, In: 23338, Out: 31, Title: "Count words"},
	}, cwd, "fake-model", SourceName)
	if a := d[sessQA].Msgs[1]; a.Reasoning != "The user wants a short Go function; runes keep it UTF-8 safe." || !strings.Contains(a.Content, "```go\nfunc Reverse") {
		t.Errorf("reasoning/markdown: %s", a)
	}
	importtest.SameMsgs(t, "tools", d[sessTools].Msgs, []importtest.Msg{
		{Role: "user", Content: "List the files here, then read missing.txt"},
		{Role: "assistant", Content: "I will list the folder.",
			ToolCalls: importtest.Calls("call_509eb1e6feed45e5899a519b", "bash", `{"command":"ls -1","description":"List files"}`)},
		{Role: "tool", Content: "hello.txt\n<shellId: 0 completed with exit code 0>", ToolCallID: "call_509eb1e6feed45e5899a519b", ToolName: "bash"},
		{Role: "assistant", ToolCalls: importtest.Calls("call_bac4a064c65c4d5e87ccf159", "view", `{"path":"/tmp/recall-drive-copilot-cli/home/demo/missing.txt"}`)},
		{Role: "tool", Content: "Path does not exist", ToolCallID: "call_bac4a064c65c4d5e87ccf159", ToolName: "view", Finish: "error"},
		{Role: "assistant", Content: "The folder holds `hello.txt`; `missing.txt` does not exist."},
	})
	if zh := d[sessZH].Msgs; zh[2].Content != "再举一个例子" || !strings.HasPrefix(zh[3].Content, "另一个例子") {
		t.Errorf("resumed: %v", zh)
	}
	c := d[child]
	if c.ParentID != sessAgent || c.ModelConfig != `{"_delegate_from":"`+sessAgent+`"}` {
		t.Errorf("child %+v", c.Session)
	}
	importtest.SameMsgs(t, "child", c.Msgs, []importtest.Msg{
		{Role: "user", Content: "Count the words in hello.txt with wc -w and report the number.", Kind: store.DisplayKindAgent},
		{Role: "assistant", ToolCalls: importtest.Calls("call_083bce77e5cd42c4ba428660", "bash", `{"command":"wc -w hello.txt","description":"Count words"}`)},
		{Role: "tool", Content: "2 hello.txt\n<shellId: 0 completed with exit code 0>", ToolCallID: "call_083bce77e5cd42c4ba428660", ToolName: "bash"},
		{Role: "assistant", Content: "hello.txt has 2 words."},
	})
	if m := d[sessAgent].Msgs[2]; m.Role != "tool" || m.ToolName != "task" || m.Content != "hello.txt has 2 words." {
		t.Errorf("task result %s", m)
	}
	if rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".copilot")); rep.Unchanged != 4 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestIncremental: the sub-agent's events arrive after the parent's first
// import; the tool name of a call started before the cut is kept across it.
func TestIncremental(t *testing.T) {
	dir := importtest.CopyTree(t, filepath.Join(home(t), ".copilot"))
	file := filepath.Join(dir, "session-state", sessAgent, "events.jsonl")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	cut := 0
	for i, l := range lines {
		if strings.Contains(l, `"type":"tool.execution_start"`) {
			cut = i + 1 // just after the task call started
			break
		}
	}
	importtest.Write(t, file, strings.Join(lines[:cut], ""))
	st := importtest.Open(t)
	importtest.Run(t, st, &Source{}, file)
	if d := importtest.Dump(t, st); len(d[sessAgent].Msgs) != 2 || len(d) != 1 {
		t.Fatalf("half: %v", importtest.IDs(d))
	}
	importtest.Write(t, file, string(full))
	rep := importtest.Run(t, st, &Source{}, file)
	d := importtest.Dump(t, st)
	if rep.Messages != 6 || len(d[sessAgent].Msgs) != 4 || len(d[child].Msgs) != 4 || d[sessAgent].InputTokens != 24125 {
		t.Errorf("grown: %+v, sessions %v", rep, importtest.IDs(d))
	}
	if m := d[sessAgent].Msgs[2]; m.ToolName != "task" {
		t.Errorf("tool name lost across imports: %s", m)
	}
}

func TestWorkspace(t *testing.T) {
	p := filepath.Join(t.TempDir(), "workspace.yaml")
	if err := os.WriteFile(p, []byte("id: abc\ncwd: /x y\nname: \"quoted: \\\"name\\\"\"\nnested:\n  name: no\nbranch: 'it''s'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ws := readWorkspace(p); ws != (workspace{ID: "abc", Cwd: "/x y", Name: `quoted: "name"`, Branch: "it's"}) {
		t.Errorf("%+v", ws)
	}
}
