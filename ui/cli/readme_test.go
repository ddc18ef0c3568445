//go:build heavy

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readmeBlock returns the lines of the first ```sh block after heading.
func readmeBlock(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestREADMEUsingItLinesWork runs every line of the README's "Using it" and
// "Shell completion" blocks, as written, in a shell whose `recall` is the
// code under test (recallOnPath), against a home holding a Claude Code
// history, a Hermes state.db and recall's own database. Two changes only:
// SESSION_ID becomes a real id and gen writes 300 messages, not a million.
// The TUI lines must get as far as asking for a terminal; `watch` must be
// watching when Ctrl-C stops it; `resume` runs a stand-in claude.
func TestREADMEUsingItLinesWork(t *testing.T) {
	for _, tool := range []string{"sh", "bash", "sqlite3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	isolate(t)
	home := os.Getenv("HOME")
	db, cwd := contractDB(t)
	t.Setenv("RECALL_DB", db)
	// A Claude Code history and a Hermes database where the defaults look.
	if out, err := exec.Command("cp", "-r", "../../testdata/importers/claude", filepath.Join(home, ".claude")).CombinedOutput(); err != nil {
		t.Fatalf("%s %v", out, err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	if err := os.MkdirAll(filepath.Join(home, ".hermes"), 0o700); err != nil {
		t.Fatal(err)
	}
	hermesDB := filepath.Join(home, ".hermes", "state.db")
	for _, f := range []string{"schema.sql", "seed.sql"} {
		sqlite3Shell(t, hermesDB, ".read ../../testdata/importers/hermes/"+f)
	}
	t.Setenv("HERMES_HOME", filepath.Join(home, ".hermes"))
	work := t.TempDir()
	sqlite3Shell(t, filepath.Join(work, "copy-of-state.db"), ".read ../../migrations/0001_hermes_v1_init.sql")
	recallDir := recallOnPath(t)
	agentLog := fakeAgents(t) // PATH is now only the stand-in agents
	t.Setenv("PATH", recallDir+":"+os.Getenv("PATH")+":/usr/bin:/bin")
	t.Setenv("SHELL", "/bin/sh")

	lines := append(readmeBlock(t, "## Using it"), readmeBlock(t, "### Shell completion")...)
	if len(lines) < 20 {
		t.Fatalf("only %d lines found", len(lines))
	}
	for _, line := range lines {
		cmdline := strings.ReplaceAll(line, "SESSION_ID", idPlain)
		cmdline = strings.ReplaceAll(cmdline, "--messages 1000000 --db /tmp/corpus.db", "--messages 300 --db "+filepath.Join(work, "corpus.db"))
		// forget asks y/N on a terminal; the test has none, so it
		// confirms as a script does (without --yes it refuses: TestForgetCommand).
		cmdline = strings.Replace(cmdline, "recall forget ", "recall forget --yes ", 1)
		shell := "sh"
		if strings.Contains(line, "completion bash") {
			shell = "bash"
			cmdline = strings.SplitN(cmdline, "#", 2)[0] + " && complete -p recall"
		}
		if strings.Contains(line, "completion zsh") {
			if _, err := exec.LookPath("zsh"); err != nil {
				continue
			}
			shell = "zsh"
			cmdline = "autoload -U compinit && compinit -u && " + strings.SplitN(cmdline, "#", 2)[0] + " && echo ${_comps[recall]}"
		}
		t.Run(line, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, shell, "-c", cmdline)
			cmd.Dir = work
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			fields := strings.Fields(strings.SplitN(line, "#", 2)[0])
			isTUI := len(fields) == 1 || (len(fields) == 3 && fields[1] == "--db")
			if len(fields) > 1 && fields[1] == "watch" {
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C reaches the shell's whole group
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(3 * time.Second) // one poll imports the Claude history
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
				stopped := time.AfterFunc(20*time.Second, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
				_ = cmd.Wait() // sh itself may die of the SIGINT: its status says little
				if !stopped.Stop() {
					t.Errorf("watch did not stop on Ctrl-C")
				}
				if !strings.Contains(stderr.String(), "recall watch: following claude-code") || strings.Contains(stderr.String(), "panic") {
					t.Errorf("watch:\n%s%s", stdout.String(), stderr.String())
				}
				return
			}
			err := cmd.Run()
			out := stdout.String() + stderr.String()
			switch {
			case isTUI:
				// No terminal: the default command answers as recall recent.
				if err != nil || strings.Contains(stderr.String(), errNoTerminal.Error()) {
					t.Errorf("the default command without a terminal: %v\n%s", err, out)
				}
			case err != nil:
				t.Errorf("failed: %v\n%s", err, out)
			case strings.Contains(line, "resume SESSION_ID  "):
				if b, _ := os.ReadFile(agentLog); !strings.Contains(string(b), "claude --resume "+idPlain+" in "+cwd) {
					t.Errorf("the agent ran as %q", b)
				}
			case strings.Contains(line, "completion bash"):
				if !strings.Contains(out, "-F _recall recall") {
					t.Errorf("not registered: %s", out)
				}
			case strings.Contains(line, "completion zsh"):
				if !strings.Contains(out, "_recall") {
					t.Errorf("not registered: %s", out)
				}
			case strings.Contains(line, "-o session.md"):
				if b, err := os.ReadFile(filepath.Join(work, "session.md")); err != nil || !bytes.HasPrefix(b, []byte("# Docker networking fix")) {
					t.Errorf("session.md: %v %q", err, b)
				}
			case strings.Contains(line, "completion fish"):
				if b, err := os.ReadFile(filepath.Join(home, ".config", "fish", "completions", "recall.fish")); err != nil || !bytes.Contains(b, []byte("__recall_complete")) {
					t.Errorf("recall.fish: %v", err)
				}
			}
		})
	}
}
