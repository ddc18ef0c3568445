package goose

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

func utc(s string) time.Time { t, _ := time.Parse("2006-01-02 15:04:05", s); return t }

func TestImportDB(t *testing.T) {
	dir := t.TempDir()
	it.LiveDB(t, filepath.Join(dir, "sessions", "sessions.db"), it.Fixtures(t, "goose"), "schema.sql", "seed.sql")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 8 || rep.Skipped != 2 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if len(d) != 2 {
		t.Fatalf("sessions %v: the hidden and the empty session must not be imported", it.IDs(d))
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: "20251108_1", Source: "goose", Title: "Rename config keys", Cwd: "/home/dev/cli",
			StartedAt: utc("2025-11-08 09:00:00"), EndedAt: utc("2025-11-08 09:05:00"), InputTokens: 8000, OutputTokens: 600,
			MessageCount: 5, ToolCallCount: 1}, []it.Msg{
			{Role: "user", Content: "rename max_retries to retry_limit everywhere"},
			{Role: "assistant", Content: "Searching for max_retries.", Reasoning: "Find every file that mentions it first.",
				ToolCalls: it.Calls("toolu_01Shell", "developer__shell", `{"command":"rg -l max_retries"}`)},
			{Role: "tool", Content: "config.go\nconfig_test.go", ToolCallID: "toolu_01Shell", ToolName: "developer__shell"},
			{Role: "assistant", Content: "Renamed retry_limit in config.go and config_test.go."},
			{Role: "user", Content: "The previous conversation was summarized: the config key was renamed in two files.", Kind: "agent"},
		}},
		{store.Session{ID: "20251109_2", Source: "goose", Title: "Count TODOs", Cwd: "/home/dev/cli", ModelConfig: `{"session_type":"sub_agent"}`,
			StartedAt: utc("2025-11-09 11:00:00"), EndedAt: utc("2025-11-09 11:00:30"), InputTokens: 450, OutputTokens: 50,
			MessageCount: 3, ToolCallCount: 1}, []it.Msg{
			{Role: "user", Content: "count the TODO comments in src/"},
			{Role: "assistant", ToolCalls: it.Calls("call_7", "developer__shell", `{"command":"rg -c TODO src/"}`)},
			{Role: "tool", Content: "error: rg: command not found", ToolCallID: "call_7", ToolName: "developer__shell"},
		}},
	} {
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}
}

// TestImportLegacy: a folder without sessions.db is read from its .jsonl
// sessions (Goose before its database).
func TestImportLegacy(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Join(it.Fixtures(t, "goose"), "legacy"))
	if rep.Files != 1 || rep.Sessions != 1 || rep.Messages != 2 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d["fix-404"].Session, store.Session{ID: "fix-404", Source: "goose", Title: "Fix the 404 page", Cwd: "/home/dev/site",
		StartedAt: time.Unix(1735725600, 0), InputTokens: 800, OutputTokens: 100, MessageCount: 2})
	it.SameMsgs(t, "fix-404", d["fix-404"].Msgs, []it.Msg{
		{Role: "user", Content: "the 404 page shows a stack trace"},
		{Role: "assistant", Content: "Set DEBUG=false in production and add templates/404.html."},
	})
}
