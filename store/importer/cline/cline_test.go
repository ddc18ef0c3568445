package cline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// data is a fixture's ~/.cline/data, written by Cline itself
// (testdata/agents/<agent>/drive.sh).
func data(t *testing.T, agent string) string {
	return filepath.Join(importtest.AgentHome(t, agent), ".cline", "data")
}

const (
	sessQA    = "1796467193989_q3gjm"
	sessTools = "1796467227435_sd2dw"
	sessZH    = "1796467259857_ph78j"
	sessAgent = "1796467325630_anpw3"
	child     = sessAgent + "__agent_1796467331177_rogo6u"
	cwd       = "/tmp/recall-drive-cline/home/demo"
)

// TestCline3 imports what Cline CLI 3.0.65 wrote.
func TestCline3(t *testing.T) {
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, data(t, "cline"))
	if rep.Files != 5 || rep.Sessions != 5 || rep.Messages != 20 || rep.Malformed != 0 || rep.Skipped != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := importtest.Dump(t, st)
	importtest.CheckSessions(t, d, map[string]importtest.Want{
		sessQA:    {Msgs: 2, In: 5458, Out: 80, Title: "Reverse a string in Go, as markdown with a code block"},
		sessTools: {Msgs: 6, In: 16652, Out: 68, Title: "List the files here, then read missing.txt"},
		sessZH:    {Msgs: 4, In: 10932, Out: 29, Title: "用中文解释 Go 的并发"},
		sessAgent: {Msgs: 4, In: 11028, Out: 52, Title: "Delegate counting the words of hello.txt to a sub-agent"},
		child:     {Msgs: 4, In: 4572, Out: 26, Title: "Count the words in hello.txt with wc -w and report the number."},
	}, cwd, "fake-model", SourceName)
	// The <user_input> wrapper is Cline's; the text inside is the person's.
	if m := d[sessQA].Msgs; m[0].Content != "Reverse a string in Go, as markdown with a code block" || m[0].Kind != "" ||
		m[1].Reasoning != "The user wants a short Go function; runes keep it UTF-8 safe." || !strings.Contains(m[1].Content, "```go\nfunc Reverse") {
		t.Errorf("Q&A: %v", m)
	}
	importtest.SameMsgs(t, "tools", d[sessTools].Msgs, []importtest.Msg{
		{Role: "user", Content: "List the files here, then read missing.txt"},
		{Role: "assistant", Content: "I will list the folder.", Tokens: 24, ToolCalls: importtest.Calls("call_a7830e4ce78d4a74aa4df8fc", "run_commands", `{"commands":["ls -1"]}`)},
		{Role: "tool", Content: "hello.txt", ToolCallID: "call_a7830e4ce78d4a74aa4df8fc", ToolName: "run_commands"},
		{Role: "assistant", Tokens: 26, ToolCalls: importtest.Calls("call_59be950321544903a2f1d7f1", "read_files", `{"files":[{"path":"/tmp/recall-drive-cline/home/demo/missing.txt"}]}`)},
		{Role: "tool", Content: "Error reading file: ENOENT: no such file or directory, statx '/tmp/recall-drive-cline/home/demo/missing.txt'",
			ToolCallID: "call_59be950321544903a2f1d7f1", ToolName: "read_files", Finish: "error"},
		{Role: "assistant", Content: "The folder holds `hello.txt`; `missing.txt` does not exist.", Tokens: 18},
	})
	if zh := d[sessZH].Msgs; zh[2].Content != "再举一个例子" || zh[2].Kind != "" || !strings.HasPrefix(zh[3].Content, "另一个例子") {
		t.Errorf("resumed: %v", zh)
	}
	c := d[child]
	if c.ParentID != sessAgent || c.ModelConfig != `{"_delegate_from":"`+sessAgent+`"}` || c.Msgs[0].Kind != store.DisplayKindAgent {
		t.Errorf("child %+v %v", c.Session, c.Msgs)
	}
	if rep := importtest.Run(t, st, &Source{}, data(t, "cline")); rep.Unchanged != 5 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestRewritten: Cline rewrites the whole file; a rewrite with one more
