package pi

import (
	"os"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/importtest"
)

// agentHome is testdata/agents/<agent>/home, the files the agent wrote.
func agentHome(t *testing.T, agent string) string {
	t.Helper()
	return importtest.AgentHome(t, agent)
}

// shape is a session reduced to what the test checks: its first user
// text, its roles in order, its parent's first user text.
type shape struct {
	first, roles, parent string
	calls, reasoning     int
}

func shapes(t *testing.T, d map[string]importtest.Session) map[string]shape {
	t.Helper()
	firstOf := func(s importtest.Session) string {
		for _, m := range s.Msgs {
			if m.Role == "user" {
				return m.Content
			}
		}
		return ""
	}
	out := map[string]shape{}
	for _, s := range d {
		sh := shape{first: firstOf(s)}
		var roles []string
		for _, m := range s.Msgs {
			roles = append(roles, m.Role[:1])
			if m.ToolCalls != "" {
				sh.calls++
			}
			if m.Reasoning != "" {
				sh.reasoning++
			}
		}
		sh.roles = strings.Join(roles, "")
		if s.ParentID != "" {
			sh.parent = firstOf(d[s.ParentID])
		}
		out[sh.first] = sh
	}
	return out
}

// TestPiFixtures imports the sessions Pi 0.73 wrote (testdata/agents/pi):
// every session, role, tool call and thinking block, the in-place branch
// as a child session holding only its own turns, and the fork as a child
// of its origin without the copied turns.
func TestPiFixtures(t *testing.T) {
	src, _ := importer.Lookup("pi")
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, agentHome(t, "pi"))
	if rep.Files != 5 || rep.Sessions != 6 || rep.Messages != 18 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 5 files, 6 sessions, 18 messages", rep)
	}
	d := importtest.Dump(t, st)
	want := []shape{
		{first: "How do I reverse a slice in Go? Show code.", roles: "ua", reasoning: 1},
		{first: "Please count the lines in notes.txt", roles: "uata", calls: 1},
		{first: "Read the missing config at /nonexistent/config.yaml", roles: "uata", calls: 1},
		{first: "请用中文解释 Go 的切片", roles: "uaua", reasoning: 1},
		{first: "And in Rust?", roles: "ua", parent: "请用中文解释 Go 的切片"},
		{first: "Try another way", roles: "ua", parent: "How do I reverse a slice in Go? Show code."},
	}
	got := shapes(t, d)
	if len(got) != len(want) {
		t.Errorf("%d sessions, want %d: %v", len(got), len(want), got)
	}
	for _, w := range want {
		if g := got[w.first]; g != w {
			t.Errorf("session %q = %+v, want %+v", w.first, g, w)
		}
	}
	for _, s := range d {
		if s.Source != "pi" || s.Model != "fake-model" || !strings.HasSuffix(s.Cwd, "/work/demo") {
			t.Errorf("session %s: source %q model %q cwd %q", s.ID, s.Source, s.Model, s.Cwd)
		}
		for _, m := range s.Msgs {
			if m.Role == "tool" && strings.Contains(m.Content, "ENOENT") && !strings.HasPrefix(m.Content, "Error: ") {
				t.Errorf("failed read not marked as an error: %q", m.Content)
			}
		}
	}
	// The in-place branch and the fork are listed as conversations of
	// their own (the shared start reached through the lineage).
	listed := importtest.Listed(t, st)
	for _, s := range d {
		if !listed[s.ID] {
			t.Errorf("session %s (parent %q) not listed", s.ID, s.ParentID)
		}
	}
	if rep := importtest.Run(t, st, src, agentHome(t, "pi")); rep.Unchanged != 5 || rep.Messages != 0 {
		t.Errorf("second import = %+v, want 5 unchanged", rep)
	}
}

// TestPiAppendAndBranch grows a session file as Pi does: a reply appended
// is imported alone, and a second child of an earlier entry (a /tree
// branch written after the first import) becomes a new branch session.
func TestPiAppendAndBranch(t *testing.T) {
	src, _ := importer.Lookup("pi")
	dir := importtest.CopyTree(t, agentHome(t, "pi"))
	st := importtest.Open(t)
	importtest.Run(t, st, src, dir)
	files, _ := src.Discover([]string{dir})
	var file string
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), "count the lines") {
			file = f
		}
	}
	importtest.Append(t, file,
		`{"type":"message","id":"aaaa0001","parentId":"da077dd9","timestamp":"2026-12-05T10:40:00.000Z","message":{"role":"user","content":[{"type":"text","text":"thanks"}],"timestamp":1796467200000}}`+"\n"+
			`{"type":"message","id":"aaaa0002","parentId":"52fdb1e4","timestamp":"2026-12-05T10:41:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"再试一次"}],"model":"m2","stopReason":"stop","timestamp":1796467260000}}`+"\n")
	rep := importtest.Run(t, st, src, dir)
	if rep.Files != 1 || rep.Messages != 2 {
		t.Fatalf("append import = %+v, want 1 file, 2 messages", rep)
	}
	d := importtest.Dump(t, st)
	var main, branch importtest.Session
	for _, s := range d {
		for _, m := range s.Msgs {
			if m.Content == "thanks" {
				main = s
			}
			if m.Content == "再试一次" {
				branch = s
			}
		}
	}
	if len(main.Msgs) != 5 || branch.ParentID != main.ID || len(branch.Msgs) != 1 || branch.ID != main.ID+"@aaaa0002" {
		t.Errorf("main %s (%d msgs), branch %s parent %s (%d msgs)", main.ID, len(main.Msgs), branch.ID, branch.ParentID, len(branch.Msgs))
	}
}

// TestOmpFixtures imports what Oh My Pi 18.2.3 wrote (testdata/agents/omp):
// its padded title line before the header, provider/model model changes,
// and the --fork session as a child of its origin without the copied turns.
func TestOmpFixtures(t *testing.T) {
	src, _ := importer.Lookup("omp")
	st := importtest.Open(t)
	rep := importtest.Run(t, st, src, agentHome(t, "omp"))
	if rep.Files != 5 || rep.Sessions != 5 || rep.Messages != 16 || rep.Malformed != 0 {
		t.Fatalf("report = %+v, want 5 files, 5 sessions, 16 messages", rep)
	}
	want := []shape{
		{first: "How do I reverse a slice in Go? Show code.", roles: "ua", reasoning: 1},
		{first: "Please count the lines in notes.txt", roles: "uata", calls: 1},
		{first: "Read the missing config at /nonexistent/config.yaml", roles: "uata", calls: 1},
		{first: "请用中文解释 Go 的切片", roles: "uaua", reasoning: 1},
		{first: "Try another way", roles: "ua", parent: "How do I reverse a slice in Go? Show code."},
	}
	got := shapes(t, importtest.Dump(t, st))
	for _, w := range want {
		if g := got[w.first]; g != w {
			t.Errorf("session %q = %+v, want %+v", w.first, g, w)
		}
	}
}
