package amp

import (
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const threadID = "T-019b9d03-62e3-772f-9780-3e637f90eaec"

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "amp"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 1 || rep.Messages != 7 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[threadID].Session, store.Session{ID: threadID, Source: "amp", Model: "claude-sonnet-4-5-20250929", Title: "Flaky websocket reconnect",
		StartedAt: time.UnixMilli(1767865803494), Cwd: "/home/dev/chat", InputTokens: 1900, OutputTokens: 160, CacheWriteTokens: 3000,
		CacheReadTokens: 8500, MessageCount: 7, ToolCallCount: 2})
	it.SameMsgs(t, threadID, d[threadID].Msgs, []it.Msg{
		{Role: "user", Content: "the websocket never reconnects after a deploy"},
		{Role: "assistant", Content: "Let me find the reconnect logic.", Reasoning: "Look at the reconnect backoff.",
			ToolCalls: it.Calls("toolu_01Grep", "Grep", `{"pattern":"reconnect","path":"src"}`), Finish: "tool_use", Tokens: 80},
		{Role: "tool", Content: "src/ws.ts:41: if (attempt > 3) return", ToolCallID: "toolu_01Grep", ToolName: "Grep"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_02Bash", "Bash", `{"cmd":"npm test -- ws"}`), Finish: "tool_use", Tokens: 20},
		{Role: "tool", Content: "error: rejected-by-user", ToolCallID: "toolu_02Bash", ToolName: "Bash"},
		{Role: "assistant", Content: "It gives up after 3 attempts; a deploy takes longer. Retry forever with a capped backoff.", Finish: "end_turn", Tokens: 60},
		{Role: "user", Content: "The reconnect loop stops after 3 attempts; the fix is an uncapped retry with capped backoff.", Kind: "compaction"},
	})
	if rep := it.Run(t, st, &Source{}, dir); rep.Unchanged != 1 {
		t.Errorf("again: %+v", rep)
	}
}
