package codex

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	s1     = "0197a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b" // main session
	s2     = "0197a1c8-1f2e-7d3c-9b4a-5e6f7a8b9c0d" // fork of s1
	s3     = "0197a1d0-4b5c-7a6d-8e9f-1a2b3c4d5e6f" // sub-agent of s1, .jsonl.zst
	s4     = "0196f2e1-7a8b-7c9d-9e0f-a1b2c3d4e5f6" // archived
	legacy = "0196e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f" // single-document .json
)

const day = "sessions/2026/06/04/"

// wantS1: the injected AGENTS.md and <environment_context> user items are
// dropped; each user and assistant text, written both as a response_item
// and as an event_msg, is stored once, but the user's second "Fix it." (a
// later turn) is kept.
var wantS1 = []it.Msg{
	{Role: "user", Content: "Why are invoice totals off by a cent?"},
	{Role: "assistant", ToolCalls: it.Calls("call_a1", "shell_command", `{"command":"rg -n round src/invoice.ts","workdir":"/home/dev/billing"}`),
		Reasoning: "**Looking at rounding in invoice totals**", Finish: "tool_calls"},
	{Role: "tool", Content: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\n14:    line.total = Math.round(line.qty * line.price * 100) / 100;\n22:  return Math.round(sum * 100) / 100;\n",
		ToolCallID: "call_a1", ToolName: "shell_command"},
	{Role: "assistant", Content: "Totals are rounded per line item and again on the sum; round once, at the end."},
	{Role: "user", Content: "Fix it."},
	{Role: "assistant", ToolCalls: it.Calls("call_a2", "apply_patch", "*** Begin Patch\n*** Update File: src/invoice.ts\n@@\n-    line.total = Math.round(line.qty * line.price * 100) / 100;\n+    line.total = line.qty * line.price;\n*** End Patch\n"),
		Finish: "tool_calls"},
	{Role: "tool", Content: "Success. Updated the following files:\nM src/invoice.ts\n", ToolCallID: "call_a2", ToolName: "apply_patch"},
	{Role: "assistant", Content: "Fixed: line totals are no longer rounded, only the invoice sum."},
	{Role: "user", Content: "Fix it."},
	{Role: "assistant", Content: "It is already fixed; pnpm test passes."},
}

var wantS2 = []it.Msg{
	{Role: "user", Content: "Now add VAT per line."},
	{Role: "assistant", Content: "Added a vatRate field and a per-line VAT amount."},
}

var wantS3 = []it.Msg{
	{Role: "user", Content: "Find every caller of computeTotal."},
	{Role: "assistant", ToolCalls: it.Calls("call_s1", "shell_command", `{"command":"rg -n computeTotal src"}`), Finish: "tool_calls"},
	{Role: "tool", Content: "Exit code: 0\nOutput:\nsrc/api.ts:8:computeTotal(inv)\n", ToolCallID: "call_s1", ToolName: "shell_command"},
	{Role: "assistant", Content: "One caller: src/api.ts line 8."},
}

var wantS4 = []it.Msg{
	{Role: "user", Content: "Alias ll to ls -la."}, // "## My request for Codex:" stripped
	{Role: "assistant", Content: "Added alias ll='ls -la' to .zshrc."},
}

var wantLegacy = []it.Msg{
	{Role: "user", Content: "List the files in this repo."},
	{Role: "assistant", ToolCalls: it.Calls("call_l1", "shell", `{"command":["ls"]}`), Reasoning: "Use ls.", Finish: "tool_calls"},
	{Role: "tool", Content: "README.md\nsrc\n", ToolCallID: "call_l1", ToolName: "shell"},
	{Role: "assistant", Content: "The repo has README.md and src/."},
}

