//go:build heavy

package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writers starts n "create" children on path, each writing msgs messages
// in transactions of batch, and returns their exit errors and stderr.
func writers(t *testing.T, path string, n, msgs, batch int) []string {
	t.Helper()
	type proc struct {
		cmd  *exec.Cmd
		errb *bytes.Buffer
	}
	var ps []proc
	for i := 0; i < n; i++ {
		cmd, errb := child(t, path, strconv.Itoa(i), "create", envWriterN+"="+strconv.Itoa(msgs), envWriterBatch+"="+strconv.Itoa(batch))
		ps = append(ps, proc{cmd, errb})
	}
	var fails []string
	for i, p := range ps {
		if err := p.cmd.Wait(); err != nil {
			fails = append(fails, fmt.Sprintf("writer %d: %v: %s", i, err, strings.TrimSpace(p.errb.String())))
		}
	}
	return fails
}

// checkWritten asserts exact counts after n writers of msgs messages each,
// then the native shell's integrity checks.
func checkWritten(t *testing.T, path string, n, msgs int) {
	t.Helper()
	c := rawConn(t, path, true)
	if got := count(t, c, "SELECT count(*) FROM messages"); got != int64(n*msgs) {
		t.Errorf("messages = %d, want %d", got, n*msgs)
	}
	if got := count(t, c, "SELECT count(*) FROM sessions"); got != int64(n) {
		t.Errorf("sessions = %d, want %d", got, n)
	}
	if got := count(t, c, "SELECT count(*) FROM sessions WHERE message_count <> ?", msgs); got != 0 {
		t.Errorf("%d sessions with a message_count other than %d", got, msgs)
	}
	if got := count(t, c, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'docker'"); got != int64(n*msgs) {
		t.Errorf("messages_fts docker = %d, want %d", got, n*msgs)
	}
	if got := count(t, c, "SELECT count(*) FROM state_meta WHERE key = ?", metaCreatedBy); got != 1 {
		t.Errorf("recall_created rows = %d", got)
	}
	if got := strings.TrimSpace(shell(t, path, "PRAGMA integrity_check;", "-readonly")); got != "ok" {
		t.Errorf("native integrity_check: %s", got)
	}
	nativeIntegrity(t, path)
}

// TestCreationRace: 8 processes create the same new database at the same
// moment, 20 rounds: every one succeeds and the counts are exact (before:
// of 10 processes 6 failed, "read-only (a Hermes database…)" and
// "duplicate column name").
func TestCreationRace(t *testing.T) {
	needSQLite3(t)
	const procs, rounds, msgs = 8, 20, 50
	failed := 0
	for r := 0; r < rounds; r++ {
		path := filepath.Join(t.TempDir(), "race.db")
		fails := writers(t, path, procs, msgs, 10)
		failed += len(fails)
		for _, f := range fails {
			t.Errorf("round %d: %s", r, f)
		}
		checkWritten(t, path, procs, msgs)
	}
	t.Logf("%d processes x %d rounds on a fresh path, %d messages each: %d failed", procs, rounds, msgs, failed)
}

// TestStalledLockHolder: a process that holds the write lock and makes no
// progress (here: asleep inside its transaction) makes a writer give up
// after writeStall with ErrLocked and a line saying so, not hang forever.
func TestStalledLockHolder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stalled.db")
	st := mustOpenPath(t, path, Options{Create: true})
	ready := filepath.Join(dir, "ready")
	cmd, errb := child(t, path, "h", "hang", envReadyFile+"="+ready)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("holder never took the lock: %s", errb.String())
		}
	}
	old := writeStall
	writeStall = 3 * time.Second
	defer func() { writeStall = old }()
	t0 := time.Now()
	err := st.CreateSession(context.Background(), Session{ID: "waiting", Source: "cli"})
	waited := time.Since(t0)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "without writing anything") {
		t.Fatalf("write = %v, want ErrLocked", err)
	}
	if waited < writeStall {
		t.Errorf("gave up after %s, before writeStall", waited)
	}
	t.Logf("gave up after %s: %v", waited.Round(100*time.Millisecond), err)
}

// TestCreationKilled: creations interrupted by SIGKILL and by Ctrl-C
// (SIGINT, which cancels the context as recall's main does) at many
// moments leave a file that the next open completes, writable, with every
// write either whole or absent (before: 3 of 16 kill runs and 9 of 20
// Ctrl-C runs left a file refused forever as "read-only (a Hermes
// database…)").
func TestCreationKilled(t *testing.T) {
	needSQLite3(t)
	// Warm the compilation cache so the delays fall inside creation.
	warm := filepath.Join(t.TempDir(), "warm.db")
	if fails := writers(t, warm, 1, 1, 1); len(fails) > 0 {
		t.Fatal(fails)
	}
	states := map[string]int{}
	runs := 0
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT} {
		// The delay counts from the moment the file appears (creation
		// starts), so the signals land inside it.
		for delay := 0 * time.Millisecond; delay <= 150*time.Millisecond; delay += 5 * time.Millisecond {
			runs++
			path := filepath.Join(t.TempDir(), "killed.db")
			cmd, _ := child(t, path, "k", "create", envWriterN+"=200", envWriterBatch+"=20")
			for deadline := time.Now().Add(10 * time.Second); !exists(path) && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond / 2)
			}
			time.Sleep(delay)
			cmd.Process.Signal(sig)
			cmd.Wait()
			states[sig.String()+": "+creationState(t, path)]++
			if _, err := os.Stat(path); err != nil {
				continue // killed before the file existed
			}
			assertComplete(t, path)
			c := rawConn(t, path, true)
			if n := count(t, c, "SELECT count(*) FROM messages"); n%20 != 0 {
				t.Errorf("%s after %s: %d messages, not whole transactions of 20", sig, delay, n)
			}
			nativeIntegrity(t, path)
		}
	}
	t.Logf("%d interrupted creations, state found before reopening: %v", runs, states)
	if states["killed: partial schema"]+states["interrupt: partial schema"] == 0 {
		t.Error("no run stopped inside creation; the delays miss it")
	}
}

// creationState names where a creation stopped, read with the native shell.
func creationState(t *testing.T, path string) string {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return "no file"
	case fi.Size() == 0 && !exists(path+"-wal"):
		return "zero bytes"
	}
	out, err := exec.Command("sqlite3", "-readonly", path, "SELECT count(*) FROM sqlite_master;").CombinedOutput()
	if err != nil && exists(path+"-journal") {
		return "hot journal (stopped switching to WAL)"
	}
	if err != nil {
		return "unreadable: " + strings.TrimSpace(string(out))
	}
	if strings.TrimSpace(string(out)) == "0" {
		return "no tables yet"
	}
	out, err = exec.Command("sqlite3", "-readonly", path, "SELECT value FROM state_meta WHERE key = 'recall_schema_version';").CombinedOutput()
	if err == nil && strings.TrimSpace(string(out)) == strconv.Itoa(newestRecallMigration(t)) {
		return "complete"
	}
	return "partial schema"
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }
