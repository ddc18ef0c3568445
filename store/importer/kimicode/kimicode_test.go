package kimicode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// home is the HOME the fixtures were written in: files Kimi Code 2.1.0
// wrote itself (testdata/agents/kimi-code/drive.sh).
func home(t *testing.T) string { return importtest.AgentHome(t, "kimi-code") }

const (
	sessQA    = "session_67c68f43-cc73-4575-8a5b-8050d3911238"
	sessTools = "session_0b7169a6-6c45-4658-b0b3-613d4c3f2e46"
	sessZH    = "session_c278a081-0313-4df8-a182-a162fd32b9d5"
	sessAgent = "session_60f6c8e1-24f1-40b6-90ab-9ed12da423d7"
	child     = sessAgent + "-agent-0"
	cwd       = "/tmp/recall-drive-kimi-code/home/demo"
	reminder  = "<system-reminder>\nAuto permission mode is active."
)

// TestFixtures imports what Kimi Code wrote and checks every session.
func TestFixtures(t *testing.T) {
	st := importtest.Open(t)
	rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".kimi-code"))
	if rep.Files != 5 || rep.Sessions != 5 || rep.Messages != 31 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := importtest.Dump(t, st)
	importtest.CheckSessions(t, d, map[string]importtest.Want{
		sessQA:    {Msgs: 4, In: 21886, Out: 71, Title: "Reverse a string in Go, as markdown with a code block"},
		sessTools: {Msgs: 8, In: 65915, Out: 52, Title: "List the files here, then read missing.txt"},
		sessZH:    {Msgs: 7, In: 42915, Out: 33, Title: "用中文解释 Go 的并发"},
		sessAgent: {Msgs: 6, In: 43959, Out: 54, Title: "Delegate counting the words of hello.txt to a sub-agent"},
		child:     {Msgs: 6, In: 35293, Out: 23, Title: "Count the words in hello.txt with wc and reply with the number."},
	}, cwd, "claude-sonnet-4-5", SourceName)
	if a := d[sessQA].Msgs[3]; a.Reasoning != "A rune slice keeps it UTF-8 safe." || !strings.Contains(a.Content, "```go\nfunc Reverse") || a.Finish != "end_turn" {
		t.Errorf("thinking/markdown: %s", a)
	}
	if r := d[sessQA].Msgs[1]; r.Kind != "agent" || !strings.HasPrefix(r.Content, "<system-reminder>") {
		t.Errorf("an injected reminder is Kimi Code's own text: %s", r)
	}
	importtest.SameMsgs(t, "tools", d[sessTools].Msgs[3:], []importtest.Msg{
		{Role: "assistant", Content: "I will list the folder.", Finish: "tool_use", Tokens: 21,
			ToolCalls: importtest.Calls("toolu_58d503a68d914efab2facb2e", "Bash", `{"command":"ls -1"}`)},
		{Role: "tool", Content: "hello.txt\n", ToolCallID: "toolu_58d503a68d914efab2facb2e", ToolName: "Bash"},
		{Role: "assistant", Finish: "tool_use", Tokens: 13,
			ToolCalls: importtest.Calls("toolu_d6271cbff01d489c86e097b2", "Read", `{"path":"missing.txt"}`)},
		{Role: "tool", Content: `"missing.txt" does not exist.`, ToolCallID: "toolu_d6271cbff01d489c86e097b2", ToolName: "Read", Finish: "error"},
		{Role: "assistant", Content: "The folder holds `hello.txt`; `missing.txt` does not exist.", Finish: "end_turn", Tokens: 18},
	})
	if zh := d[sessZH].Msgs; zh[4].Content != "再举一个例子" || zh[4].Kind != "" || !strings.HasPrefix(zh[6].Content, "另一个例子") {
		t.Errorf("resumed: %v", zh)
	}
	c := d[child]
	if c.ParentID != sessAgent || c.ModelConfig != `{"_delegate_from":"`+sessAgent+`"}` {
		t.Errorf("child %+v", c.Session)
	}
	if c.Msgs[0].Kind != "agent" || c.Msgs[4].ToolName != "Bash" || c.Msgs[4].Content != "2 hello.txt\n" {
		t.Errorf("child messages %v", c.Msgs)
	}
	if !strings.Contains(d[sessAgent].Msgs[4].Content, "[summary]\nhello.txt has 2 words.") {
		t.Errorf("the Agent tool's result: %s", d[sessAgent].Msgs[4])
	}

	// Nothing changed: nothing is read again.
	if rep := importtest.Run(t, st, &Source{}, filepath.Join(home(t), ".kimi-code")); rep.Unchanged != 5 || rep.Messages != 0 {
		t.Errorf("second import: %+v", rep)
	}
}

// TestAppendedStep: a step the file ends inside (Kimi Code appends as it
// streams) is stored as it is, and replaced whole once it ends: nothing
// lost if Kimi stops there, nothing doubled if it goes on.
func TestAppendedStep(t *testing.T) {
	dir := importtest.CopyTree(t, filepath.Join(home(t), ".kimi-code"))
	file := filepath.Join(dir, "sessions", "wd_demo_df419f279a59", sessQA, "agents", "main", "wire.jsonl")
	st := importtest.Open(t)
	importtest.Run(t, st, &Source{}, dir)
	importtest.Append(t, file, `{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"and in Rust?"}],"id":"msg_x","toolCalls":[],"origin":{"kind":"user"}},"time":1796505100000}`+"\n"+
		`{"type":"context.append_loop_event","agentId":"main","event":{"type":"step.begin","uuid":"s9","turnId":"1","step":1},"time":1796505100100}`+"\n"+
		`{"type":"context.append_loop_event","agentId":"main","event":{"type":"content.part","uuid":"p9","stepUuid":"s9","part":{"type":"text","text":"s.chars().rev()"}},"time":1796505100200}`+"\n")
	if rep := importtest.Run(t, st, &Source{}, dir); rep.Messages != 2 {
		t.Errorf("the prompt and the unfinished step as it is: %+v", rep)
	}
	importtest.Append(t, file, `{"type":"context.append_loop_event","agentId":"main","event":{"type":"step.end","uuid":"s9","turnId":"1","step":1,"finishReason":"end_turn","usage":{"inputOther":5,"output":7,"inputCacheRead":0,"inputCacheCreation":0}},"time":1796505100300}`+"\n")
	importtest.Run(t, st, &Source{}, dir)
	msgs := importtest.Dump(t, st)[sessQA].Msgs
	if last := msgs[len(msgs)-1]; len(msgs) != 6 || last.Role != "assistant" || last.Content != "s.chars().rev()" || last.Tokens != 7 || last.Finish != "end_turn" {
		t.Errorf("%d messages, last %s", len(msgs), last)
	}
}
