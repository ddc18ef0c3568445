package droid

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const sess = "b1c2d3e4-5f60-4718-9a2b-3c4d5e6f7a8b"

func TestImport(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "droid"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 1 || rep.Messages != 7 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	start, _ := time.Parse(time.RFC3339, "2025-12-01T08:00:00Z")
	it.SameSession(t, d[sess].Session, store.Session{ID: sess, Source: "droid", Model: "claude-sonnet-4-5-20250929", Title: "Login 500 after upgrade",
		StartedAt: start, Cwd: "/home/dev/api", InputTokens: 9100, OutputTokens: 420, CacheReadTokens: 30000, CacheWriteTokens: 1200,
		ReasoningTokens: 64, MessageCount: 7, ToolCallCount: 2})
	it.SameMsgs(t, sess, d[sess].Msgs, []it.Msg{
		{Role: "user", Content: "<system-reminder>\nUser system info (linux 6.8)\n</system-reminder>", Kind: "agent"},
		{Role: "user", Content: "the login endpoint returns 500 since the upgrade"},
		{Role: "assistant", Content: "Reading the log.", Reasoning: "Check the server log for the stack trace.",
			ToolCalls: it.Calls("toolu_01Log", "Execute", `{"command":"tail -n 20 logs/app.log"}`)},
		{Role: "tool", Content: "TypeError: bcrypt.compare is not a function", ToolCallID: "toolu_01Log", ToolName: "Execute"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_02Edit", "Edit", `{"file_path":"src/auth.js","old_str":"import bcrypt from 'bcrypt'","new_str":"import * as bcrypt from 'bcrypt'"}`)},
		{Role: "tool", Content: "error: file is read-only", ToolCallID: "toolu_02Edit", ToolName: "Edit"},
		{Role: "assistant", Content: "bcrypt 6 has no default export; change the import to `import * as bcrypt` (src/auth.js is read-only here)."},
	})
	if len(d[sess].Msgs) != 7 {
		t.Errorf("%d messages", len(d[sess].Msgs))
	}

	// Droid appends: the new lines alone are read, the tool name of a
	// call made before them included.
	file := filepath.Join(dir, "sessions", "-home-dev-api", sess+".jsonl")
	it.Append(t, file, `{"type":"message","id":"m7","timestamp":"2025-12-01T08:01:00.000Z","message":{"role":"user","content":"thanks"}}`+"\n")
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Messages != 1 {
		t.Errorf("after one more line: %+v", rep)
	}
}
