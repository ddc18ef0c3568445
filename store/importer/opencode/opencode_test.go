package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/embed"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// agentHome copies testdata/agents/<agent>/home (the files the agent
// wrote) to a temporary folder: even a read-only open of a WAL database
// creates its -shm next to it.
func agentHome(t *testing.T, agent string) string {
	t.Helper()
	return importtest.CopyTree(t, importtest.AgentHome(t, agent))
}

// shape is a session reduced to what the tests check.
type shape struct {
	title, roles, parent, kinds string
	calls, reasoning            int
}

func shapes(d map[string]importtest.Session) map[string]shape {
	out := map[string]shape{}
	for _, s := range d {
		sh := shape{title: s.Title}
		var roles, kinds []string
		for _, m := range s.Msgs {
			roles = append(roles, m.Role[:1])
			if m.Kind != "" {
				kinds = append(kinds, m.Kind)
			}
			if m.ToolCalls != "" {
				sh.calls++
			}
			if m.Reasoning != "" {
				sh.reasoning++
			}
		}
		sh.roles, sh.kinds = strings.Join(roles, ""), strings.Join(kinds, ",")
		if s.ParentID != "" {
			sh.parent = d[s.ParentID].Title
		}
		out[s.Title] = sh
	}
	return out
}

// opencodeWant is what the sessions opencode-ai 1.18.33 wrote import as
// (testdata/agents/opencode): titles, roles in order, tool calls, thinking,
// the task sub-agent as a child whose prompt is marked as the agent's, the
// fork as a child of its origin without the copied turns.
var opencodeWant = []shape{
	{title: "Reverse a slice in Go", roles: "ua", reasoning: 1},
	{title: "Count lines in notes.txt", roles: "uata", calls: 1},
	{title: "Read a missing config", roles: "uata", calls: 1},
	{title: "Go 切片的中文解释", roles: "uaua", reasoning: 1},
	{title: "Find TODOs with a sub-agent", roles: "uata", calls: 1},
	{title: "Find TODO comments (@general subagent)", roles: "uata", calls: 1, kinds: "agent", parent: "Find TODOs with a sub-agent"},
	{title: "Reverse a slice in Go (fork #1)", roles: "ua", parent: "Reverse a slice in Go"},
}

func TestOpenCodeFixtures(t *testing.T) {
	src, _ := importer.Lookup("opencode")
	home := agentHome(t, "opencode")
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, home)
	if rep.Files != 1 || rep.Sessions != 7 || rep.Messages != 24 || rep.Malformed != 0 || rep.Failed != 0 {
		t.Fatalf("report = %+v, want 1 file, 7 sessions, 24 messages", rep)
	}
	d := importtest.Dump(t, st)
	got := shapes(d)
	if len(got) != len(opencodeWant) {
		t.Errorf("%d sessions, want %d: %v", len(got), len(opencodeWant), got)
	}
	for _, w := range opencodeWant {
		if g := got[w.title]; g != w {
			t.Errorf("session %q = %+v, want %+v", w.title, g, w)
		}
	}
	for _, s := range d {
		if s.Source != "opencode" || s.Model != "fake-model" || !strings.HasSuffix(s.Cwd, "/work/demo") || s.InputTokens == 0 || s.StartedAt.IsZero() {
			t.Errorf("session %s: %+v", s.ID, s.Session)
		}
		for _, m := range s.Msgs {
			if m.Role == "tool" && m.ToolName == "read" && m.Content != "Error: File not found: /nonexistent/config.yaml" {
				t.Errorf("failed read = %q", m.Content)
			}
			if m.Role == "assistant" && strings.Contains(m.ToolCalls, `"bash"`) && !strings.Contains(m.ToolCalls, `wc -l notes.txt`) {
				t.Errorf("bash call lost its arguments: %s", m.ToolCalls)
			}
		}
	}
	// The fork is listed as a conversation of its own, as OpenCode lists
	// it; the sub-agent's run is not.
	listed := importtest.Listed(t, st)
	for _, s := range d {
		sub := strings.Contains(s.Title, "subagent)")
		if listed[s.ID] == sub {
			t.Errorf("session %q listed %v", s.Title, listed[s.ID])
		}
	}
	if rep := importtest.Run(t, st, src, home); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("second import = %+v, want unchanged", rep)
	}
}

func dbPath(home, app string) string {
	return filepath.Join(home, ".local", "share", app, app+".db")
}

