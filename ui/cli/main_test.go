package cli

import (
	"context"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/term"

	"github.com/recall-dev/recall/store"
)

// TestMain lets this test binary be recall itself: started through a link
// named "recall" (recallOnPath), it runs the command line as main.go does.
// Shell-level tests (completion scripts, the README's lines) then run the
// code under test without a separate go build.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "recall" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		SignalGrace = 750 * time.Millisecond // as main.go
		code := Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, term.IsTerminal(int(os.Stdout.Fd())))
		stop()
		os.Exit(code)
	}
	code := m.Run()
	for _, f := range afterTests {
		f()
	}
	os.Exit(code)
}

// afterTests are cleanups of resources shared between tests (a binary
// built once), run after every test has finished.
var afterTests []func()

// recallOnPath puts a "recall" that is this test binary first on $PATH and
// returns its directory.
func recallOnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "recall")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir
}

// hostile is text a transcript can carry to attack a terminal: a title
// change (OSC 0), a clipboard write (OSC 52), colours (CSI), a bidi
// override, 8-bit CSI and C1 controls, a bell and a carriage return.
const hostile = "\x1b]0;PWNED\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[31mred\x1b[0m\u202eevil\u202c\u009b2J\u0085\x07\r"

// Ids of the fixture's sessions.
const (
	idPlain      = "plain-0001"
	idParent     = "parent-0002"
	idSubagent   = "parent-0002-agent-a1b2"
	idCodexGone  = "codex-gone-0003"
	idClaudeGone = "claude-gone-0004"
	idHostile    = "evil\x1b]0;PWNED\x07-0005"
	idBinary     = "bin\xff\xfe-0006"
)

// contractDB writes the CLI tests' database: a plain Claude Code session
// in an existing directory, a Claude parent with a sub-agent run, sessions
// whose directories are gone, a session with hostile text in every field,
// and one whose id is not valid UTF-8.
func contractDB(t *testing.T) (path, cwd string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "state.db")
	cwd = t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t0 := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	sessions := []store.Session{
		{ID: idPlain, Source: "claude-code", Model: "claude-x", Title: "Docker networking fix", Cwd: cwd, StartedAt: t0},
		{ID: idParent, Source: "claude-code", Model: "claude-x", Title: "Parent run", Cwd: cwd, StartedAt: t0.Add(time.Hour)},
		{ID: idSubagent, Source: "claude-code", ParentID: idParent, Cwd: cwd, StartedAt: t0.Add(time.Hour + time.Minute)},
		{ID: idCodexGone, Source: "codex", Title: "Codex in a deleted dir", Cwd: "/nonexistent/recall-test/gone", StartedAt: t0.Add(2 * time.Hour)},
		{ID: idClaudeGone, Source: "claude-code", Title: "Claude in a deleted dir", Cwd: "/nonexistent/recall-test/gone", StartedAt: t0.Add(3 * time.Hour)},
		{ID: idHostile, Source: "cli" + hostile, Model: "model" + hostile, Title: "title" + hostile, Cwd: cwd, StartedAt: t0.Add(4 * time.Hour)},
		{ID: idBinary, Source: "cli", Title: "binary id", StartedAt: t0.Add(5 * time.Hour)},
	}
	msgs := []store.Message{
		{SessionID: idPlain, Role: "user", Content: "how do I deploy the docker network", Timestamp: t0},
		{SessionID: idPlain, Role: "assistant", Content: "deploy then rollback if the overlay fails", Timestamp: t0.Add(time.Minute)},
		{SessionID: idParent, Role: "user", Content: "delegate the kubernetes audit", Timestamp: t0.Add(time.Hour)},
		{SessionID: idSubagent, Role: "user", Content: "audit kubernetes manifests", Timestamp: t0.Add(time.Hour + time.Minute)},
		{SessionID: idCodexGone, Role: "user", Content: "codex question", Timestamp: t0.Add(2 * time.Hour)},
		{SessionID: idClaudeGone, Role: "user", Content: "claude question", Timestamp: t0.Add(3 * time.Hour)},
		{SessionID: idHostile, Role: "user", Content: "hostile zanzibar " + hostile, Timestamp: t0.Add(4 * time.Hour)},
		{SessionID: idHostile, Role: "assistant", Content: "zanzibar reply " + hostile, Timestamp: t0.Add(4*time.Hour + time.Second),
			ToolCalls: `[{"id":"c1","type":"function","function":{"name":"bash` + `\u001b]0;PWNED\u0007","arguments":"{\"cmd\":\"echo \\u001b[31m\"}"}}]`},
		{SessionID: idHostile, Role: "tool", ToolName: "bash" + hostile, ToolCallID: "c1", Content: "zanzibar output " + hostile, Timestamp: t0.Add(4*time.Hour + 2*time.Second)},
		{SessionID: idBinary, Role: "user", Content: "quagga in a binary id", Timestamp: t0.Add(5 * time.Hour)},
	}
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, s := range sessions {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return path, cwd
}
