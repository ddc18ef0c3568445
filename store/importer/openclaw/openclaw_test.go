package openclaw

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// home is a copy of what OpenClaw 2026.9.6 wrote (testdata/agents/openclaw):
// its agent database, the transcripts in transcript_events.
func home(t *testing.T) string {
	return filepath.Join(it.CopyTree(t, it.AgentHome(t, SourceName)), ".openclaw")
}

func agentDB(root string) string {
	return filepath.Join(root, "agents", "main", "agent", "openclaw-agent.sqlite")
}

// TestFixtures imports the SQLite era: every session's events through
// Pi's parser (thinking, exec and read calls with their results, a second
// turn), the event OpenClaw stored zstd-compressed (oc-sub's tool result),
// model, cwd, tokens and the session key kept for resume.
func TestFixtures(t *testing.T) {
	root := home(t)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 1 || rep.Sessions != 5 || rep.Messages != 18 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 1 file, 5 sessions, 18 messages", rep)
	}
	d := it.Dump(t, st)
	for id, n := range map[string]int{"oc-qa": 2, "oc-tools": 4, "oc-fail": 4, "oc-zh": 4, "oc-sub": 4} {
		s := d[id]
		if len(s.Msgs) != n || s.Source != SourceName || s.Model != "fake-model" || s.Cwd != "/tmp/drv-openclaw/home/work/demo" ||
			s.InputTokens == 0 || s.OutputTokens == 0 || s.ModelConfig != `{"session_key":"agent:main:explicit:`+id+`"}` || s.StartedAt.IsZero() {
			t.Errorf("%s: %d messages (want %d), %+v", id, len(s.Msgs), n, s.Session)
		}
	}
	if a := d["oc-qa"].Msgs[1]; !strings.HasPrefix(a.Reasoning, "The person wants a generic Go function") || !strings.Contains(a.Content, "```go\nfunc Reverse") {
		t.Errorf("thinking and markdown: %s", a)
	}
	tools := d["oc-tools"].Msgs
	if !strings.Contains(tools[1].ToolCalls, `"name":"exec"`) || !strings.Contains(tools[1].ToolCalls, "wc -l notes.txt") ||
		tools[2].Role != "tool" || tools[2].ToolName != "exec" || tools[2].Content != "3 notes.txt" {
		t.Errorf("exec: %v", tools)
	}
	if r := d["oc-fail"].Msgs[2]; r.ToolName != "read" || !strings.HasPrefix(r.Content, "Error: ") {
		t.Errorf("failing read: %s", r)
	}
	zh := d["oc-zh"].Msgs
	if zh[0].Content != "请用中文解释 Go 的切片" || zh[1].Reasoning != "用户要求用中文回答。" || zh[2].Content != "再举一个例子" || !strings.HasPrefix(zh[3].Content, "另一个例子") {
		t.Errorf("chinese, two turns: %v", zh)
	}
	// OpenClaw compressed this tool result (event_zstd): decoded, it says
	// why the embedded run could not spawn the sub-agent.
	if r := d["oc-sub"].Msgs[2]; r.Role != "tool" || !strings.Contains(r.Content, "published reply runtime missing for main") {
		t.Errorf("compressed event: %s", r)
	}
	if rep := it.Run(t, st, &Source{}, root); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestSubAgentAndGrowth: a session spawned by another (session_windows
// spawned_by names the parent's session key) is its child, marked
// _delegate_from and titled by its label; a session that grows is read
// again (its rows replaced by key, none doubled), an unchanged one is not. The rows are added
// to a copy of the fixture the way OpenClaw's Gateway writes a spawned run
// (the embedded runs that made the fixture cannot spawn one).
func TestSubAgentAndGrowth(t *testing.T) {
	root := home(t)
	st := it.Open(t)
	it.Run(t, st, &Source{}, root)
	db, err := sqlite3.Open(agentDB(root))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const child = "sub-1"
	for _, sql := range []string{
		`PRAGMA ignore_check_constraints = ON`,
		`INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at, label)
		 VALUES ('agent:main:subagent:627e983b', '` + child + `', '{}', 1796508300000, 'Count words')`,
		`INSERT INTO session_windows (session_id, session_key, created_at, updated_at, model, spawned_by)
		 VALUES ('` + child + `', 'agent:main:subagent:627e983b', 1796508300000, 1796508310000, 'fake-model', 'agent:main:explicit:oc-sub')`,
		`INSERT INTO transcript_events (session_id, seq, event_json, created_at)
		 SELECT '` + child + `', seq, replace(event_json, '"id":"oc-tools"', '"id":"` + child + `"'), created_at FROM transcript_events WHERE session_id = 'oc-tools'`,
		`INSERT INTO transcript_events (session_id, seq, event_json, created_at)
		 SELECT 'oc-zh', 100, '{"type":"message","id":"z-extra","parentId":"' || json_extract(event_json, '$.id') ||
		 '","timestamp":"2026-12-05T22:06:00.000Z","message":{"role":"user","content":"第三个问题","timestamp":1796508360000}}', 1796508360000
		 FROM transcript_events WHERE session_id = 'oc-zh' ORDER BY seq DESC LIMIT 1`,
	} {
		if err := db.Exec(sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	rep := it.Run(t, st, &Source{}, root)
	if rep.Sessions != 2 || rep.Malformed != 0 {
		t.Errorf("second run = %+v, want the child and oc-zh read (the other sessions unchanged)", rep)
	}
	d := it.Dump(t, st)
	c := d[child]
	if c.ParentID != "oc-sub" || c.Title != "Count words" || len(c.Msgs) != 4 ||
		c.ModelConfig != `{"_delegate_from":"oc-sub","session_key":"agent:main:subagent:627e983b"}` {
		t.Errorf("sub-agent %+v", c.Session)
	}
	if zh := d["oc-zh"].Msgs; len(zh) != 5 || zh[4].Content != "第三个问题" {
		t.Errorf("grown session: %v", zh)
	}
	if l := it.Listed(t, st); l[child] || !l["oc-sub"] {
		t.Errorf("listed %v: a sub-agent's run is not a conversation of its own", l)
	}
}
