package vibe

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessA   = "3f9a1c2e-7d41-4b8e-a2c5-5e6f7a8b9c0d"
	sessSub = "7b2d4e6f-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
	sessB   = "a1b2c3d4-9e8f-4a7b-b6c5-5e6f7a8b9c0d"
)

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "vibe"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 3 || rep.Sessions != 3 || rep.Messages != 17 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[sessA].Session, store.Session{ID: sessA, Source: SourceName, Model: "mistral-vibe-cli-latest", Title: "Why does go test hang in CI?",
		StartedAt: it.Time("2026-06-01T09:00:00.123456Z"), EndedAt: it.Time("2026-06-01T09:04:10.654321Z"), Cwd: "/home/dev/api", GitBranch: "main",
		InputTokens: 15400, OutputTokens: 610, MessageCount: 10, ToolCallCount: 3})
	it.SameMsgs(t, sessA, d[sessA].Msgs[:6], []it.Msg{
		{Role: "user", Content: "Why does `go test` hang in CI?"},
		{Role: "assistant", Content: "Let me look at the test run.", Reasoning: "A hang usually means a goroutine waits forever; check for -timeout.",
			ToolCalls: it.Calls("call_bash1", "bash", `{"command": "go test ./... -timeout 30s"}`)},
		{Role: "tool", Content: "command: go test ./... -timeout 30s\nstdout: panic: test timed out after 30s\nrunning tests:\n\tTestServe (30s)\nstderr: \nreturncode: 1",
			ToolCallID: "call_bash1", ToolName: "bash"},
		{Role: "assistant", ToolCalls: it.Calls("call_read1", "read_file", `{"path": "ci.log"}`)},
		{Role: "tool", Content: "<tool_error>read_file failed: File not found: ci.log</tool_error>", ToolCallID: "call_read1", ToolName: "read_file", Finish: "error"},
		{Role: "assistant", Content: "`TestServe` never returns: the server it starts is not shut down. Close it with `t.Cleanup(srv.Close)`."},
	})
	sub := d[sessSub]
	if sub.ParentID != sessA || sub.ModelConfig != `{"_delegate_from":"`+sessA+`"}` || sub.Msgs[0].Kind != "agent" || sub.Msgs[2].ToolName != "grep" {
		t.Errorf("sub-agent %+v %v", sub.Session, sub.Msgs)
	}
	b := d[sessB]
	if b.ParentID != sessA || b.ModelConfig != "" || b.Title != "修复 CI 挂起" || b.GitBranch != "fix-ci" || b.Msgs[0].Kind != "compaction" || b.Msgs[1].Content != "现在修复它" {
		t.Errorf("continued after compaction %+v %v", b.Session, b.Msgs)
	}

	// Vibe appends a turn's messages, then rewrites meta.json.
	sdir := filepath.Join(dir, "logs", "session", "session_20260601_100000_a1b2c3d4")
	it.Append(t, filepath.Join(sdir, "messages.jsonl"), `{"role": "user", "content": "谢谢", "injected": false, "message_id": "m-b4"}`+"\n")
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Messages != 1 || rep.Unchanged != 2 {
		t.Errorf("after one more line: %+v", rep)
	}
}