// TestOpenCodeIncremental adds a turn to one session as OpenCode does
// (a message row and its parts): the next import reads that session
// alone and adds its new messages.
func TestOpenCodeIncremental(t *testing.T) {
	src, _ := importer.Lookup("opencode")
	home := agentHome(t, "opencode")
	st := importtest.Open(t)
	importtest.Run(t, st, src, home)
	w, err := sqlite3.Open(dbPath(home, "opencode"))
	if err != nil {
		t.Fatal(err)
	}
	var sid string
	stmt, _, err := w.Prepare(`SELECT id FROM session WHERE title = 'Count lines in notes.txt'`)
	if err != nil {
		t.Fatal(err)
	}
	if stmt.Step() {
		sid = stmt.ColumnText(0)
	}
	stmt.Close()
	for _, q := range []string{
		`INSERT INTO message VALUES ('msg_zz1', '` + sid + `', 1896466000000, 1896466000000, '{"role":"user","time":{"created":1896466000000}}')`,
		`INSERT INTO part VALUES ('prt_zz1', 'msg_zz1', '` + sid + `', 1896466000000, 1896466000000, '{"type":"text","text":"再数一次"}')`,
		`INSERT INTO part VALUES ('prt_zz2', 'msg_zz1', '` + sid + `', 1896466000000, 1896466000000, '{"type":"text","text":"Called the Read tool","synthetic":true}')`,
	} {
		if err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	rep := importtest.Run(t, st, src, home)
	if rep.Sessions != 1 || rep.Messages != 2 {
		t.Fatalf("import after a new turn = %+v, want 1 session re-read, 2 new messages", rep)
	}
	s := importtest.Dump(t, st)[sid]
	last := s.Msgs[len(s.Msgs)-2:]
	if last[0].Content != "再数一次" || last[0].Kind != "" || last[1].Kind != store.DisplayKindAgent {
		t.Errorf("new turn = %v", last)
	}
}

// TestOpenCodeHalfWritten reads a database caught mid-write (here cut in
// half): nothing is imported, no file fails, and the next run, once the
// file is whole again, imports everything.
func TestOpenCodeHalfWritten(t *testing.T) {
	src, _ := importer.Lookup("opencode")
	home := agentHome(t, "opencode")
	db := dbPath(home, "opencode")
	whole, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	importtest.Write(t, db, string(whole[:len(whole)/3]))
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, home)
	if rep.Failed != 0 || rep.Messages != 0 || rep.Deferred != 1 || len(rep.Problems) != 1 || rep.Problems[0].File != db {
		t.Fatalf("half-written import = %+v, want nothing and no failure, the file named", rep)
	}
	importtest.Write(t, db, string(whole))
	if rep := importtest.Run(t, st, src, home); rep.Sessions != 7 || rep.Messages != 24 {
		t.Fatalf("import of the whole file = %+v, want 7 sessions, 24 messages", rep)
	}
}

// TestOpenCodeLegacyFixtures imports the storage/ JSON files opencode-ai
// 1.1.65 wrote (testdata/agents/opencode-legacy): the same sessions as the
// database, except that a fork, which these files do not link either, is
// a session of its own with the turns it copied.
func TestOpenCodeLegacyFixtures(t *testing.T) {
	src, _ := importer.Lookup("opencode")
	home := agentHome(t, "opencode-legacy")
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, home)
	if rep.Files != 7 || rep.Sessions != 7 || rep.Messages != 26 || rep.Malformed != 0 || rep.Failed != 0 {
		t.Fatalf("report = %+v, want 7 files, 7 sessions, 26 messages", rep)
	}
	got := shapes(importtest.Dump(t, st))
	for _, w := range opencodeWant {
		if strings.Contains(w.title, "(fork #1)") {
			w.roles, w.parent, w.reasoning = "uaua", "", 1
		}
		if g := got[w.title]; g != w {
			t.Errorf("session %q = %+v, want %+v", w.title, g, w)
		}
	}
	if rep := importtest.Run(t, st, src, home); rep.Unchanged != 7 || rep.Messages != 0 {
		t.Errorf("second import = %+v, want 7 unchanged", rep)
	}
}

// TestKiloFixtures imports the kilo.db @kilocode/cli 7.7.7 wrote
// (testdata/agents/kilo) with OpenCode's reader under the source "kilo":
// the same scenarios as OpenCode's, the task sub-agent and the fork linked.
// Kilo 7.7.7 did not ask the model for titles.
func TestKiloFixtures(t *testing.T) {
	src, _ := importer.Lookup("kilocode")
	home := agentHome(t, "kilo")
	files, err := src.Discover([]string{home})
	if err != nil || len(files) != 1 || filepath.Base(files[0]) != "kilo.db" {
		t.Fatalf("discover = %v, %v; want kilo.db alone (its storage/ is not a session layout)", files, err)
	}
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, home)
	if rep.Files != 1 || rep.Sessions != 7 || rep.Messages != 24 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 1 file, 7 sessions, 24 messages", rep)
	}
	firsts := map[string]string{}
	d := importtest.Dump(t, st)
	for _, s := range d {
		firsts[s.ID] = s.Msgs[0].Content
	}
	want := map[string]struct{ roles, parent string }{
		`"How do I reverse a slice in Go? Show code."`:          {"ua", ""},
		`"Please count the lines in notes.txt"`:                 {"uata", ""},
		`"Read the missing config at /nonexistent/config.yaml"`: {"uata", ""},
		`"请用中文解释 Go 的切片"`:                                       {"uaua", ""},
		`"Delegate: find the TODOs with a sub-agent"`:           {"uata", ""},
		`Search the project for TODO comments and list them.`:   {"uata", `"Delegate: find the TODOs with a sub-agent"`},
		`"Try another way"`:                                     {"ua", `"How do I reverse a slice in Go? Show code."`},
	}
	for _, s := range d {
		var roles []string
		for _, m := range s.Msgs {
			roles = append(roles, m.Role[:1])
		}
		w, ok := want[s.Msgs[0].Content]
		if !ok || strings.Join(roles, "") != w.roles || firsts[s.ParentID] != w.parent || s.Source != "kilo" {
			t.Errorf("session %s (%q): roles %v parent %q source %s", s.ID, s.Msgs[0].Content, roles, firsts[s.ParentID], s.Source)
		}
	}
}
