package cursor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	c1 = "5a8e2c1d-7b3f-4e6a-9d2c-0f1e2d3c4b5a" // agent: thinking, a terminal call and its result
	c2 = "fbd30712-94fd-48d3-b674-ed162dbf56ab" // no bubbles
	c3 = "0c1d2e3f-1111-4222-8333-444455556666" // legacy inline conversation
)

func TestImport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "User", "globalStorage", "state.vscdb")
	w := it.LiveDB(t, path, it.Fixtures(t, "cursor"), "schema.sql", "seed.sql")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 7 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if _, ok := d[c2]; ok || len(d) != 2 {
		t.Fatalf("sessions %v: the composer with no bubbles must not be imported", it.IDs(d))
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: c1, Source: "cursor", Model: "claude-4-sonnet", Title: "Cart total ignores discounts",
			StartedAt: time.UnixMilli(1763629200000), EndedAt: time.UnixMilli(1763629260000), Cwd: "/home/dev/shop",
			InputTokens: 16200, OutputTokens: 290, MessageCount: 5, ToolCallCount: 1}, []it.Msg{
			{Role: "user", Content: "the cart total ignores discounts, fix it"},
			{Role: "assistant", Content: "Let me look at how the total is computed.", Reasoning: "Discounts live in cart.discounts; total() sums items only.", Tokens: 140},
			{Role: "assistant", ToolCalls: it.Calls("toolu_01Grep", "run_terminal_cmd", `{"command":"grep -n discount src/cart.ts"}`), Tokens: 60},
			{Role: "tool", Content: `{"output":"42:  discounts: Discount[]","exitCode":0}`, ToolCallID: "toolu_01Grep", ToolName: "run_terminal_cmd"},
			{Role: "assistant", Content: "total() now subtracts each discount; the cart test passes.", Tokens: 90},
		}},
		{store.Session{ID: c3, Source: "cursor", Title: "Regex for ISO dates",
			StartedAt: time.UnixMilli(1730000000000), EndedAt: time.UnixMilli(1730000060000), MessageCount: 2}, []it.Msg{
			{Role: "user", Content: "regex for an ISO date?"},
			{Role: "assistant", Content: `^\d{4}-\d{2}-\d{2}$`},
		}},
	} {
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}

	// Cursor writes one more bubble: only that composer is read again.
	it.Run(t, st, &Source{}, dir)
	if err := w.Exec(`UPDATE cursorDiskKV SET value = json_set(value, '$.text', 'regex for an ISO date with time?') WHERE key = 'composerData:` + c3 + `' `); err != nil {
		t.Fatal(err)
	}
	if err := w.Exec(`UPDATE cursorDiskKV SET value = json_set(value, '$.conversation[2]', json('{"type":1,"bubbleId":"l3","text":"and with a time?"}')) WHERE key = 'composerData:` + c3 + `'`); err != nil {
		t.Fatal(err)
	}
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Sessions != 1 || rep.Messages != 1 {
		t.Errorf("after a new bubble: %+v, want the one composer again (1 session, 1 new message)", rep)
	}
	if n := it.Count(it.Dump(t, st)); n != 8 {
		t.Errorf("%d messages, want 8", n)
	}
}

// TestChatPanel: the chat panel Cursor had before composers lives in each
// workspace's database (ItemTable chatdata): its tabs are imported with the
// workspace's folder as cwd; workspaces without chats are passed over.
func TestChatPanel(t *testing.T) {
	dir := t.TempDir()
	fix := it.Fixtures(t, "cursor")
	it.LiveDB(t, filepath.Join(dir, "User", "globalStorage", "state.vscdb"), fix, "schema.sql", "seed.sql")
	ws := filepath.Join(dir, "User", "workspaceStorage", "3f9e2b", "state.vscdb")
	it.LiveDB(t, ws, fix, "schema.sql", "workspace-chat.sql")
	if err := os.WriteFile(filepath.Join(filepath.Dir(ws), "workspace.json"), []byte(`{"folder":"file:///home/dev/legacy-app"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	it.LiveDB(t, filepath.Join(dir, "User", "workspaceStorage", "a1b2c3", "state.vscdb"), fix, "schema.sql")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 3 || rep.Failed != 0 || rep.Sessions != 3 || rep.Messages != 9 || rep.Skipped != 3 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	const tab = "7d0c4a1e-legacy-tab-0001"
	it.SameSession(t, d[tab].Session, store.Session{ID: tab, Source: "cursor", Model: "gpt-4", Title: "Why is the build slow",
		StartedAt: time.UnixMilli(1700000000000), Cwd: "/home/dev/legacy-app", MessageCount: 2})
	it.SameMsgs(t, tab, d[tab].Msgs, []it.Msg{
		{Role: "user", Content: "why is the webpack build slow?"},
		{Role: "assistant", Content: "Enable webpack's filesystem cache (cache: {type: 'filesystem'})."},
	})
}
