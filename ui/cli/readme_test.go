//go:build heavy

package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
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
		// forget and redact ask y/N on a terminal; the test has none, so
		// they confirm as a script does (without --yes they refuse: TestForgetCommand).
		cmdline = strings.Replace(cmdline, "recall forget ", "recall forget --yes ", 1)
		cmdline = strings.Replace(cmdline, "recall redact ", "recall redact --yes ", 1)
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

// TestREADMESetUpLinesWork runs the README's lines that readmeLineChecks
// gives to it (install and set-up, the two commands, the model's
// environment), as written, in a shell whose `recall` is the code under test,
// against a database holding the demo history. The TUI lines must get as far
// as asking for a terminal (or, for a bare `recall`, print the recent
// sessions a script gets); `service install` writes its unit under a
// temporary config folder and calls a stand-in systemctl.
func TestREADMESetUpLinesWork(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	// go run builds with the caches of the user running the tests (the home
	// below is empty), and offline.
	goEnv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	goDirs := strings.Fields(string(goEnv))
	isolate(t)
	home := os.Getenv("HOME")
	db := filepath.Join(home, "demo", "state.db")
	st, err := store.Open(context.Background(), db, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jsonl.ImportReader(context.Background(), st, "demo.jsonl", bytes.NewReader(assets.DemoJSONL())); err != nil {
		t.Fatal(err)
	}
	st.Close()
	t.Setenv("RECALL_DB", db)
	recallDir := recallOnPath(t)
	stand := t.TempDir()
	systemctlLog := filepath.Join(stand, "systemctl.log")
	if err := os.WriteFile(filepath.Join(stand, "systemctl"), []byte("#!/bin/sh\necho \"systemctl $*\" >> "+systemctlLog+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", stand+":"+recallDir+":"+os.Getenv("PATH"))
	root, _ := filepath.Abs("../..")

	ran := 0
	for _, line := range readmeCommandLines(t) {
		if readmeLineChecks[line] != setUpTest {
			continue
		}
		ran++
		t.Run(line, func(t *testing.T) {
			cmdline, dir := line, t.TempDir()
			switch {
			case strings.HasPrefix(line, "source <(recall completion bash)"):
				cmdline += " && complete -p recall"
			case strings.HasPrefix(line, "export RECALL_LLM_"):
				// The model the line names is not running: a search still answers.
				cmdline += " && recall search 'docker network'"
			case strings.HasPrefix(line, "go run ."):
				dir = root
				cmdline = "GOCACHE=" + goDirs[0] + " GOMODCACHE=" + goDirs[1] + " GOPATH=" + goDirs[2] + " GOPROXY=off " + cmdline
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", cmdline)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			out := stdout.String() + stderr.String()
			needsTerminal := strings.Contains(stderr.String(), errNoTerminal.Error())
			switch line {
			case "recall demo", "go run . demo":
				if !needsTerminal {
					t.Errorf("did not reach the TUI: %v\n%s", err, out)
				}
			case "recall":
				// Today's recall asks for a terminal; one that prints the
				// recent sessions to a script must print the demo's.
				if !needsTerminal && (err != nil || !strings.Contains(strings.ToLower(stdout.String()), "docker")) {
					t.Errorf("neither the TUI nor the recent sessions: %v\n%s", err, out)
				}
			case "recall --version":
				if err != nil || !strings.HasPrefix(stdout.String(), "recall ") || !strings.Contains(stdout.String(), "\ngo1.") {
					t.Errorf("%v\n%s", err, out)
				}
			case "recall import all":
				if err != nil || strings.Contains(out, "panic") {
					t.Errorf("%v\n%s", err, out)
				}
			case "source <(recall completion bash)":
				if err != nil || !strings.Contains(out, "-F _recall recall") {
					t.Errorf("not registered: %v\n%s", err, out)
				}
			case "recall service install":
				if runtime.GOOS != "linux" {
					t.Skip("the launchd agent is not tried here")
				}
				unit, _ := os.ReadFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "systemd", "user", "recall-watch.service"))
				calls, _ := os.ReadFile(systemctlLog)
				if err != nil || !bytes.Contains(unit, []byte(" watch")) || !bytes.Contains(calls, []byte("--user enable --now recall-watch.service")) {
					t.Errorf("%v\n%s\nunit:\n%s\nsystemctl: %s", err, out, unit, calls)
				}
			default:
				if strings.HasPrefix(line, "export RECALL_LLM_") {
					if err != nil || !strings.Contains(stdout.String(), "api container can't reach postgres") {
						t.Errorf("the search failed with the model down: %v\n%s", err, out)
					}
					return
				}
				t.Fatalf("readmeLineChecks gives %q to this test, which does not know how to check it", line)
			}
		})
	}
	if ran < 8 {
		t.Errorf("only %d lines run", ran)
	}
}
