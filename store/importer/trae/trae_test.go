package trae

import (
	"path/filepath"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	lead  = "019a4c10-2b3d-7e4f-8a90-1b2c3d4e5f01"
	agent = "019a4c11-0a1b-7c2d-9e3f-4a5b6c7d8e02"
)

// TestTraeCLI: TRAE CLI's rollouts are Codex's, read by the codex reader
// under their own source (testdata/importers/trae-cli/manifest.json).
func TestTraeCLI(t *testing.T) {
	st := it.Open(t)
	root := it.Fixtures(t, "trae-cli")
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 2 || rep.Sessions != 2 || rep.Messages != 10 || rep.Malformed != 0 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	l, a := d[lead], d[agent]
	if l.Source != SourceName || l.Cwd != "/home/dev/shop" || l.Model != "doubao-seed-code" || l.GitBranch != "main" ||
		l.InputTokens != 15210 || l.OutputTokens != 402 || l.CacheReadTokens != 9984 || l.ReasoningTokens != 128 {
		t.Errorf("lead %+v", l.Session)
	}
	if a.Source != SourceName || a.ParentID != lead || a.ModelConfig != `{"_delegate_from":"`+lead+`"}` || a.InputTokens != 3100 {
		t.Errorf("sub-agent %+v", a.Session)
	}
	it.SameMsgs(t, "lead", l.Msgs, []it.Msg{
		{Role: "user", Content: "为什么购物车总价会差一分钱？让一个子智能体先看看测试"},
		{Role: "assistant", Reasoning: "Float sums drift; delegate reading the tests.", Finish: "tool_calls",
			ToolCalls: it.Calls("call_spawn_1", "spawn_agent", `{"agent_type":"explorer","message":"Read cart.test.ts and report the failing case."}`)},
		{Role: "tool", Content: `{"agent_id":"` + agent + `","nickname":"Sartre"}`, ToolCallID: "call_spawn_1", ToolName: "spawn_agent"},
		{Role: "assistant", Finish: "tool_calls", ToolCalls: it.Calls("call_shell_2", "shell", `{"command":["bash","-lc","npx vitest run cart"],"workdir":"/home/dev/shop"}`)},
		{Role: "tool", Content: "FAIL cart.test.ts > total\nexpected 10.3 to be 10.31\n", ToolCallID: "call_shell_2", ToolName: "shell"},
		{Role: "assistant", Content: "价格按浮点数相加，会产生舍入误差。改成按整数分求和即可。"},
	})
	if rep := it.Run(t, st, &Source{}, root); rep.Unchanged != 2 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestDefaultPaths: ~/.trae/cli's sessions and archived_sessions.
func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	got := (&Source{}).DefaultPaths()
	if len(got) != 2 || got[0] != filepath.Join(home, ".trae", "cli", "sessions") || got[1] != filepath.Join(home, ".trae", "cli", "archived_sessions") {
		t.Errorf("paths %q", got)
	}
}