func TestImportFixture(t *testing.T) {
	st := it.Open(t)
	home := it.Fixtures(t, "codex")
	rep := it.Run(t, st, &Source{}, home)
	if rep.Files != 5 || rep.Messages != 22 || rep.Malformed != 0 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if got, want := strings.Join(it.IDs(d), " "), strings.Join([]string{legacy, s4, s1, s2, s3}, " "); got != want {
		t.Fatalf("sessions = %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: s1, Source: "codex", Model: "gpt-5.1-codex", Title: "Invoice rounding off by a cent",
			StartedAt: it.Time("2026-06-04T10:15:30.100Z"), EndedAt: it.Time("2026-06-04T10:17:03.010Z"),
			InputTokens: 9800, CacheReadTokens: 6000, OutputTokens: 690, ReasoningTokens: 300,
			Cwd: "/home/dev/billing", GitBranch: "feat/invoices", MessageCount: 10, ToolCallCount: 2}, wantS1},
		{store.Session{ID: s2, Source: "codex", Model: "gpt-5.1-codex", ParentID: s1, ModelConfig: `{"_branched_from":"` + s1 + `"}`,
			Title:     "VAT per invoice line", // from session_index.jsonl
			StartedAt: it.Time("2026-06-04T11:02:00Z"), EndedAt: it.Time("2026-06-04T11:02:09Z"),
			Cwd: "/home/dev/billing", GitBranch: "feat/invoices-tax", MessageCount: 2}, wantS2},
		{store.Session{ID: s3, Source: "codex", ParentID: s1, ModelConfig: `{"_delegate_from":"` + s1 + `"}`,
			StartedAt: it.Time("2026-06-04T10:16:03Z"), EndedAt: it.Time("2026-06-04T10:16:05Z"),
			Cwd: "/home/dev/billing", MessageCount: 4, ToolCallCount: 1}, wantS3},
		{store.Session{ID: s4, Source: "codex", StartedAt: it.Time("2026-05-20T08:00:00Z"), EndedAt: it.Time("2026-05-20T08:00:04Z"),
			Cwd: "/home/dev/dotfiles", MessageCount: 2}, wantS4},
		{store.Session{ID: legacy, Source: "codex", StartedAt: it.Time("2025-04-18T16:20:11.052Z"), EndedAt: it.Time("2025-04-18T16:20:11.052Z"),
			MessageCount: 4, ToolCallCount: 1}, wantLegacy},
	} {
		t.Run(tc.want.ID, func(t *testing.T) {
			it.SameSession(t, d[tc.want.ID].Session, tc.want)
			it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
		})
	}

	rep = it.Run(t, st, &Source{}, home)
	if rep.Files != 0 || rep.Unchanged != 5 || rep.Messages != 0 || rep.Sessions != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
	if n := it.Count(it.Dump(t, st)); n != 22 {
		t.Errorf("after re-import: %d messages, want 22", n)
	}
}

func TestGrownRollout(t *testing.T) {
	home := it.CopyTree(t, it.Fixtures(t, "codex"))
	file := filepath.Join(home, day+"rollout-2026-06-04T10-15-30-"+s1+".jsonl")
	st := it.Open(t)
	it.Run(t, st, &Source{}, home)
	it.Append(t, file, `{"timestamp":"2026-06-04T10:20:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix it."}]}}
{"timestamp":"2026-06-04T10:20:00.010Z","type":"event_msg","payload":{"type":"user_message","message":"Fix it.","images":[]}}
{"timestamp":"2026-06-04T10:20:04.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Nothing left to fix."}}
{"timestamp":"2026-06-04T10:20:04.010Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Nothing left to fix."}]}}
{"timestamp":"2026-06-04T10:20:05.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":12000,"cached_input_tokens":8000,"output_tokens":720,"reasoning_output_tokens":300}}}}
`)
	rep := it.Run(t, st, &Source{}, home)
	if rep.Files != 1 || rep.Unchanged != 4 || rep.Messages != 2 {
		t.Errorf("grown report = %+v", rep)
	}
	d := it.Dump(t, st)
	want := append(append([]it.Msg{}, wantS1...), it.Msg{Role: "user", Content: "Fix it."}, it.Msg{Role: "assistant", Content: "Nothing left to fix."})
	it.SameMsgs(t, "grown", d[s1].Msgs, want)
	if s := d[s1]; s.InputTokens != 12000 || s.CacheReadTokens != 8000 || s.Title != "Invoice rounding off by a cent" {
		t.Errorf("grown session = %+v", s.Session)
	}
}

