package grokcli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessHealth = "3b9e7f10-5c2d-4e8a-9f61-2d7c4b1a0e55"
	sessZH     = "8d41c6a2-0f3b-4b7e-a9c5-6e2f1d8b3c70"
)

// TestImportDB reads a grok.db shaped as Grok CLI's source writes it
// (testdata/importers/grokcli: schema from src/storage/migrations.ts, rows
// as src/storage/transcript.ts appends them): prompts, answers, reasoning,
// tool calls with their results (a failed ToolResult marked), tokens from
// the usage events, the compaction summary, the title; the system message
// and the session never prompted are not imported.
func TestImportDB(t *testing.T) {
	home := t.TempDir()
	it.LiveDB(t, filepath.Join(home, ".grok", "grok.db"), it.Fixtures(t, "grokcli"), "schema.sql", "seed.sql")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Join(home, ".grok"))
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 11 || rep.Malformed != 0 || rep.Skipped != 2 {
		t.Fatalf("report = %+v, want 2 sessions, 11 messages, 2 skipped (a system message, an empty session)", rep)
	}
	d := it.Dump(t, st)
	h := d[sessHealth]
	if h.Title != "Flaky health check" || h.Model != "grok-code-fast-1" || h.Cwd != "/home/dev/api" || h.InputTokens != 12900 || h.OutputTokens != 140 {
		t.Errorf("session %+v", h.Session)
	}
	it.SameMsgs(t, "health", h.Msgs, []it.Msg{
		{Role: "user", Content: "Why does the health check time out on the first request?"},
		{Role: "assistant", Content: "Let me check how the pool is created.", Reasoning: "Cold start: the database pool connects lazily.", Tokens: 80,
			ToolCalls: it.Calls("call_g1", "bash", `{"command":"grep -rn 'createPool' src"}`)},
		{Role: "tool", Content: "src/db.ts:4: export const pool = createPool({ lazy: true })", ToolCallID: "call_g1", ToolName: "bash"},
		{Role: "assistant", Tokens: 20, ToolCalls: it.Calls("call_g2", "read_file", `{"path":"src/missing.ts"}`)},
		{Role: "tool", Content: "File not found: src/missing.ts", ToolCallID: "call_g2", ToolName: "read_file", Finish: "error"},
		{Role: "assistant", Content: "The pool connects lazily (`lazy: true` in src/db.ts), so the first health check waits for the connection. Warm it at startup.", Tokens: 40},
	})
	zh := d[sessZH].Msgs
	if len(zh) != 5 || zh[0].Content != "用中文解释一下连接池" || !strings.HasPrefix(zh[1].Content, "连接池") ||
		zh[4].Kind != store.DisplayKindCompaction || !strings.Contains(zh[4].Content, "连接池") {
		t.Errorf("chinese with a compaction: %v", zh)
	}
	if rep := it.Run(t, st, &Source{}, filepath.Join(home, ".grok")); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestDiscover takes grok.db from a home or ~/.grok folder without walking
// it (Grok Build keeps its own sessions in ~/.grok/sessions).
func TestDiscover(t *testing.T) {
	home := t.TempDir()
	it.LiveDB(t, filepath.Join(home, ".grok", "grok.db"), it.Fixtures(t, "grokcli"), "schema.sql")
	for _, p := range []string{home, filepath.Join(home, ".grok")} {
		got, err := (&Source{}).Discover([]string{p})
		if err != nil || len(got) != 1 || got[0] != filepath.Join(home, ".grok", "grok.db") {
			t.Errorf("discover %s = %v, %v", p, got, err)
		}
	}
}
