package cursoragent

import (
	"crypto/md5"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const chat = "3f2a9c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b"

func TestImport(t *testing.T) {
	home := t.TempDir()
	sum := md5.Sum([]byte("/home/dev/api"))
	path := filepath.Join(home, ".cursor", "chats", hex.EncodeToString(sum[:]), chat, "store.db")
	it.LiveDB(t, path, it.Fixtures(t, "cursoragent"), "store.sql")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Join(home, ".cursor"))
	if rep.Files != 1 || rep.Sessions != 1 || rep.Messages != 7 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[chat].Session, store.Session{ID: chat, Source: "cursor-agent", Model: "gpt-5", Title: "Health check slow",
		StartedAt: time.UnixMilli(1764590400000), Cwd: "/home/dev/api", MessageCount: 7, ToolCallCount: 2})
	it.SameMsgs(t, chat, d[chat].Msgs, []it.Msg{
		{Role: "user", Content: "why is GET /health slow?"},
		{Role: "assistant", Content: "Let me read the handler.", Reasoning: "The health handler may query the database.",
			ToolCalls: it.Calls("toolu_01Read", "read_file", `{"target_file":"src/health.ts"}`)},
		{Role: "tool", Content: "export async function health() { await db.query('SELECT count(*) FROM orders') }", ToolCallID: "toolu_01Read", ToolName: "read_file"},
		{Role: "assistant", Content: "health() counts every order on each call; return a constant or ping the pool instead."},
		{Role: "user", Content: "ping the pool then"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_02Edit", "edit_file", `{"target_file":"src/health.ts","code_edit":"await pool.query('SELECT 1')"}`)},
		{Role: "tool", Content: "error: permission denied", ToolCallID: "toolu_02Edit", ToolName: "edit_file"},
	})
	if rep := it.Run(t, st, &Source{}, filepath.Join(home, ".cursor")); rep.Unchanged != 1 {
		t.Errorf("again: %+v", rep)
	}
}
