//go:build heavy

package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sqlite3Shell runs sql through the native sqlite3 shell (not recall's own
// SQLite build) and returns its trimmed output.
func sqlite3Shell(t *testing.T, db, sql string) string {
	t.Helper()
	out, err := exec.Command("sqlite3", "-bail", db, sql).CombinedOutput()
	if err != nil {
		t.Fatalf("sqlite3 %q: %v\n%s", sql, err, out)
	}
	return strings.TrimSpace(string(out))
}

func sqlite3Int(t *testing.T, db, sql string) int {
	t.Helper()
	s := sqlite3Shell(t, db, sql)
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("sqlite3 %q = %q", sql, s)
	}
	return n
}

// checkIntegrity checks the database and both full-text indexes with the native shell.
func checkIntegrity(t *testing.T, db string) {
	t.Helper()
	if got := sqlite3Shell(t, db, "PRAGMA integrity_check;"); got != "ok" {
		t.Fatalf("integrity_check = %q", got)
	}
	for _, fts := range []string{"messages_fts", "messages_fts_trigram"} {
		sqlite3Shell(t, db, "INSERT INTO "+fts+"("+fts+") VALUES('integrity-check');")
	}
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestImportKill9 kills a real `recall import claude` mid-way with SIGKILL,
// checks the database with the native sqlite3 shell, then finishes the
// import and checks that every generated message is there exactly once.
func TestImportKill9(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not on PATH")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "recall")
	if out, err := exec.Command("go", "build", "-o", bin, "../..").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t0 := time.Now()
	tree := writeClaudeTree(t, filepath.Join(tmp, "claude"), 200, 750, 24)
	t.Logf("generated %d files, %d messages, %.1f MB in %s", tree.Files, tree.Messages, float64(tree.Bytes)/1e6, time.Since(t0).Round(time.Millisecond))
	db := filepath.Join(tmp, "state.db")
	// HOME stays: the child reuses wazero's compile cache in the user cache dir.
	childEnv := append(os.Environ(), "CLAUDE_CONFIG_DIR="+filepath.Join(tmp, "claude"), "RECALL_DB=")

	cmd := exec.Command(bin, "--db", db, "import", "claude", tree.Dir)
	cmd.Env = childEnv
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	start := time.Now()
	// Kill once several files are committed (the database and its WAL hold
	// 12 MB; the full import writes well over 100 MB).
	for fileSize(db)+fileSize(db+"-wal") < 12<<20 {
		if time.Since(start) > time.Minute {
			t.Fatalf("nothing written after a minute\n%s", stderr.String())
		}
		select {
		case err := <-exited:
			t.Fatalf("import finished before the kill (%v): make the tree larger\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := <-exited
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("import was not killed: %v\n%s", err, stderr.String())
	}
	t.Logf("killed after %s (db %d KB, wal %d KB)", time.Since(start).Round(time.Millisecond), fileSize(db)>>10, fileSize(db+"-wal")>>10)

	checkIntegrity(t, db)
	partial := sqlite3Int(t, db, "SELECT count(*) FROM messages;")
	t.Logf("after the kill: %d of %d messages", partial, tree.Messages)
	if partial == 0 || partial >= tree.Messages {
		t.Fatalf("kill was not mid-way: %d of %d messages", partial, tree.Messages)
	}

	// Finish the import.
	cmd = exec.Command(bin, "--db", db, "import", "claude", tree.Dir, "--json")
	cmd.Env = childEnv
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("second import: %v\n%s", err, out)
	}
	var rep importJSON
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("resumed: %d files, %d unchanged, %d messages in %.2fs (%.0f msg/s)", rep.Files, rep.Unchanged, rep.Messages, rep.Seconds, rep.MessagesPerSec)
	if rep.Messages != tree.Messages-partial || rep.Files+rep.Unchanged != tree.Files || rep.Failed != 0 || rep.Malformed != 0 {
		t.Fatalf("resumed import = %+v, want %d messages", rep, tree.Messages-partial)
	}

	checkIntegrity(t, db)
	for sql, want := range map[string]int{
		"SELECT count(*) FROM messages;":                                            tree.Messages,
		"SELECT count(*) FROM sessions;":                                            tree.Sessions,
		"SELECT count(*) FROM recall_message_keys;":                                 tree.Messages,
		"SELECT count(*) FROM recall_import_files;":                                 tree.Files,
		"SELECT count(*) FROM messages_fts;":                                        tree.Messages,
		"SELECT count(*) FROM messages_fts_trigram;":                                tree.Messages,
		"SELECT count(DISTINCT session_id) FROM messages;":                          tree.Sessions,
		"SELECT max(c) FROM (SELECT count(*) c FROM messages GROUP BY session_id);": tree.Messages / tree.Files,
		"SELECT count(*) FROM (SELECT 1 FROM messages GROUP BY session_id, role, timestamp, content, tool_call_id HAVING count(*) > 1);": 0,
	} {
		if got := sqlite3Int(t, db, sql); got != want {
			t.Errorf("%s = %d, want %d", sql, got, want)
		}
	}

	// A third import finds nothing to do.
	cmd = exec.Command(bin, "--db", db, "import", "claude", tree.Dir, "--json")
	cmd.Env = childEnv
	if out, err = cmd.Output(); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &rep); err != nil || rep.Messages != 0 || rep.Unchanged != tree.Files {
		t.Fatalf("third import = %+v (%v)", rep, err)
	}
}
