package amazonq

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// fixtureDB builds data.sqlite3 from the fixture's SQL with the native shell.
func fixtureDB(t *testing.T, dir string) string {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not on PATH")
	}
	db := filepath.Join(t.TempDir(), "data.sqlite3")
	cmd := exec.Command("sqlite3", "-bail", db, ".read "+filepath.Join(it.Fixtures(t, dir), "schema.sql"), ".read "+filepath.Join(it.Fixtures(t, dir), "seed.sql"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	return db
}

func TestImport(t *testing.T) {
	db := fixtureDB(t, "amazonq")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Dir(db))
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 14 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	const q1 = "5f0c3a1e-8b2d-4f6a-9c3e-1a2b3c4d5e6f"
	it.SameSession(t, d[q1].Session, store.Session{ID: q1, Source: SourceName, Model: "claude-sonnet-4", Title: "why does cargo build fail with linker `cc` not found?",
		StartedAt: it.Time("2025-09-02T07:00:00.120456Z"), EndedAt: it.Time("2025-09-02T07:00:08Z"), Cwd: "/home/dev/api", MessageCount: 7, ToolCallCount: 2})
	it.SameMsgs(t, q1, d[q1].Msgs, []it.Msg{
		{Role: "user", Content: "why does cargo build fail with linker `cc` not found?"},
		{Role: "assistant", Content: "Let me check for a C compiler.", ToolCalls: it.Calls("tooluse_A1", "execute_bash", `{"command":"which cc gcc","summary":"find a C compiler"}`)},
		{Role: "tool", Content: `{"exit_status":"1","stdout":"","stderr":""}`, ToolCallID: "tooluse_A1", ToolName: "execute_bash", Finish: "error"},
		{Role: "assistant", ToolCalls: it.Calls("tooluse_A2", "fs_read", `{"operations":[{"mode":"Line","path":"/etc/os-release"}]}`)},
		{Role: "tool", Content: `PRETTY_NAME="Debian GNU/Linux 13 (trixie)"`, ToolCallID: "tooluse_A2", ToolName: "fs_read"},
		{Role: "assistant", Content: "No C compiler is installed. Install one with `sudo apt-get install build-essential`."},
		{Role: "user", Content: "The user could not build a Rust crate: no C compiler; build-essential fixes it.", Kind: "compaction"},
	})
	q2 := d["7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d"]
	if q2.Cwd != "/home/dev/tool" || q2.Msgs[4].Finish != "error" || !strings.HasPrefix(q2.Msgs[4].Content, "cancelled") || q2.Msgs[5].Content != "stop, never mind" {
		t.Errorf("cancelled tool use: %+v %v", q2.Session, q2.Msgs)
	}
	if rep := it.Run(t, st, &Source{}, filepath.Dir(db)); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("second import: %+v", rep)
	}
}
