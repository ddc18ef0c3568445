package qwen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// home is the HOME the fixtures were written in: files Qwen Code 0.24.4
// wrote itself (testdata/agents/qwen-code/drive.sh).
func home(t *testing.T) string {
	return importtest.AgentHome(t, "qwen-code")
}

const (
	sessQA    = "11111111-1111-4111-8111-111111111111"
	sessTools = "22222222-2222-4222-8222-222222222222"
	sessZH    = "33333333-3333-4333-8333-333333333333"
	sessAgent = "44444444-4444-4444-8444-444444444444"
	child     = sessAgent + "-agent-general-purpose-call_b4fb0b1f66494e63ba6d5678"
	cwd       = "/tmp/recall-drive-qwen-code/home/demo"
)

// TestFixtures imports what Qwen Code wrote and checks every session.
func TestFixtures(t *testing.T) {
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".qwen"))
	if rep.Files != 5 || rep.Sessions != 5 || rep.Messages != 22 || rep.Malformed != 0 || rep.Skipped != 23 {
		t.Fatalf("report = %+v", rep)
	}
	d := importtest.Dump(t, st)
	counts := map[string]int{sessQA: 2, sessTools: 6, sessZH: 4, sessAgent: 6, child: 4}
	for id, n := range counts {
		if got := len(d[id].Msgs); got != n {
			t.Errorf("%s: %d messages, want %d", id, got, n)
		}
		if d[id].Cwd != cwd || d[id].Model != "fake-model" || d[id].Source != SourceName {
			t.Errorf("%s: cwd %q model %q source %q", id, d[id].Cwd, d[id].Model, d[id].Source)
		}
	}
	if len(d) != len(counts) {
		t.Errorf("sessions %v", importtest.IDs(d))
	}

	qa := d[sessQA]
	if qa.InputTokens != 19014 || qa.OutputTokens != 90 || qa.ReasoningTokens != 16 {
		t.Errorf("tokens %+v", qa.Session)
	}
	if a := qa.Msgs[1]; a.Reasoning != "The user wants a short Go function; runes keep it UTF-8 safe." || !strings.Contains(a.Content, "```go\nfunc Reverse") {
		t.Errorf("thinking/markdown: %s", a)
	}

	importtest.SameMsgs(t, "tools", d[sessTools].Msgs, []importtest.Msg{
		{Role: "user", Content: "List the files here, then read missing.txt"},
		{Role: "assistant", Content: "I will list the folder.", Tokens: 38,
			ToolCalls: importtest.Calls("call_1ba1c46c8a8f4a99bea94153", "run_shell_command", `{"command":"ls -1","description":"List files","is_background":false}`)},
		{Role: "tool", Content: "Command: ls -1\nDirectory: (root)\nOutput: hello.txt\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)",
			ToolCallID: "call_1ba1c46c8a8f4a99bea94153", ToolName: "run_shell_command"},
		{Role: "assistant", Tokens: 25,
			ToolCalls: importtest.Calls("call_e057c510bd2344749ddb9d99", "read_file", `{"file_path":"/tmp/recall-drive-qwen-code/home/demo/missing.txt"}`)},
		{Role: "tool", Content: "File not found: /tmp/recall-drive-qwen-code/home/demo/missing.txt",
			ToolCallID: "call_e057c510bd2344749ddb9d99", ToolName: "read_file", Finish: "error"},
		{Role: "assistant", Content: "The folder holds `hello.txt`; `missing.txt` does not exist.", Tokens: 18},
	})

	// The resumed session goes on in the same file.
	zh := d[sessZH].Msgs
	if zh[0].Content != "用中文解释 Go 的并发" || zh[2].Content != "再举一个例子" || !strings.HasPrefix(zh[3].Content, "另一个例子") {
		t.Errorf("chinese/resume: %v", zh)
	}

	// The notification of the finished background agent is Qwen's text, not the person's.
	if m := d[sessAgent].Msgs[4]; m.Role != "user" || m.Kind != store.DisplayKindAgent || !strings.Contains(m.Content, "<result>hello.txt has 2 words.</result>") {
		t.Errorf("notification: %s", m)
	}
	c := d[child]
	if c.ParentID != sessAgent || c.Title != "Count words" || c.ModelConfig != `{"_delegate_from":"`+sessAgent+`"}` {
		t.Errorf("child %+v", c.Session)
	}
	importtest.SameMsgs(t, "child", c.Msgs, []importtest.Msg{
		{Role: "user", Content: "Count the words in hello.txt with wc -w and report the number.", Kind: store.DisplayKindAgent},
		{Role: "assistant", ToolCalls: importtest.Calls("call_bd0103ec9cb24ab5b3577882", "run_shell_command", `{"command":"wc -w hello.txt","description":"Count words","is_background":false}`)},
		{Role: "tool", Content: "Command: wc -w hello.txt\nDirectory: (root)\nOutput: 2 hello.txt\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: (none)",
			ToolCallID: "call_bd0103ec9cb24ab5b3577882", ToolName: "run_shell_command"},
		{Role: "assistant", Content: "hello.txt has 2 words.", Tokens: 9},
	})

	// A second run finds nothing new.
	if rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".qwen")); rep.Unchanged != 5 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestIncremental: a recording imported while Qwen was writing it gets
