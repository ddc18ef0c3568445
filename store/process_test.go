package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Child-process modes of the test binary (os.Args[0] -test.run=TestHelperWriter).
const (
	envWriterDB   = "RECALL_TEST_WRITER_DB"
	envWriterID   = "RECALL_TEST_WRITER_ID"
	envWriterMode = "RECALL_TEST_WRITER_MODE" // "append", "hang" or "create"
	envReadyFile  = "RECALL_TEST_READY_FILE"
	// "create" mode: how many messages, and how many per transaction.
	envWriterN     = "RECALL_TEST_WRITER_N"
	envWriterBatch = "RECALL_TEST_WRITER_BATCH"
)

// TestHelperWriter is not a test: it is the body of the child processes.
func TestHelperWriter(t *testing.T) {
	path := os.Getenv(envWriterDB)
	if path == "" {
		t.Skip("child process body for the multi-process tests")
	}
	// Ctrl-C cancels the context, as in recall's main.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	id := os.Getenv(envWriterID)
	switch os.Getenv(envWriterMode) {
	case "create":
		os.Exit(createAndWrite(ctx, path, id))
	case "oom":
		os.Exit(outOfMemory(ctx, path))
	}
	st, err := Open(ctx, path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	sid := "proc-" + id
	if err := st.CreateSession(ctx, Session{ID: sid, Source: "cli", StartedAt: time.Now()}); err != nil {
		fmt.Fprintln(os.Stderr, "create:", err)
		os.Exit(2)
	}
	switch os.Getenv(envWriterMode) {
	case "append":
		for i := 0; i < 150; i++ {
			msgs := []Message{
				{SessionID: sid, Role: "user", Content: fmt.Sprintf("writer %s message %d docker 容器", id, 2*i)},
				{SessionID: sid, Role: "assistant", Content: fmt.Sprintf("writer %s message %d reply", id, 2*i+1)},
			}
			if _, err := st.AppendMessages(ctx, msgs); err != nil {
				fmt.Fprintln(os.Stderr, "append:", err)
				os.Exit(3)
			}
		}
	case "hang":
		err := st.Write(ctx, func(tx *Tx) error {
			msgs := make([]Message, 4000)
			for i := range msgs {
				msgs[i] = Message{SessionID: sid, Role: "user", Content: strings.Repeat("partialbatch 半途 ", 20)}
			}
			if _, err := tx.InsertMessages(msgs); err != nil {
				return err
			}
			os.WriteFile(os.Getenv(envReadyFile), []byte("ready"), 0o644)
			time.Sleep(time.Minute) // killed here, mid-transaction
			return nil
		})
		fmt.Fprintln(os.Stderr, "hang write returned:", err)
		os.Exit(4)
	}
	st.Close()
	os.Exit(0)
}

// createAndWrite is the "create" child: open (creating) path, write
// RECALL_TEST_WRITER_N messages into session proc-<id> in transactions of
// RECALL_TEST_WRITER_BATCH, and return the exit code.
func createAndWrite(ctx context.Context, path, id string) int {
	n, _ := strconv.Atoi(os.Getenv(envWriterN))
	batch, _ := strconv.Atoi(os.Getenv(envWriterBatch))
	batch = max(batch, 1)
	st, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 2
	}
	defer st.Close()
	if st.ReadOnly() {
		fmt.Fprintln(os.Stderr, "open: read-only:", st.Notice())
		return 2
	}
	sid := "proc-" + id
	if err := st.CreateSession(ctx, Session{ID: sid, Source: "cli", StartedAt: time.Now()}); err != nil {
		fmt.Fprintln(os.Stderr, "create:", err)
		return 3
	}
	for i := 0; i < n; i += batch {
		msgs := make([]Message, 0, batch)
		for j := i; j < min(i+batch, n); j++ {
			msgs = append(msgs, Message{SessionID: sid, Role: []string{"user", "assistant"}[j%2],
				Content: fmt.Sprintf("writer %s message %d docker compose 容器 %s", id, j, strings.Repeat("filler ", j%7)), SourceKey: strconv.Itoa(j)})
		}
		if _, err := st.AppendMessages(ctx, msgs); err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			return 4
		}
	}
	return 0
}

// outOfMemory is the "oom" child: with SQLite's memory cut to 32 MiB, a
// 20 MB message must come back as ErrTooLarge (the driver panicked with
// "sqlite3: out of memory" before), and the store must go on writing.
func outOfMemory(ctx context.Context, path string) int {
	wasmMemoryPages = 512
	st, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 2
	}
	defer st.Close()
	st.CreateSession(ctx, Session{ID: "s", Source: "cli"})
	big := strings.Repeat("grow the trigram index ", 20<<20/23)
	for _, msgs := range [][]Message{
		{{SessionID: "s", Role: "tool", Content: big}},
		{{SessionID: "s", Role: "user", Content: "small"}, {SessionID: "s", Role: "tool", Content: big}},
	} {
		_, err = st.AppendMessages(ctx, msgs)
		fmt.Fprintf(os.Stderr, "append %d: %v\n", len(msgs), err)
		if !errors.Is(err, ErrTooLarge) {
			return 3
		}
		if _, err := st.AppendMessages(ctx, []Message{{SessionID: "s", Role: "user", Content: "after"}}); err != nil {
			fmt.Fprintln(os.Stderr, "write after the error:", err)
			return 4
		}
	}
	if _, err := st.Messages(ctx, "s"); err != nil {
		fmt.Fprintln(os.Stderr, "read:", err)
		return 5
	}
	return 0
}

