package openhands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	convA = "8f1c2d3e4a5b4c6d8e9f0a1b2c3d4e5f"
	convS = "5e6f7a8b9c0d4e1f8a2b3c4d5e6f7a8b"
	convB = "0a1b2c3d4e5f46a7b8c9d0e1f2a3b4c5"
)

func TestImport(t *testing.T) {
	local := time.Local
	time.Local = time.UTC // the SDK writes datetime.now().isoformat(): local time, no zone
	t.Cleanup(func() { time.Local = local })
	dir := it.CopyTree(t, it.Fixtures(t, "openhands"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 3 || rep.Sessions != 3 || rep.Messages != 19 || rep.Skipped != 5 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d[convA].Session, store.Session{ID: convA, Source: SourceName, Model: "litellm_proxy/claude-sonnet-4-5-20250929",
		Title: "The checkout page returns 502 behind nginx", StartedAt: it.Time("2026-05-20T14:00:00.000001Z"), EndedAt: it.Time("2026-05-20T14:01:22Z"),
		Cwd: "/home/dev/shop", InputTokens: 24800, OutputTokens: 730, CacheReadTokens: 12000, MessageCount: 10, ToolCallCount: 3})
	it.SameMsgs(t, convA, d[convA].Msgs[:6], []it.Msg{
		{Role: "user", Content: "The checkout page returns 502 behind nginx"},
		{Role: "assistant", Content: "Reading the nginx error log.", Reasoning: "A 502 means the upstream closed or refused the connection.",
			ToolCalls: it.Calls("toolu_01A", "terminal", `{"command": "tail -n 5 /var/log/nginx/error.log", "security_risk": "LOW"}`)},
		{Role: "tool", Content: "upstream prematurely closed connection while reading response header from upstream", ToolCallID: "toolu_01A", ToolName: "terminal"},
		{Role: "assistant", ToolCalls: it.Calls("toolu_01B", "file_editor", `{"command": "view", "path": "/home/dev/shop/upstream.conf"}`)},
		{Role: "tool", Content: "[An error occurred during execution.]\nThe path /home/dev/shop/upstream.conf does not exist.", ToolCallID: "toolu_01B",
			ToolName: "file_editor", Finish: "error"},
		{Role: "assistant", Content: "The app server closes the connection before answering: raise `proxy_read_timeout` above the checkout's 60 s."},
	})
	sub := d[convS]
	if sub.ParentID != convA || sub.ModelConfig != `{"_delegate_from":"`+convA+`"}` || sub.Msgs[0].Kind != "agent" || sub.Title != "Check every vhost for proxy_read_timeout" {
		t.Errorf("sub-agent %+v %v", sub.Session, sub.Msgs)
	}
	b := d[convB].Msgs
	if b[1].Reasoning != "用户想要中文解释。" || b[2].Kind != "compaction" || b[4].Role != "tool" || b[4].Finish != "error" || b[4].ToolName != "terminal" {
		t.Errorf("condensation and agent error: %v", b)
	}

	// The SDK writes an event file, then base_state.json: the new event is read with the rest.
	cdir := filepath.Join(dir, "conversations", convB)
	it.Write(t, filepath.Join(cdir, "events", "event-00007-00000026-0000-4000-8000-000000000026.json"),
		`{"kind":"MessageEvent","id":"00000026-0000-4000-8000-000000000026","timestamp":"2026-05-21T08:11:00","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":"least_conn 把请求发给连接最少的后端。"}]}}`)
	raw, _ := os.ReadFile(filepath.Join(cdir, "base_state.json"))
	it.Write(t, filepath.Join(cdir, "base_state.json"), string(raw))
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Messages != 1 || rep.Unchanged != 2 {
		t.Errorf("after one more event: %+v", rep)
	}
	// A half-written event file is reported by its name, the others imported.
	it.Write(t, filepath.Join(cdir, "events", "event-00008-00000027-0000-4000-8000-000000000027.json"), `{"kind":"MessageEvent","id":"x`)
	it.Write(t, filepath.Join(cdir, "base_state.json"), string(raw))
	rep = it.Run(t, st, &Source{}, dir)
	if rep.Malformed != 1 || !strings.Contains(it.Problems(rep), "event-00008-") {
		t.Errorf("torn event: %+v %s", rep, it.Problems(rep))
	}
	if n := len(it.Dump(t, st)[convB].Msgs); n != 6 {
		t.Errorf("%d messages after a torn event", n)
	}
}
