package auggie

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// The sessions Auggie 0.36.0 wrote against fake_augment.py
// (testdata/agents/auggie/drive.sh).
const (
	sessQA    = "f4b71e99-471e-410e-8ff3-42aa9faaca6e"
	sessTools = "e6140566-0e1e-4006-8ae4-1041ed5c222e"
	sessFail  = "d5d30b1c-a75e-4d1d-a44a-289e24c21911"
	sessZH    = "dcf01b6f-e140-4177-97fe-deed25fb3256"
	cwd       = "/tmp/drv-auggie/home/work/demo"
)

func sessions(t *testing.T) string {
	return filepath.Join(it.AgentHome(t, SourceName), ".augment", "sessions")
}

// TestFixtures imports what Auggie wrote: prompts, answers with markdown,
// thinking, tool calls with their results (a failing one marked), the
// --continue turn in the same session, cwd, times and tokens.
func TestFixtures(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Dir(sessions(t)))
	if rep.Files != 4 || rep.Sessions != 4 || rep.Messages != 14 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 4 files, 4 sessions, 14 messages", rep)
	}
	d := it.Dump(t, st)
	for id, n := range map[string]int{sessQA: 2, sessTools: 4, sessFail: 4, sessZH: 4} {
		s := d[id]
		if len(s.Msgs) != n || s.Cwd != cwd || s.Source != SourceName || s.InputTokens == 0 || s.StartedAt.IsZero() || !s.EndedAt.After(s.StartedAt) {
			t.Errorf("%s: %d messages (want %d), session %+v", id, len(s.Msgs), n, s.Session)
		}
	}
	qa := d[sessQA].Msgs
	if qa[1].Reasoning != "The person wants a generic Go function; slices.Reverse exists since Go 1.21." ||
		!strings.Contains(qa[1].Content, "```go\nfunc Reverse[T any]") || qa[1].Tokens == 0 {
		t.Errorf("answer with thinking: %s", qa[1])
	}
	tools := d[sessTools].Msgs
	it.SameMsgs(t, "tools", tools[:1], []it.Msg{{Role: "user", Content: "Please count the lines in notes.txt"}})
	call := tools[1]
	if call.Content != "I'll count them with wc." || !strings.Contains(call.ToolCalls, `"name":"launch-process"`) || !strings.Contains(call.ToolCalls, `wc -l notes.txt`) {
		t.Errorf("call: %s", call)
	}
	if r := tools[2]; r.Role != "tool" || r.ToolName != "launch-process" || !strings.Contains(r.Content, "<output>\n3 notes.txt") || r.Finish != "" ||
		!strings.Contains(call.ToolCalls, r.ToolCallID) {
		t.Errorf("result: %s", r)
	}
	if r := d[sessFail].Msgs[2]; r.Role != "tool" || r.ToolName != "view" || r.Content != "File not found: /nonexistent/config.yaml" || r.Finish != "error" {
		t.Errorf("failing view: %s", r)
	}
	zh := d[sessZH].Msgs
	if zh[0].Content != "请用中文解释 Go 的切片" || zh[1].Reasoning != "用户要求用中文回答。" || zh[2].Content != "再举一个例子" || !strings.HasPrefix(zh[3].Content, "另一个例子") {
		t.Errorf("chinese and --continue: %v", zh)
	}
	if rep := it.Run(t, st, &Source{}, filepath.Dir(sessions(t))); rep.Unchanged != 4 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestRewritten: Auggie rewrites the whole file after every exchange; a
// session read after its first exchange gets only the new rows later, and
// an exchange marked isHistorySummary (the summary Auggie sends in place
// of a long history) is a compaction summary, not a prompt.
func TestRewritten(t *testing.T) {
	dir := it.CopyTree(t, sessions(t))
	file := filepath.Join(dir, sessTools+".json")
	full, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(full, &doc); err != nil {
		t.Fatal(err)
	}
	hist := doc["chatHistory"].([]any)
	doc["chatHistory"] = hist[:1]
	it.Write(t, file, jsonMarshal(t, doc))
	st := it.Open(t)
	it.Run(t, st, &Source{}, file)
	if n := len(it.Dump(t, st)[sessTools].Msgs); n != 2 {
		t.Fatalf("first exchange: %d messages", n)
	}
	summary := map[string]any{"exchange": map[string]any{"request_message": "Summary of the earlier conversation: counted lines.",
		"response_text": "", "request_id": "sum-1", "request_nodes": []any{}, "response_nodes": []any{}},
		"completed": true, "sequenceId": 3, "finishedAt": "2026-12-05T21:40:00.000Z", "isHistorySummary": true}
	doc["chatHistory"] = append(hist, summary)
	it.Write(t, file, jsonMarshal(t, doc))
	rep := it.Run(t, st, &Source{}, file)
	msgs := it.Dump(t, st)[sessTools].Msgs
	if rep.Messages != 3 || len(msgs) != 5 || msgs[4].Kind != store.DisplayKindCompaction {
		t.Errorf("grown: %+v, %v", rep, msgs)
	}
}

// TestDiscover finds session files in ~/.augment/sessions.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	it.Files(t, dir, ".augment/sessions/a.json", ".augment/settings.json", ".augment/sessions/b.json")
	if got := it.Found(t, &Source{}, filepath.Join(dir, ".augment")); got != "sessions/a.json sessions/b.json" {
		t.Errorf("discover = %s", got)
	}
	t.Setenv("HOME", dir)
	if p := (&Source{}).DefaultPaths(); len(p) != 1 || p[0] != filepath.Join(dir, ".augment", "sessions") {
		t.Errorf("default paths %v", p)
	}
}

func jsonMarshal(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
