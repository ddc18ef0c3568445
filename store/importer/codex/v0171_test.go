package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// Rollouts as Codex CLI 0.171 writes them (shapes from its files, texts
// shortened): a parent, and a fork of it (codex exec fork) that does not
// copy the parent's items but whose token_count totals are the thread's.
const (
	parent0171 = "01a245c4-7946-7a53-8321-0c5f7803a0b5"
	fork0171   = "01a245c4-aeb4-7e50-8fca-69bffd8e7fcd"
)

var rollouts0171 = map[string]string{
	"rollout-2026-12-05T10-33-53-" + parent0171 + ".jsonl": strings.Join([]string{
		`{"timestamp":"2026-12-05T10:33:53.000Z","type":"session_meta","payload":{"id":"` + parent0171 + `","forked_from_id":null,"timestamp":"2026-12-05T10:33:53.000Z","cwd":"/fixture/project","originator":"codex_exec","source":"exec"}}`,
		`{"timestamp":"2026-12-05T10:33:54.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Search recall for the quokka."}]}}`,
		`{"timestamp":"2026-12-05T10:33:55.000Z","type":"response_item","payload":{"type":"function_call","status":"completed","name":"session_search","namespace":"mcp__recall","arguments":"{\"query\":\"quokka\"}","call_id":"call_1"}}`,
		`{"timestamp":"2026-12-05T10:33:55.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"success\":true,\"count\":0}"}}`,
		`{"timestamp":"2026-12-05T10:33:55.200Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":50,"reasoning_output_tokens":0,"total_tokens":1050},"last_token_usage":{"input_tokens":1000,"cached_input_tokens":0,"output_tokens":50,"reasoning_output_tokens":0,"total_tokens":1050}}}}`,
		`{"timestamp":"2026-12-05T10:33:56.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"No earlier session mentions it."}]}}`,
		`{"timestamp":"2026-12-05T10:33:56.100Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":2200,"cached_input_tokens":0,"output_tokens":80,"reasoning_output_tokens":0,"total_tokens":2280},"last_token_usage":{"input_tokens":1200,"cached_input_tokens":0,"output_tokens":30,"reasoning_output_tokens":0,"total_tokens":1230}}}}`,
	}, "\n") + "\n",
	"rollout-2026-12-05T10-34-07-" + fork0171 + ".jsonl": strings.Join([]string{
		`{"timestamp":"2026-12-05T10:34:07.000Z","type":"session_meta","payload":{"id":"` + fork0171 + `","forked_from_id":"` + parent0171 + `","timestamp":"2026-12-05T10:34:07.000Z","cwd":"/fixture/project","originator":"codex_exec","source":"exec"}}`,
		`{"timestamp":"2026-12-05T10:34:08.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Fork: where is the quokka?"}]}}`,
		`{"timestamp":"2026-12-05T10:34:09.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"In notes.txt."}]}}`,
		`{"timestamp":"2026-12-05T10:34:09.100Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":3400,"cached_input_tokens":0,"output_tokens":160,"reasoning_output_tokens":0,"total_tokens":3560},"last_token_usage":{"input_tokens":1200,"cached_input_tokens":0,"output_tokens":80,"reasoning_output_tokens":0,"total_tokens":1280}}}}`,
	}, "\n") + "\n",
}

// TestCodex0171: a fork counts its own tokens (the thread total less what
// was spent before it), is listed as a conversation of its own, and an MCP
// call keeps its server: mcp__recall__session_search.
func TestCodex0171(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "sessions", "2026", "12", "05")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range rollouts0171 {
		it.Write(t, filepath.Join(dir, name), body)
	}
	st := it.Open(t)
	it.Run(t, st, &Source{}, home)
	d := it.Dump(t, st)
	if s := d[parent0171]; s.InputTokens != 2200 || s.OutputTokens != 80 {
		t.Errorf("parent tokens %d/%d, want 2200/80", s.InputTokens, s.OutputTokens)
	}
	f := d[fork0171]
	if f.InputTokens != 1200 || f.OutputTokens != 80 || f.ParentID != parent0171 {
		t.Errorf("fork tokens %d/%d parent %q, want 1200/80 (its own request) and %s", f.InputTokens, f.OutputTokens, f.ParentID, parent0171)
	}
	want := it.Calls("call_1", "mcp__recall__session_search", `{"query":"quokka"}`)
	if m := d[parent0171].Msgs; len(m) < 3 || m[1].ToolCalls != want || m[2].ToolName != "mcp__recall__session_search" {
		t.Errorf("MCP call stored as %v, want %s", m, want)
	}
	list, err := st.RecentSessions(t.Context(), store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != fork0171 {
		t.Errorf("recent lists %d sessions, first %v; want the fork first, then its parent", len(list), list)
	}
}
