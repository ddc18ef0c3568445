package cli

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// holdWriteLock has another program (python's sqlite3, not recall) take the
// write lock of db and keep it without writing until the test ends.
func holdWriteLock(t *testing.T, db string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not on PATH")
	}
	cmd := exec.Command("python3", "-c", `import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(600)`, db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("the lock holder said %q", line)
	}
}

// TestImportHeldLockWaitsOnce: a write lock another program holds is waited
// for once for the whole run, with a line saying since when, and then the
// run fails with one line and a non-zero exit. The old code waited 3
// minutes per file and exited 0 (9m59s for 6 files).
func TestImportHeldLockWaitsOnce(t *testing.T) {
	isolateAgents(t)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "state.db")
	if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", writeJSONL(t)); code != 0 {
		t.Fatalf("first import: exit %d: %s", code, errOut)
	}
	tree := writeClaudeTree(t, filepath.Join(tmp, "claude"), 6, 10, 8)
	holdWriteLock(t, db)
	const timeout = 2 * time.Second
	t0 := time.Now()
	code, out, errOut := runCLI(t, false, "--db", db, "import", "--lock-timeout", timeout.String(), "claude", tree.Dir)
	took := time.Since(t0)
	if code == 0 {
		t.Fatalf("exit 0 with the lock held; stdout %q stderr %q", out, errOut)
	}
	// Once for the run: six files at the timeout each would be 12 s.
	if took > 3*timeout {
		t.Errorf("took %s: the lock was waited for more than once", took.Round(100*time.Millisecond))
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "waiting for the write lock held since") ||
		!strings.Contains(lines[1], "is locked") || !strings.Contains(lines[1], "--lock-timeout") {
		t.Errorf("stderr = %q, want the waiting line and one error line", errOut)
	}
	t.Logf("failed after %s: %s", took.Round(100*time.Millisecond), lines[len(lines)-1])
}

func writeJSONL(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "history.jsonl")
	if err := os.WriteFile(file, []byte(jsonlSample), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// syncBuffer is a strings.Builder safe to read while a child writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSignalEndsImport: SIGTERM and SIGINT end a real `recall import`
// within a second, whether it waits for a held lock or is importing, and
// what it committed is kept: the next import completes the tree with every
// message exactly once.
func TestSignalEndsImport(t *testing.T) {
	isolateAgents(t)
	recallOnPath(t)
	tmp := t.TempDir()
	tree := writeClaudeTree(t, filepath.Join(tmp, "claude"), 150, 60, 30)
	start := func(db string, ready func(stderr string) bool, args ...string) (*exec.Cmd, *syncBuffer) {
		t.Helper()
		cmd := exec.Command("recall", append([]string{"--db", db}, args...)...)
		var errb syncBuffer
		cmd.Stderr, cmd.Stdout = &errb, io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(60 * time.Second); !ready(errb.String()); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the child never got going: %s", errb.String())
			}
		}
		return cmd, &errb
	}
	stop := func(cmd *exec.Cmd, sig syscall.Signal, errb *syncBuffer) (time.Duration, int) {
		t.Helper()
		t0 := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("still running 10 s after %s: %s", sig, errb.String())
		}
		return time.Since(t0), cmd.ProcessState.ExitCode()
	}

	t.Run("held lock, SIGTERM", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "state.db")
		if code, _, errOut := runCLI(t, false, "--db", db, "import", "jsonl", writeJSONL(t)); code != 0 {
			t.Fatalf("first import: exit %d: %s", code, errOut)
		}
		holdWriteLock(t, db)
		cmd, errb := start(db, func(s string) bool { return strings.Contains(s, "waiting for the write lock") }, "import", "claude", tree.Dir)
		took, code := stop(cmd, syscall.SIGTERM, errb)
		if took > time.Second || code == 0 {
			t.Errorf("SIGTERM while waiting for the lock: exit %d after %s; stderr %q", code, took, errb.String())
		}
		t.Logf("SIGTERM while waiting: exit %d after %s", code, took.Round(time.Millisecond))
	})

	t.Run("importing, SIGINT", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "state.db")
		// The child has begun once it created the database's -wal.
		cmd, errb := start(db, func(string) bool { return walSize(db) > 0 }, "import", "claude", tree.Dir)
		time.Sleep(300 * time.Millisecond)
		took, code := stop(cmd, syscall.SIGINT, errb)
		if took > time.Second || code == 0 {
			t.Errorf("SIGINT while importing: exit %d after %s; stderr %q", code, took, errb.String())
		}
		t.Logf("SIGINT while importing: exit %d after %s", code, took.Round(time.Millisecond))
		code, out, errOut := runCLI(t, false, "--db", db, "import", "--json", "claude", tree.Dir)
		if code != 0 {
			t.Fatalf("second import: exit %d: %s", code, errOut)
		}
		code, out, _ = runCLI(t, false, "--db", db, "stats", "--json")
		st := decodeJSON[map[string]any](t, out)
		if code != 0 || int(st["messages"].(float64)) != tree.Messages {
			t.Errorf("after the interrupted and the second import: %v messages, want %d", st["messages"], tree.Messages)
		}
	})
}

func walSize(db string) int64 {
	fi, err := os.Stat(db + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}
