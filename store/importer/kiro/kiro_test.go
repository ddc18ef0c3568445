package kiro

import (
	"os/exec"
	"path/filepath"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

func TestImportConversationsV2(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not on PATH")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "data.sqlite3")
	fx := it.Fixtures(t, "kiro")
	if out, err := exec.Command("sqlite3", "-bail", db, ".read "+filepath.Join(fx, "schema.sql"), ".read "+filepath.Join(fx, "seed.sql")).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 6 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	k1, k2 := d["c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"], d["d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a"]
	if k1.Model != "" || k1.Cwd != "/srv/app" || k1.Title != "list the open ports" || len(k1.Msgs) != 4 || k1.Msgs[2].ToolName != "execute_bash" {
		t.Errorf("first conversation %+v %v", k1.Session, k1.Msgs)
	}
	if k2.Model != "claude-sonnet-4.5" || !k2.StartedAt.Equal(it.Time("2026-03-02T08:00:00Z")) || k2.EndedAt.UnixMilli() != 1772438402500 {
		t.Errorf("second conversation %+v", k2.Session)
	}
}
