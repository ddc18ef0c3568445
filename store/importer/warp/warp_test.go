package warp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	convFix   = "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
	convChild = "7a2b3c4d-5e6f-4a7b-9c8d-0e1f2a3b4c5d"
	convOld   = "9c4d5e6f-7a8b-4c9d-1e0f-2a3b4c5d6e7f"
	taskSub   = "1a2b3c4d-0000-4111-8222-333344445555"
)

// liveDB builds warp.sqlite from the fixture as a running Warp has it
// (WAL, its writer open) and returns its path.
func liveDB(t *testing.T) (string, *sqlite3.Conn) {
	db := filepath.Join(t.TempDir(), "warp-terminal", DBName)
	return db, it.LiveDB(t, db, it.Fixtures(t, "warp"), "schema.sql", "seed.sql")
}

func lines(msgs []it.Msg) string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.String())
	}
	return strings.Join(out, "\n")
}

// TestWarp imports conversations stored the way Warp stores them
// (testdata/importers/warp/manifest.json names each shape's source).
func TestWarp(t *testing.T) {
	db, _ := liveDB(t)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Dir(db)) // Warp's state dir
	// Skipped: an update_todos message, and the conversation that is only
	// a fix Warp offered for a failed command (Warp lists it nowhere).
	if rep.Files != 1 || rep.Sessions != 4 || rep.Messages != 30 || rep.Malformed != 0 || rep.Skipped != 2 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	for id, w := range map[string]struct {
		title, cwd, model, parent string
		cost                      float64
		msgs                      int
	}{
		convFix:   {"Fix the failing cart total test", "/home/dev/shop", "claude-4-sonnet", "", 0.125, 22},
		taskSub:   {"Find where money is rounded", "/home/dev/shop", "", convFix, 0, 4},
		convChild: {"test-writer", "/home/dev/shop", "", convFix, 0, 2},
		convOld:   {"how do I list open ports on linux", "/home/dev", "gpt-4o", "", 0, 2},
	} {
		s := d[id]
		if s.Source != SourceName || s.Title != w.title || s.Cwd != w.cwd || s.Model != w.model || s.ParentID != w.parent ||
			s.ActualCostUSD != w.cost || len(s.Msgs) != w.msgs {
			t.Errorf("%s: %+v (%d messages)", id, s.Session, len(s.Msgs))
		}
		if w.parent != "" && s.ModelConfig != `{"_delegate_from":"`+w.parent+`"}` {
			t.Errorf("%s: model_config %s", id, s.ModelConfig)
		}
	}
	if len(d) != 4 {
		t.Errorf("sessions %v", it.IDs(d))
	}
	if s := d[convFix]; s.StartedAt.UTC().Round(time.Millisecond).Format("15:04:05.000") != "14:02:11.250" || s.EndedAt.UTC().Format("15:04:05") != "14:20:31" {
		t.Errorf("times %v .. %v", s.StartedAt, s.EndedAt)
	}
	want := []it.Msg{
		{Role: "user", Content: "The cart total test fails on CI, find out why and fix it"},
		{Role: "assistant", Content: "I'll run the cart tests first.", Reasoning: "I should run the test first to see the failure.",
			ToolCalls: it.Calls("toolu_01", "run_shell_command", `{"command":"go test ./cart/..."}`)},
		{Role: "tool", Content: "--- FAIL: TestTotal (0.00s)\n    cart_test.go:18: got 10.29, want 10.30\nFAIL\n[exit code 1]", ToolCallID: "toolu_01", ToolName: "run_shell_command", Finish: "error"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_02", "read_files", `{"files":[{"name":"cart/total.go"}]}`)},
		{Role: "tool", Content: "/home/dev/shop/cart/total.go\npackage cart\n\nfunc Total(items []Item) float64 {\n\tvar t float64\n\tfor _, it := range items {\n\t\tt += it.Price * 1.0825\n\t}\n\treturn t\n}", ToolCallID: "toolu_02", ToolName: "read_files"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_03", "grep", `{"path":"cart","queries":["Total(","round"]}`)},
		{Role: "tool", Content: "cart/total.go:3\ncart/cart_test.go:12,18", ToolCallID: "toolu_03", ToolName: "grep"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_04", "file_glob_v2", `{"max_matches":50,"patterns":["*_test.go"],"search_dir":"cart"}`)},
		{Role: "tool", Content: "cart/cart_test.go\ncart/tax_test.go", ToolCallID: "toolu_04", ToolName: "file_glob_v2"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_05", "subagent", `{"payload":"Find every place the cart rounds money","task_id":"`+taskSub+`"}`)},
		{Role: "tool", Content: "Money is never rounded: Total sums float64 and the test compares to two places.", ToolCallID: "toolu_05", ToolName: "subagent"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_06", "lookup_tax_rate", `{"precise":true,"state":"TX","year":2026}`)},
		{Role: "tool", Content: "TX sales tax 8.25%", ToolCallID: "toolu_06", ToolName: "lookup_tax_rate"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_07", "apply_file_diffs", `{"diffs":[{"file_path":"cart/total.go","replace":"\treturn math.Round(t*100) / 100\n","search":"\treturn t\n"}],"summary":"Round the total to cents"}`)},
		{Role: "tool", Content: "updated /home/dev/shop/cart/total.go", ToolCallID: "toolu_07", ToolName: "apply_file_diffs"},
		{Role: "assistant", Content: "Fixed: `Total` now rounds to cents, so the test's 10.30 matches."},
		{Role: "user", Content: "The user asked why the cart total test failed; the agent found unrounded float sums and rounded Total to cents.", Kind: store.DisplayKindCompaction},
		{Role: "user", Content: "Is there a Go guideline on money types? Then run the whole suite"},
		{Role: "assistant", ToolCalls: it.Calls("m-22", "web_search", `{"query":"golang money type decimal"}`)},
		{Role: "tool", Content: "big package - math/big https://pkg.go.dev/math/big\nGo Code Review Comments https://go.dev/wiki/CodeReviewComments", ToolCallID: "m-22", ToolName: "web_search"},
		{Role: "assistant", Content: "Go has no money type; keep cents as int64 or use a decimal package.", ToolCalls: it.Calls("toolu_08", "run_shell_command", `{"command":"go test ./..."}`)},
		{Role: "tool", Content: "[canceled]", ToolCallID: "toolu_08", ToolName: "run_shell_command", Finish: "canceled"},
	}
	it.SameMsgs(t, convFix, d[convFix].Msgs, want)
	it.SameMsgs(t, taskSub, d[taskSub].Msgs, []it.Msg{
		{Role: "user", Content: "Find every place the cart rounds money", Kind: store.DisplayKindAgent},
		{Role: "assistant", ToolCalls: it.Calls("toolu_11", "search_codebase", `{"codebase_path":"/home/dev/shop","query":"rounding of prices"}`)},
		{Role: "tool", Content: "codebase not indexed", ToolCallID: "toolu_11", ToolName: "search_codebase", Finish: "error"},
		{Role: "assistant", Content: "Money is never rounded: Total sums float64 and the test compares to two places."},
	})
	it.SameMsgs(t, convChild, d[convChild].Msgs, []it.Msg{
		{Role: "user", Content: "Write a regression test for Total with 3 items", Kind: store.DisplayKindAgent},
		{Role: "assistant", Content: "Added TestTotalThreeItems to cart/cart_test.go."},
	})
	it.SameMsgs(t, convOld, d[convOld].Msgs, []it.Msg{
		{Role: "user", Content: "how do I list open ports on linux"},
		{Role: "user", Content: "and only the ones listening on tcp?"},
	})

	// Nothing changed: nothing read again.
	if rep := it.Run(t, st, &Source{}, db); rep.Unchanged != 1 || rep.Sessions != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestWarpKeepsWhatWarpDeletes: Warp keeps 200 conversations; one it
// evicted stays in recall as it was, though ai_queries still has its
// prompts; a prompt added to a conversation only ai_queries has is read.
func TestWarpKeepsWhatWarpDeletes(t *testing.T) {
	db, w := liveDB(t)
	st := it.Open(t)
	it.Run(t, st, &Source{}, db)
	before := it.Dump(t, st)
	if err := w.Exec(`DELETE FROM agent_tasks WHERE conversation_id = '` + convFix + `';
		DELETE FROM agent_conversations WHERE conversation_id = '` + convFix + `';
		INSERT INTO ai_queries (exchange_id, conversation_id, start_ts, input, working_directory, output_status, model_id)
		VALUES ('ex-e3', '` + convOld + `', '2026-02-01 08:35:00', '[{"Query":{"text":"thanks","context":[],"referenced_attachments":{}}}]', '/home/dev', '"Completed"', 'gpt-4o')`); err != nil {
		t.Fatal(err)
	}
	rep := it.Run(t, st, &Source{}, db)
	if rep.Sessions != 1 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	after := it.Dump(t, st)
	for _, id := range []string{convFix, taskSub, convChild} {
		if lines(after[id].Msgs) != lines(before[id].Msgs) || after[id].Title != before[id].Title || after[id].ActualCostUSD != before[id].ActualCostUSD {
			t.Errorf("%s changed:\n%s\n%+v", id, lines(after[id].Msgs), after[id].Session)
		}
	}
	if n := len(after[convOld].Msgs); n != 3 || after[convOld].Msgs[2].Content != "thanks" {
		t.Errorf("%s: %s", convOld, lines(after[convOld].Msgs))
	}
}

// TestNotWarp: a database without Warp's tables is named, not read.
func TestNotWarp(t *testing.T) {
	p := filepath.Join(t.TempDir(), DBName)
	it.LiveDB(t, p, "", "CREATE TABLE sessions (id TEXT)")
	if _, err := (&Source{}).Import(t.Context(), it.Open(t), p); err == nil || !strings.Contains(err.Error(), "not Warp's warp.sqlite") {
		t.Errorf("err %v", err)
	}
}
