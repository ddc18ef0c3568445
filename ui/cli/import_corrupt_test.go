package cli

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportStopsAtCorruptDatabase: an import into a database whose pages
// are damaged stops at the first SQLITE_CORRUPT with one line naming the
// database and what to do, and a non-zero exit (it wrote the other files'
// rows and exited 0 before). recall watch stops the same way.
func TestImportStopsAtCorruptDatabase(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("native sqlite3 shell not installed")
	}
	home := isolateAgents(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	var files []string
	for i := 0; i < 4; i++ {
		f := filepath.Join(dir, fmt.Sprintf("f%d.jsonl", i))
		var b strings.Builder
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&b, `{"session_id":"imp%d","role":"user","content":"corruption test %d %d","timestamp":%d}`+"\n", i, i, j, 1777640000+j)
		}
		os.WriteFile(f, []byte(b.String()), 0o600)
		files = append(files, f)
	}
	if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", files[0]); code != 0 {
		t.Fatalf("first import: %s", errOut)
	}
	// Damage every page of the sessions and messages b-trees and their
	// indexes (the shell checkpoints first, so the pages are in the file).
	out, err := exec.Command("sqlite3", db, "PRAGMA wal_checkpoint(TRUNCATE); SELECT pageno FROM dbstat WHERE name IN ('sessions', 'sqlite_autoindex_sessions_1', 'messages', 'idx_messages_session');").Output()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(db, os.O_RDWR, 0)
	junk := make([]byte, 4096-8)
	for _, p := range strings.Fields(string(out))[1:] {
		n, _ := strconv.Atoi(p)
		rand.Read(junk)
		f.WriteAt(junk, int64(n-1)*4096+8)
	}
	f.Close()
	for _, args := range [][]string{
		append([]string{"--db", db, "import", "jsonl"}, files[1:]...),
		{"--db", db, "import", "--json", "jsonl", files[1]},
	} {
		code, _, errOut := runCLI(t, false, args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code == 0 || len(lines) != 1 || !strings.Contains(errOut, db+" is corrupt") || !strings.Contains(errOut, "integrity_check") {
			t.Errorf("%v: exit %d, stderr:\n%s", args[2:], code, errOut)
		}
	}
	root := filepath.Join(home, "claude")
	writeClaudeTree(t, root, 2, 6, 3)
	t.Setenv("CLAUDE_CONFIG_DIR", root)
	code, _, errOut := runCLI(t, false, "--db", db, "watch", "--once", "claude")
	// (A retention note for Claude Code may come first, on its own line.)
	if lines := strings.Split(strings.TrimSpace(errOut), "\n"); code == 0 || !strings.HasPrefix(lines[len(lines)-1], "recall watch: "+db+" is corrupt") {
		t.Errorf("watch: exit %d, stderr:\n%s", code, errOut)
	}
	if out, _ := exec.Command("sqlite3", db, "SELECT count(*) FROM recall_import_files;").CombinedOutput(); strings.TrimSpace(string(out)) != "1" {
		t.Errorf("files recorded as imported into the corrupt database: %s, want only the first", out)
	}
}