// turn re-imports it without doubling, and a file caught half written is
// reported and left for the next run.
func TestRewritten(t *testing.T) {
	dir := importtest.CopyTree(t, data(t, "cline"))
	file := filepath.Join(dir, "sessions", sessZH, sessZH+".messages.json")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	importtest.Write(t, file, string(full[:len(full)/2]))
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, file)
	if rep.Failed != 1 || !strings.Contains(importtest.Problems(rep), "invalid JSON") {
		t.Fatalf("half written: %+v", rep)
	}
	importtest.Write(t, file, string(full))
	importtest.Run(t, st, &Source{}, file)
	importtest.Touch(t, file)
	importtest.Run(t, st, &Source{}, file)
	if n := len(importtest.Dump(t, st)[sessZH].Msgs); n != 4 {
		t.Errorf("%d messages after rewrites, want 4", n)
	}
}

// TestTasks imports the task format Cline CLI 2.18.0 wrote: XML tool calls
// in the replies, tool results as "[tool] Result:" text, the task in <task>.
func TestTasks(t *testing.T) {
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, data(t, "cline-tasks"))
	if rep.Files != 3 || rep.Sessions != 3 || rep.Messages != 15 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := importtest.Dump(t, st)
	const tools = "1796468301223"
	s := d[tools]
	if s.Title != "List the files here, then read missing.txt" || s.Cwd != "/tmp/recall-drive-cline-tasks/home/demo" || s.Model != "fake-model" ||
		s.InputTokens != 25115 || len(s.Msgs) != 9 {
		t.Fatalf("session %+v, %d messages", s.Session, len(s.Msgs))
	}
	m := s.Msgs
	if m[0].Content != "List the files here, then read missing.txt" || m[0].Kind != "" || m[1].Kind != store.DisplayKindAgent ||
		!strings.Contains(m[1].Content, "<environment_details>") {
		t.Errorf("task/agent text: %s | %.80s", m[0], m[1])
	}
	call := "xml:" + tools + ":2:0"
	if m[2].Content != "I will list the folder." || m[2].ToolCalls != importtest.Calls(call, "execute_command", `{"command":"ls -1","requires_approval":"false"}`) {
		t.Errorf("xml call: %s", m[2])
	}
	if m[3].Role != "tool" || m[3].ToolCallID != call || m[3].ToolName != "execute_command" || m[3].Content != "Command executed successfully (exit code 0).\nOutput:\nhello.txt" {
		t.Errorf("xml result: %s", m[3])
	}
	if m[6].ToolName != "read_file" || m[6].Finish != "error" {
		t.Errorf("failing tool: %s", m[6])
	}
	// The final answers are only in ui_messages.json (Cline writes a reply
	// to the history when the next turn starts).
	if last := m[8]; last.Role != "assistant" || last.Content != "The folder holds `hello.txt`; `missing.txt` does not exist." {
		t.Errorf("final reply: %s", last)
	}
	if qa := d["1796468234966"].Msgs; len(qa) != 3 || qa[2].Reasoning != "The user wants a short Go function; runes keep it UTF-8 safe." || !strings.HasPrefix(qa[2].Content, "# Reverse a string") {
		t.Errorf("Q&A: %v", qa)
	}
	if zh := d["1796468378068"].Msgs; len(zh) != 3 || zh[0].Content != "用中文解释 Go 的并发" || !strings.HasPrefix(zh[2].Content, "**并发**") {
		t.Errorf("chinese: %v", zh)
	}
}

// TestExtensionTask: the VS Code extensions keep the same task folders in
// their globalStorage, with the task history in the editor's own database:
// the task is titled by its first prompt, and its workspace is the one its
// environment details name.
func TestExtensionTask(t *testing.T) {
	src := filepath.Join(data(t, "cline-tasks"), "tasks", "1796468378068")
	root := filepath.Join(t.TempDir(), "saoudrizwan.claude-dev")
	task := filepath.Join(root, "tasks", "1796468378068")
	if err := os.MkdirAll(task, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"api_conversation_history.json", "ui_messages.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(task, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := importtest.Open(t)
	if rep := importtest.Run(t, st, &Source{}, root); rep.Sessions != 1 || rep.Messages != 3 {
		t.Fatalf("report %+v", rep)
	}
	s := importtest.Dump(t, st)["1796468378068"]
	if s.Title != "用中文解释 Go 的并发" || s.Cwd != "/tmp/recall-drive-cline-tasks/home/demo" || s.Model != "" { // no task_metadata.json, and the only reply came from ui_messages.json
		t.Errorf("session %+v", s.Session)
	}
}
