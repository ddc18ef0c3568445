package grokbuild

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessA = "019f6a00-1111-7000-8000-000000000001"
	sessS = "019f6a00-2222-7000-8000-000000000002"
)

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "grokbuild"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 2 || rep.Sessions != 2 || rep.Messages != 17 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[sessA].Session, store.Session{ID: sessA, Source: SourceName, Model: "grok-code-fast-1", Title: "Speed up the Docker build",
		StartedAt: it.Time("2026-06-09T10:13:20Z"), EndedAt: it.Time("2026-06-09T10:20:00Z"), Cwd: "/home/dev/api", GitBranch: "main",
		InputTokens: 27300, OutputTokens: 530, CacheReadTokens: 20000, ReasoningTokens: 96, MessageCount: 13, ToolCallCount: 3})
	it.SameMsgs(t, sessA, d[sessA].Msgs, []it.Msg{
		{Role: "user", Content: "Why is the Docker build slow?"},
		{Role: "assistant", Content: "Let me look at the Dockerfile.", Reasoning: "The layer cache is probably invalidated by COPY . .",
			ToolCalls: it.Calls("call-1", "read_file", `{"path":"Dockerfile"}`)},
		{Role: "tool", Content: "FROM golang:1.23\nCOPY . .\nRUN go mod download\nRUN go build ./...", ToolCallID: "call-1", ToolName: "read_file"},
		{Role: "assistant", ToolCalls: it.Calls("call-2", "run_terminal_cmd", `{"command":"cat .dockerignore"}`)},
		{Role: "tool", Content: "cat: .dockerignore: No such file or directory", ToolCallID: "call-2", ToolName: "run_terminal_cmd", Finish: "error"},
		{Role: "assistant", Content: "`COPY . .` comes before `go mod download`, so every change re-downloads the modules. Copy `go.mod` and `go.sum` first.", Finish: "end_turn"},
		{Role: "user", Content: "Delegate: find every Dockerfile in the repo"},
		{Role: "assistant", ToolCalls: it.Calls("call-3", "task", `{"description":"Find Dockerfiles","prompt":"List every Dockerfile"}`)},
		{Role: "tool", Content: "Found 2: ./Dockerfile, ./tools/Dockerfile", ToolCallID: "call-3", ToolName: "task"},
		{Role: "assistant", Content: "There are two: ./Dockerfile and ./tools/Dockerfile.", Finish: "end_turn"},
		{Role: "user", Content: "<system-reminder>The working directory changed.</system-reminder>", Kind: "agent"},
		{Role: "user", Content: "构建现在快了吗？"},
		{Role: "assistant", Content: "是的，依赖层现在会被缓存。"},
	})
	s := d[sessS]
	if s.ParentID != sessA || s.ModelConfig != `{"_delegate_from":"`+sessA+`"}` || s.Msgs[0].Kind != "agent" || s.Title != "Find Dockerfiles" {
		t.Errorf("sub-agent %+v %v", s.Session, s.Msgs)
	}

	// The last answer was stored unfinished; Grok goes on streaming it: the
	// file is read again and the answer replaced whole, nothing doubled.
	file := filepath.Join(dir, "sessions", "%2Fhome%2Fdev%2Fapi", sessA, "updates.jsonl")
	it.Append(t, file, `{"timestamp":1781000226,"method":"session/update","params":{"sessionId":"`+sessA+`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"构建时间从 90 秒降到 8 秒。"}}}}`+"\n"+
		`{"timestamp":1781000226,"method":"_x.ai/session/update","params":{"sessionId":"`+sessA+`","update":{"sessionUpdate":"turn_completed","prompt_id":"p-2","stop_reason":"end_turn"}}}`+"\n")
	it.Run(t, st, &Source{}, dir)
	msgs := it.Dump(t, st)[sessA].Msgs
	if len(msgs) != 13 || msgs[12].Content != "是的，依赖层现在会被缓存。构建时间从 90 秒降到 8 秒。" || msgs[12].Finish != "end_turn" {
		t.Errorf("after the rest of the answer: %d messages, last %s", len(msgs), msgs[len(msgs)-1])
	}
}
