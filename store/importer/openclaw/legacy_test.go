package openclaw

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// legacyHome is what OpenClaw 2026.7.1, the last release keeping
// transcripts as files, wrote (testdata/agents/openclaw-legacy/drive.sh).
func legacyHome(t *testing.T) string {
	return filepath.Join(it.AgentHome(t, "openclaw-legacy"), ".openclaw")
}

// TestLegacyFixtures imports the JSONL era: agents/main/sessions/<id>.jsonl
// read with Pi's parser (thinking, exec and read calls with their results,
// the second turn of a session), sessions.json's keys kept for resume.
func TestLegacyFixtures(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, legacyHome(t))
	if rep.Files != 4 || rep.Sessions != 4 || rep.Messages != 14 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 4 files, 4 sessions, 14 messages", rep)
	}
	d := it.Dump(t, st)
	for id, n := range map[string]int{"oc-qa": 2, "oc-tools": 4, "oc-fail": 4, "oc-zh": 4} {
		s := d[id]
		if len(s.Msgs) != n || s.Source != SourceName || s.Model != "fake-model" || s.Cwd != "/tmp/drv-openclaw-legacy/home/work/demo" ||
			s.InputTokens == 0 || s.ModelConfig != `{"session_key":"agent:main:explicit:`+id+`"}` {
			t.Errorf("%s: %d messages (want %d), %+v", id, len(s.Msgs), n, s.Session)
		}
	}
	if a := d["oc-qa"].Msgs[1]; !strings.HasPrefix(a.Reasoning, "The person wants a generic Go function") || !strings.Contains(a.Content, "```go") {
		t.Errorf("thinking and markdown: %s", a)
	}
	tools := d["oc-tools"].Msgs
	if !strings.Contains(tools[1].ToolCalls, `"name":"exec"`) || tools[2].Role != "tool" || tools[2].ToolName != "exec" || tools[2].Content != "3 notes.txt" {
		t.Errorf("exec: %v", tools)
	}
	if r := d["oc-fail"].Msgs[2]; r.Role != "tool" || r.ToolName != "read" || !strings.HasPrefix(r.Content, "Error: ") || !strings.Contains(r.Content, "/nonexistent/config.yaml") {
		t.Errorf("failing read: %s", r)
	}
	zh := d["oc-zh"].Msgs
	if zh[0].Content != "请用中文解释 Go 的切片" || zh[1].Reasoning != "用户要求用中文回答。" || zh[2].Content != "再举一个例子" {
		t.Errorf("chinese, two turns: %v", zh)
	}
	if rep := it.Run(t, st, &Source{}, legacyHome(t)); rep.Unchanged != 4 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestLegacyReset: a /reset renames the transcript <id>.jsonl.reset.<time>
// and the key gets a new session; the renamed file is still found and
// what it holds stays under its session, once.
func TestLegacyReset(t *testing.T) {
	dir := it.CopyTree(t, legacyHome(t))
	sessions := filepath.Join(dir, "agents", "main", "sessions")
	st := it.Open(t)
	it.Run(t, st, &Source{}, dir)
	if err := os.Rename(filepath.Join(sessions, "oc-zh.jsonl"), filepath.Join(sessions, "oc-zh.jsonl.reset.2026-12-05T22-10-00.000Z")); err != nil {
		t.Fatal(err)
	}
	it.Run(t, st, &Source{}, dir)
	if n := len(it.Dump(t, st)["oc-zh"].Msgs); n != 4 {
		t.Errorf("after the reset rename: %d messages, want 4", n)
	}
}

// TestDiscover finds transcripts and agent databases under a state folder,
// and leaves out runtime traces, archives of a migration, cold archives and
// workspaces.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	it.Files(t, dir, "agents/main/sessions/a.jsonl", "agents/main/sessions/a.trajectory.jsonl", "agents/main/sessions/sessions.json",
		"agents/main/sessions/b.jsonl.reset.2026-01-01T00-00-00.000Z", "agents/main/sessions/c.jsonl.deleted.2026-01-01T00-00-00.000Z",
		"agents/main/sessions/cold/0a.jsonl.zst", "agents/main/session-sqlite-import-archive/sessions/d.jsonl",
		"agents/ops/agent/openclaw-agent.sqlite", "agents/ops/agent/openclaw-agent.sqlite-wal", "workspace/sessions/notes.jsonl")
	want := "agents/ops/agent/openclaw-agent.sqlite agents/main/sessions/a.jsonl agents/main/sessions/b.jsonl.reset.2026-01-01T00-00-00.000Z"
	if got := it.Found(t, &Source{}, dir); got != want {
		t.Errorf("discover = %s, want %s", got, want)
	}
	t.Setenv("OPENCLAW_STATE_DIR", dir)
	if p := (&Source{}).DefaultPaths(); len(p) != 1 || p[0] != dir {
		t.Errorf("default paths %v", p)
	}
}

// TestLegacySubAgent: sessions.json names the session key that spawned a
// session (spawnedBy); its transcript becomes that session's child, marked
// _delegate_from and titled by its label. The entry and file are added to
// a copy of the fixture in the shapes 2026.7.1 writes.
func TestLegacySubAgent(t *testing.T) {
	dir := it.CopyTree(t, legacyHome(t))
	sessions := filepath.Join(dir, "agents", "main", "sessions")
	raw, err := os.ReadFile(filepath.Join(sessions, "oc-tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	it.Write(t, filepath.Join(sessions, "sub-1.jsonl"), strings.Replace(string(raw), `"id":"oc-tools"`, `"id":"sub-1"`, 1))
	index, err := os.ReadFile(filepath.Join(sessions, "sessions.json"))
	if err != nil {
		t.Fatal(err)
	}
	entry := `{"agent:main:subagent:5f2e": {"sessionId": "sub-1", "updatedAt": 1796508000000, "label": "Count lines", "spawnedBy": "agent:main:explicit:oc-qa"},`
	it.Write(t, filepath.Join(sessions, "sessions.json"), strings.Replace(string(index), "{", entry, 1))
	st := it.Open(t)
	it.Run(t, st, &Source{}, dir)
	s := it.Dump(t, st)["sub-1"]
	if s.ParentID != "oc-qa" || s.Title != "Count lines" || len(s.Msgs) != 4 ||
		s.ModelConfig != `{"_delegate_from":"oc-qa","session_key":"agent:main:subagent:5f2e"}` {
		t.Errorf("sub-agent %+v", s.Session)
	}
}
