package devin

import (
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// liveDB builds sessions.db from the fixture as a running Devin has it
// (WAL, its writer open) and returns its path.
func liveDB(t *testing.T) string {
	db := filepath.Join(t.TempDir(), "devin", "cli", DBName)
	it.LiveDB(t, db, it.Fixtures(t, "devin"), "schema.sql", "seed.sql")
	return db
}

// TestDevin imports sessions stored the way Devin's store has them
// (testdata/importers/devin/manifest.json names each shape's source).
func TestDevin(t *testing.T) {
	db := liveDB(t)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Dir(filepath.Dir(filepath.Dir(db)))) // the data dir
	// Skipped: the two system prompts.
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 13 || rep.Malformed != 0 || rep.Skipped != 2 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	s := d["puzzle-marigold"]
	if s.Source != SourceName || s.Title != "Fix cart rounding" || s.Cwd != "/home/dev/shop" || s.Model != "SWE-2 High" || s.Archived ||
		s.InputTokens != 4070 || s.OutputTokens != 183 || s.CacheReadTokens != 74700 || s.CacheWriteTokens != 800 {
		t.Errorf("session: %+v", s.Session)
	}
	if s.StartedAt.UTC().Format("15:04:05") != "14:02:11" || s.EndedAt.UTC().Format("15:04:05") != "14:03:23" {
		t.Errorf("times %v .. %v", s.StartedAt, s.EndedAt)
	}
	// The live chain: the retried request's stale reply (node 3) is left out.
	it.SameMsgs(t, "puzzle-marigold", s.Msgs, []it.Msg{
		{Role: "user", Content: "The cart total test fails, fix it"},
		{Role: "assistant", Reasoning: "Run the test first.", ToolCalls: it.Calls("call_1", "exec", `{"command":"go test ./cart/..."}`), Tokens: 50},
		{Role: "tool", Content: "Output from command in shell 59f39e:\n--- FAIL: TestTotal (0.00s)\n    cart_test.go:18: got 10.29, want 10.30\n\nExit code: 1", ToolCallID: "call_1", ToolName: "exec", Finish: "error"},
		{Role: "assistant", Content: "The total is never rounded; I'll round it to cents.",
			ToolCalls: it.Calls("call_2", "str_replace", `{"path":"/home/dev/shop/cart/total.go","old_str":"return t","new_str":"return math.Round(t*100) / 100"}`), Tokens: 70},
		{Role: "tool", Content: "The file /home/dev/shop/cart/total.go has been edited.", ToolCallID: "call_2", ToolName: "str_replace"},
		{Role: "user", Content: "<system-reminder>The user changed cart/cart_test.go.</system-reminder>", Kind: store.DisplayKindAgent},
		{Role: "assistant", Content: "Fixed: `Total` now rounds to cents and the test passes.", Tokens: 30},
		{Role: "user", Content: "thanks! also run the linter"},
		{Role: "assistant", ToolCalls: it.Calls("call_3", "exec", `{"command":"golangci-lint run ./..."}`), Tokens: 25},
		{Role: "tool", Content: "Output from command in shell 59f39e:\n\nExit code: 0", ToolCallID: "call_3", ToolName: "exec"},
		{Role: "assistant", Content: "Lint is clean.", Tokens: 8},
	})
	// Archived (hidden) in Devin: kept, archived (so left out of lists);
	// no main_chain_id: read from its last node.
	z, err := st.Session(t.Context(), "zinc-order")
	if err != nil || !z.Archived || z.Title != "¿Qué hace este repositorio?" || z.Model != "swe-2" {
		t.Errorf("zinc-order: %+v %v", z, err)
	}
	if msgs, err := st.Messages(t.Context(), "zinc-order"); err != nil || len(msgs) != 2 || msgs[1].Content != "Es una tienda de ejemplo en Go." {
		t.Errorf("zinc-order messages %v %v", msgs, err)
	}

	// Nothing changed: nothing read again.
	if rep := it.Run(t, st, &Source{}, db); rep.Unchanged != 1 || rep.Sessions != 0 {
		t.Errorf("second run %+v", rep)
	}
}
