package junie

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	s1 = "session-260301-090000-a1b2"
	s2 = "session-260302-101500-c3d4"
)

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "junie"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 2 || rep.Sessions != 2 || rep.Messages != 12 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[s1].Session, store.Session{ID: s1, Source: SourceName, Model: "claude-sonnet-4-5-20250929", Title: "Fix the flaky login test",
		StartedAt: it.Time("2026-03-01T09:00:00Z"), EndedAt: it.Time("2026-03-01T09:02:00Z"), InputTokens: 8300, OutputTokens: 590,
		CacheReadTokens: 4200, CacheWriteTokens: 400, EstimatedCostUSD: 0.032, MessageCount: 8, ToolCallCount: 3})
	it.SameMsgs(t, s1, d[s1].Msgs, []it.Msg{
		{Role: "user", Content: "The login test fails one run in ten; find out why"},
		{Role: "assistant", ToolCalls: it.Calls("step-1", "terminal", `{"command":"go test -run TestLogin -count=20 ./auth"}`)},
		{Role: "tool", Content: "--- FAIL: TestLogin (0.01s)\n    login_test.go:31: session expired", ToolCallID: "step-1", ToolName: "terminal"},
		{Role: "assistant", ToolCalls: it.Calls("step-2", "view_files", `{"files":["auth/login_test.go","auth/session.go"]}`)},
		{Role: "tool", Content: "auth/login_test.go\nauth/session.go", ToolCallID: "step-2", ToolName: "view_files"},
		{Role: "assistant", ToolCalls: it.Calls("step-3", "file_changes", `{"files":["auth/session.go"]}`)},
		{Role: "tool", Content: "auth/session.go", ToolCallID: "step-3", ToolName: "file_changes"},
		{Role: "assistant", Content: "The session expiry used the wall clock; the test now injects a fixed clock, so it no longer fails when a second ticks over."},
	})
	if b := d[s2]; b.Title != "为登录接口添加限流" || b.Model != "gpt-5" || len(b.Msgs) != 4 || b.Msgs[3].Finish != "error" {
		t.Errorf("second session %+v %v", b.Session, b.Msgs)
	}

	// Junie writes a step again when it completes: the file is read again,
	// the step's row replaced, nothing doubled.
	file := filepath.Join(dir, "sessions", s2, "events.jsonl")
	it.Append(t, file, `{"kind":"SessionA2uxEvent","event":{"state":"IN_PROGRESS","agentEvent":{"kind":"ToolBlockUpdatedEvent","stepId":"step-1","status":"COMPLETED","text":"Search for the login handler","details":"auth/handler.go:42 func Login\nauth/handler.go:80 func Logout"}}}`+"\n")
	it.Run(t, st, &Source{}, dir)
	if m := it.Dump(t, st)[s2].Msgs; len(m) != 4 || m[2].Content != "auth/handler.go:42 func Login\nauth/handler.go:80 func Logout" {
		t.Errorf("after the step completed: %v", m)
	}
}