// only its new lines later, with the session's totals brought up to date.
func TestIncremental(t *testing.T) {
	dir := importtest.CopyTree(t, filepath.Join(home(t), ".qwen"))
	file := filepath.Join(dir, "projects", "-tmp-recall-drive-qwen-code-home-demo", "chats", sessTools+".jsonl")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(full), "\n")
	importtest.Write(t, file, strings.Join(lines[:6], ""))
	st := importtest.Open(t)
	importtest.Run(t, st, &Source{}, file)
	if n := len(importtest.Dump(t, st)[sessTools].Msgs); n != 3 {
		t.Fatalf("half: %d messages", n)
	}
	importtest.Write(t, file, string(full))
	rep := importtest.Run(t, st, &Source{}, file)
	d := importtest.Dump(t, st)[sessTools]
	if rep.Messages != 3 || len(d.Msgs) != 6 || d.InputTokens != 57374 || d.OutputTokens != 81 {
		t.Errorf("grown: %+v, session %+v", rep, d.Session)
	}
}

// TestDiscover finds recordings in both layouts and skips bookkeeping.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{
		"projects/-p/chats/a.jsonl", "projects/-p/chats/a.ledger.jsonl", "projects/-p/subagents/a/agent-x.jsonl",
		"projects/-p/subagents/a/agent-x.meta.json", "tmp/0123abcd/chats/b.jsonl", "usage/token-usage.jsonl",
	} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := (&Source{}).Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, g := range got {
		r, _ := filepath.Rel(dir, g)
		rel = append(rel, r)
	}
	want := "projects/-p/chats/a.jsonl tmp/0123abcd/chats/b.jsonl projects/-p/subagents/a/agent-x.jsonl"
	if strings.Join(rel, " ") != want {
		t.Errorf("discover = %v, want %s", rel, want)
	}
	if g := (&Source{}).Group(filepath.Join(dir, "projects/-p/subagents/a/agent-x.jsonl")); g != filepath.Join(dir, "projects/-p/chats/a.jsonl") {
		t.Errorf("group = %s", g)
	}
}

// TestSystemRecords: records Qwen Code writes only in its interactive UI
// (shaped as chatRecordingService writes them): /rename's custom_title
// titles the session, a slash command is the person's command, a fork
// names its parent.
func TestSystemRecords(t *testing.T) {
	dir := importtest.CopyTree(t, filepath.Join(home(t), ".qwen"))
	file := filepath.Join(dir, "projects", "-tmp-recall-drive-qwen-code-home-demo", "chats", sessQA+".jsonl")
	base := `"sessionId":"` + sessQA + `","timestamp":"2026-12-05T10:16:00.000Z","type":"system","provenance":"system","cwd":"` + cwd + `","version":"0.24.4"`
	importtest.Append(t, file, `{"uuid":"a1","parentUuid":null,`+base+`,"subtype":"slash_command","systemPayload":{"phase":"invocation","rawCommand":"/rename Reverse strings"}}`+"\n"+
		`{"uuid":"a2","parentUuid":"a1",`+base+`,"subtype":"custom_title","systemPayload":{"customTitle":"Reverse strings","titleSource":"manual"}}`+"\n"+
		`{"uuid":"a3","parentUuid":"a2",`+base+`,"subtype":"slash_command","systemPayload":{"phase":"result","rawCommand":"/rename Reverse strings","outputHistoryItems":[]}}`+"\n"+
		`{"uuid":"a4","parentUuid":"a3",`+base+`,"subtype":"parent_session","systemPayload":{"parentSessionId":"`+sessZH+`"}}`+"\n")
	st := importtest.Open(t)
	importtest.Run(t, st, &Source{}, dir)
	s := importtest.Dump(t, st)[sessQA]
	if s.Title != "Reverse strings" || s.ParentID != sessZH || len(s.Msgs) != 3 {
		t.Fatalf("session %+v, %v", s.Session, s.Msgs)
	}
	if m := s.Msgs[2]; m.Role != "user" || m.Content != "/rename Reverse strings" || m.Kind != store.DisplayKindCommand {
		t.Errorf("command: %s", m)
	}
}
