package roo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	taskCart  = "019a4a1e-3b2c-7d41-9f00-2f1b6a7c0a01"
	taskPlan  = "019a4a2f-0c11-7b52-8e10-5d3e2a9f1b02"
	taskChild = "019a4a2f-9d40-7c63-a1f2-77c0e4d2b803"
	taskZH    = "019a4b00-1111-7e00-8a00-0c0ffee00004"
	taskOld   = "1731000000000"
	ws        = "/home/dev/shop"
)

// TestRooCode imports tasks laid out as Roo Code writes them
// (testdata/importers/roo-code/manifest.json names each shape's source).
func TestRooCode(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, it.Fixtures(t, "roo-code"))
	if rep.Files != 5 || rep.Sessions != 5 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	want := map[string]struct {
		title, cwd, parent string
		in, out, cache     int64
		cost               float64
	}{
		taskCart:  {"Why does the cart total drift by a cent? Fix it in src/cart.ts", ws, "", 18342, 611, 12032, 0.0421},
		taskPlan:  {"Plan the release notes for v2.3, then have a sub-task draft them", ws, "", 9120, 240, 0, 0.011},
		taskChild: {"Draft release notes for v2.3 from CHANGELOG.md, three bullets.", ws, taskPlan, 4100, 90, 0, 0.004},
		taskZH:    {"用中文解释购物车的舍入问题", ws, "", 3000, 120, 0, 0},
		// No history_item.json (before Roo Code kept one): titled by its
		// first prompt, its workspace from the environment details.
		taskOld: {"list the files in the repo", ws, "", 0, 0, 0, 0},
	}
	if len(d) != len(want) {
		t.Fatalf("sessions %v", it.IDs(d))
	}
	for id, w := range want {
		s := d[id]
		if s.Source != SourceName || s.Title != w.title || s.Cwd != w.cwd || s.ParentID != w.parent || s.InputTokens != w.in ||
			s.OutputTokens != w.out || s.CacheReadTokens != w.cache || s.EstimatedCostUSD != w.cost {
			t.Errorf("%s: %+v", id, s.Session)
		}
	}
	if c := d[taskChild]; c.ModelConfig != `{"_delegate_from":"`+taskPlan+`"}` || c.Msgs[0].Kind != store.DisplayKindAgent {
		t.Errorf("sub-task %+v %v", c.Session, c.Msgs[0])
	}
	env := d[taskCart].Msgs[1].Content
	var typed []string
	for _, m := range d[taskCart].Msgs {
		if m.Role == "user" && m.Kind == "" {
			typed = append(typed, m.Content)
		}
	}
	if strings.Join(typed, "|") != "Why does the cart total drift by a cent? Fix it in src/cart.ts|also divide by 100 when you display it" {
		t.Errorf("typed %q", typed)
	}
	var rest []it.Msg
	for _, m := range d[taskCart].Msgs {
		if m.Role != "user" {
			rest = append(rest, m)
		}
	}
	it.SameMsgs(t, "cart", rest, []it.Msg{
		{Role: "assistant", Content: "I'll look at how the total is computed.", Reasoning: "Floating point sums of prices; check how totals are computed.",
			ToolCalls: it.Calls("call_roo_01", "read_file", `{"files":[{"path":"src/cart.ts"}]}`)},
		{Role: "tool", Content: "File: src/cart.ts\n 1 | export const total = (items) => items.reduce((s, i) => s + i.price * i.qty, 0)\n", ToolCallID: "call_roo_01", ToolName: "read_file"},
		{Role: "assistant", ToolCalls: it.Calls("call_roo_02", "execute_command", `{"command":"npx vitest run cart","cwd":null,"timeout":null}`)},
		{Role: "tool", Content: `{"status":"error","message":"The tool execution failed","error":"Command exited with code 1: cart.test.ts expected 10.3 to be 10.31"}`,
			ToolCallID: "call_roo_02", ToolName: "execute_command", Finish: "error"},
		{Role: "assistant", Content: "Prices are summed as floats. I'll sum integer cents instead.",
			ToolCalls: it.Calls("call_roo_03", "apply_diff", `{"path":"src/cart.ts","diff":"<<<<<<< SEARCH\ns + i.price * i.qty\n=======\ns + Math.round(i.price * 100) * i.qty\n>>>>>>> REPLACE"}`)},
		{Role: "tool", Content: "Changes successfully applied to src/cart.ts", ToolCallID: "call_roo_03", ToolName: "apply_diff"},
		// attempt_completion's result is the answer (written once: the
		// completion_result in ui_messages.json repeats it).
		{Role: "assistant", Content: "The total now sums integer cents (Math.round(price * 100) * qty), so it no longer drifts by a cent."},
		{Role: "assistant", Content: "Display now divides by 100: `(total / 100).toFixed(2)`."},
	})
	if !strings.HasPrefix(env, "<environment_details>") || d[taskCart].Msgs[1].Kind != store.DisplayKindAgent {
		t.Errorf("environment details %v", d[taskCart].Msgs[1])
	}
	zh := d[taskZH].Msgs
	if zh[3].Kind != store.DisplayKindCompaction || !strings.HasPrefix(zh[3].Content, "## Conversation Summary") || zh[4].Content != "再举一个例子" {
		t.Errorf("condensed: %v", zh)
	}
	it.SameMsgs(t, "xml", d[taskOld].Msgs[2:4], []it.Msg{
		{Role: "assistant", Reasoning: "A listing is enough.", ToolCalls: it.Calls("xml:1731000000000:2:0", "list_files", `{"path":".","recursive":"false"}`)},
		{Role: "tool", Content: "package.json\nsrc/", ToolCallID: "xml:1731000000000:2:0", ToolName: "list_files"},
	})
	if rep := it.Run(t, st, &Source{}, it.Fixtures(t, "roo-code")); rep.Unchanged != 5 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestDefaultPaths: the extension's globalStorage in each editor, and the
// CLI's storage only when it holds tasks.
func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	code := filepath.Join(home, ".config", "Code", "User", "globalStorage", Extension)
	cursor := filepath.Join(home, ".config", "Cursor", "User", "globalStorage", Extension)
	cli := filepath.Join(home, ".vscode-mock", "global-storage")
	for _, d := range []string{code, cursor, cli} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := (&Source{}).DefaultPaths(); strings.Join(got, "|") != code+"|"+cursor {
		t.Errorf("paths %q", got)
	}
	if err := os.MkdirAll(filepath.Join(cli, "tasks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := (&Source{}).DefaultPaths(); len(got) != 3 || got[2] != cli {
		t.Errorf("paths %q", got)
	}
}