// TestCompressed: a plain .jsonl beats its .jsonl.zst; a rollout that is
// compressed after it was imported adds nothing the second time.
func TestCompressed(t *testing.T) {
	home := it.CopyTree(t, it.Fixtures(t, "codex"))
	zst := filepath.Join(home, day+"rollout-2026-06-04T10-16-03-"+s3+".jsonl.zst")
	plain := strings.TrimSuffix(zst, ".zst")
	f, err := os.Open(zst)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(dec)
	dec.Close()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	it.Write(t, plain, string(raw))
	files, err := (&Source{}).Discover([]string{home})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f == zst {
			t.Errorf("Discover kept %s next to its plain .jsonl", f)
		}
	}
	st := it.Open(t)
	it.Run(t, st, &Source{}, plain)
	if err := os.Remove(plain); err != nil {
		t.Fatal(err)
	}
	rep := it.Run(t, st, &Source{}, zst)
	if rep.Files != 1 || rep.Messages != 0 {
		t.Errorf("compressed again: report = %+v", rep)
	}
	it.SameMsgs(t, "s3", it.Dump(t, st)[s3].Msgs, wantS3)
}

func TestCorrupt(t *testing.T) {
	home := it.CopyTree(t, it.Fixtures(t, "codex"))
	fork := filepath.Join(home, day+"rollout-2026-06-04T11-02-00-"+s2+".jsonl")
	raw, _ := os.ReadFile(fork)
	lines := strings.SplitAfter(string(raw), "\n")
	lines[1] = lines[1][:40] + "\n" // the turn_context line, cut
	it.Write(t, fork, strings.Join(lines, ""))
	zst := filepath.Join(home, day+"rollout-2026-06-04T10-16-03-"+s3+".jsonl.zst")
	zraw, _ := os.ReadFile(zst)
	it.Write(t, zst, string(zraw[:len(zraw)/2])) // a compressed stream cut short
	doc := filepath.Join(home, "sessions/2025/04/18/rollout-2025-04-18-"+legacy+".json")
	draw, _ := os.ReadFile(doc)
	it.Write(t, doc, string(draw[:len(draw)-40]))

	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, home)
	if rep.Failed != 2 || rep.Files != 3 || rep.Malformed != 1 {
		t.Errorf("report = %+v", rep)
	}
	all := it.Problems(rep)
	for _, want := range []string{fork + ":2: invalid JSON", zst + ": ", doc + ": "} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	d := it.Dump(t, st)
	it.SameMsgs(t, "fork", d[s2].Msgs, wantS2)
	it.SameMsgs(t, "main", d[s1].Msgs, wantS1)
	if _, ok := d[s3]; ok {
		t.Errorf("the cut .zst produced a session")
	}
}