func child(t *testing.T, db, id, mode string, extra ...string) (*exec.Cmd, *bytes.Buffer) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
	cmd.Env = append(append(os.Environ(), envWriterDB+"="+db, envWriterID+"="+id, envWriterMode+"="+mode), extra...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &errb
}

// TestConcurrentWriterProcesses: 4 processes, 150 small transactions each,
// on one database: no lost rows and no "database is locked".
func TestConcurrentWriterProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "shared.db")
	st := mustOpenPath(t, path, Options{Create: true})
	st.Close()
	type proc struct {
		cmd  *exec.Cmd
		errb *bytes.Buffer
	}
	var ps []proc
	for i := 0; i < 4; i++ {
		cmd, errb := child(t, path, strconv.Itoa(i), "append")
		ps = append(ps, proc{cmd, errb})
	}
	for i, p := range ps {
		err := p.cmd.Wait()
		if err != nil || strings.Contains(p.errb.String(), "locked") {
			t.Errorf("writer %d: %v\n%s", i, err, p.errb.String())
		}
	}
	st = mustOpenPath(t, path, Options{})
	if n := storeCount(t, st, "SELECT count(*) FROM messages"); n != 1200 {
		t.Errorf("messages = %d, want 1200", n)
	}
	for i := 0; i < 4; i++ {
		s, err := st.Session(context.Background(), "proc-"+strconv.Itoa(i))
		if err != nil || s.MessageCount != 300 {
			t.Errorf("session %d: message_count %d, %v", i, s.MessageCount, err)
		}
	}
	if res := search(t, st, "容器", SearchFilter{Limit: 1000}); len(res.Hits) != 600 {
		t.Errorf("容器 hits = %d, want 600", len(res.Hits))
	}
	c := rawConn(t, path, false)
	ftsIntegrity(t, c, allFTS...)
	sqliteIntegrity(t, c)
	if n := count(t, c, "SELECT count(*) FROM recall_cjk_pending"); n != 0 {
		t.Errorf("%d CJK rows left pending", n)
	}
}

// TestKilledWriter: a writer SIGKILLed mid-transaction (bulk path, triggers
// dropped inside it) leaves a database that opens cleanly without its batch.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "killed.db")
	st := mustOpenPath(t, path, Options{Create: true})
	seed(t, st, []fixtureSession{{id: "s1", source: "cli"}}, []fixture{{label: "a", session: "s1", role: "user", content: "committed before the crash"}})
	st.Close()
	ready := filepath.Join(dir, "ready")
	cmd, errb := child(t, path, "k", "hang", envReadyFile+"="+ready)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("child never got mid-transaction: %s", errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	st = mustOpenPath(t, path, Options{})
	if st.ReadOnly() {
		t.Fatal("recall's database reopened read-only after a crash")
	}
	c := rawConn(t, path, false)
	sqliteIntegrity(t, c)
	ftsIntegrity(t, c, allFTS...)
	if n := count(t, c, "SELECT count(*) FROM messages"); n != 1 {
		t.Errorf("messages = %d, want 1 (the killed batch must be absent)", n)
	}
	for _, tr := range indexTriggers {
		if n := count(t, c, "SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name=?", tr); n != 1 {
			t.Errorf("trigger %s missing after the crash", tr)
		}
	}
	if res := search(t, st, "partialbatch", SearchFilter{}); len(res.Hits) != 0 {
		t.Errorf("killed batch is searchable: %d hits", len(res.Hits))
	}
	seed(t, st, nil, []fixture{{label: "b", session: "s1", role: "user", content: "written after the crash 修改"}})
	if res := search(t, st, "修改", SearchFilter{}); len(res.Hits) != 1 || res.Index != IndexCJK {
		t.Errorf("after the crash: %s %d hits", res.Index, len(res.Hits))
	}
}

// TestOutOfMemoryIsAnError: when SQLite runs out of its WebAssembly memory
// on one statement, the write fails with ErrTooLarge and one line, the
// transaction is rolled back, and the next write works (before: the
// driver's panic killed the process with an 18-line stack trace, exit 2).
func TestOutOfMemoryIsAnError(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "oom.db")
	cmd, errb := child(t, path, "o", "oom")
	err := cmd.Wait()
	if err != nil || strings.Contains(errb.String(), "panic") {
		t.Fatalf("oom child: %v\n%s", err, errb.String())
	}
	t.Logf("child: %s", errb.String())
	if strings.Count(errb.String(), "ran out of memory") != 2 {
		t.Errorf("output:\n%s", errb.String())
	}
	c := rawConn(t, path, true)
	if n := count(t, c, "SELECT count(*) FROM messages"); n != 2 {
		t.Errorf("messages = %d, want the 2 small ones", n)
	}
}