func TestDiscover(t *testing.T) {
	home := it.Fixtures(t, "codex")
	all := []string{
		filepath.Join(home, "archived_sessions", "rollout-2026-05-20T08-00-00-"+s4+".jsonl"),
		filepath.Join(home, "sessions/2025/04/18/rollout-2025-04-18-"+legacy+".json"),
		filepath.Join(home, day+"rollout-2026-06-04T10-15-30-"+s1+".jsonl"),
		filepath.Join(home, day+"rollout-2026-06-04T10-16-03-"+s3+".jsonl.zst"),
		filepath.Join(home, day+"rollout-2026-06-04T11-02-00-"+s2+".jsonl"),
	}
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"home", []string{home}, all},
		{"default paths", []string{filepath.Join(home, "sessions"), filepath.Join(home, "archived_sessions")}, all},
		{"day folder", []string{filepath.Join(home, day)}, all[2:]},
		{"missing", []string{filepath.Join(home, "nope")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Source{}).Discover(tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
	t.Setenv("CODEX_HOME", home)
	if got := (&Source{}).DefaultPaths(); len(got) != 2 || got[0] != filepath.Join(home, "sessions") {
		t.Errorf("DefaultPaths = %v", got)
	}
}

func TestRegistered(t *testing.T) {
	if s, ok := importer.Lookup("codex"); !ok || s.Name() != SourceName {
		t.Errorf("Lookup(codex) = %v, %v", s, ok)
	}
}

// TestResponseItemKinds: every kind of response item a current rollout
// carries is imported: web searches (search, open_page) as web_search
// calls whose query and url are searchable (before: dropped), local shell
// and custom tool calls with their outputs, image generations with their
// prompt, and the reasoning's clear text after its summary.
func TestResponseItemKinds(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, it.Fixtures(t, "codex-items"))
	if rep.Malformed != 0 || len(rep.Problems) != 0 {
		t.Fatalf("report = %+v: %s", rep, it.Problems(rep))
	}
	const id = "019a8c11-2b3c-7d4e-9f5a-6b7c8d9e0f1a"
	want := []it.Msg{
		{Role: "user", Content: "Is the sqlc pgx/v5 driver stable yet? Then add a migration."},
		{Role: "assistant", ToolCalls: it.Calls("ws_0a1b2c", "web_search", `{"type":"search","query":"sqlc pgx v5 driver stable release"}`),
			Reasoning: "**Checking the sqlc release notes**\n\nThe user wants the current status of the pgx driver in sqlc.", Finish: "tool_calls"},
		{Role: "assistant", ToolCalls: it.Calls("ws_0a1b2d", "web_search", `{"type":"open_page","url":"https://docs.sqlc.dev/en/latest/guides/using-go-and-pgx.html"}`), Finish: "tool_calls"},
		{Role: "assistant", ToolCalls: it.Calls("call_ls1", "local_shell", `{"type":"exec","command":["bash","-lc","ls migrations"],"timeout_ms":10000,"working_directory":"/home/dev/ledger"}`), Finish: "tool_calls"},
		{Role: "tool", Content: "0001_init.sql\n0002_accounts.sql\n", ToolCallID: "call_ls1", ToolName: "local_shell"},
		{Role: "assistant", ToolCalls: it.Calls("call_ap1", "apply_patch", "*** Begin Patch\n*** Add File: migrations/0003_ledger_entries.sql\n+CREATE TABLE ledger_entries (id bigserial PRIMARY KEY);\n*** End Patch"), Finish: "tool_calls"},
		{Role: "tool", Content: "Success. Updated the following files:\nA migrations/0003_ledger_entries.sql\n", ToolCallID: "call_ap1", ToolName: "apply_patch"},
		{Role: "assistant", ToolCalls: it.Calls("ig_77", "image_generation", `{"prompt":"an entity diagram of the ledger_entries table"}`), Finish: "tool_calls"},
		{Role: "tool", Content: "[image]", ToolCallID: "ig_77", ToolName: "image_generation"},
		{Role: "assistant", Content: "sqlc's pgx/v5 driver is stable since 1.18; migration 0003 adds ledger_entries."},
	}
	it.SameMsgs(t, id, it.Dump(t, st)[id].Msgs, want)
	for _, q := range []string{"pgx v5 driver stable release", "docs.sqlc.dev"} {
		res, err := st.SearchMessages(context.Background(), q, store.SearchFilter{})
		if err != nil || len(res.Hits) == 0 {
			t.Errorf("the web search %q is not searchable: %v %v", q, res.Hits, err)
		}
	}
}
