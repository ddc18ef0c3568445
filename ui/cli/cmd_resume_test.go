package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAgents puts shell scripts named claude and codex on an otherwise
// empty $PATH; each records its arguments and working directory in log.
func fakeAgents(t *testing.T) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(t.TempDir(), "agent.log")
	for _, name := range []string{"claude", "codex"} {
		script := "#!/bin/sh\necho \"" + name + " $* in $(pwd)\" >> " + log + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	return log
}

func TestResume(t *testing.T) {
	isolate(t)
	db, cwd := contractDB(t)
	here := t.TempDir()
	t.Chdir(here)
	for _, tc := range []struct {
		name, id  string
		print     string // --print's stdout
		ran       string // what the fake agent logged
		note      string // on stderr
		exit      int
		refusedTo string // without --print: the one-line refusal
	}{
		{name: "plain", id: idPlain, print: "cd " + cwd + " && claude --resume " + idPlain, ran: "claude --resume " + idPlain + " in " + cwd},
		{name: "claude sub-agent resumes its parent", id: idSubagent,
			print: "cd " + cwd + " && claude --resume " + idParent, ran: "claude --resume " + idParent + " in " + cwd,
			note: "recall resume: " + idSubagent + " is a Claude Code sub-agent run, which Claude cannot resume on its own: resuming its parent session " + idParent},
		{name: "codex in a deleted directory runs here and says so", id: idCodexGone,
			print: "codex resume " + idCodexGone, ran: "codex resume " + idCodexGone + " in " + here,
			note: "recall resume: the session's working directory /nonexistent/recall-test/gone no longer exists: running in the current directory"},
		{name: "claude in a deleted directory is refused", id: idClaudeGone,
			print: "cd /nonexistent/recall-test/gone && claude --resume " + idClaudeGone, exit: 1,
			note:      "recall resume: cannot resume: Claude Code finds a session by the directory it ran in, and /nonexistent/recall-test/gone no longer exists",
			refusedTo: "recall resume: cannot resume: Claude Code finds a session by the directory it ran in, and /nonexistent/recall-test/gone no longer exists: recreate it (mkdir -p /nonexistent/recall-test/gone) and run again\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := fakeAgents(t)
			code, out, errs := runCLI(t, false, "--db", db, "resume", tc.id, "--print")
			if code != 0 || out != tc.print+"\n" || !strings.HasPrefix(errs, tc.note) {
				t.Errorf("--print: exit %d\nstdout %q\n  want %q\nstderr %q\n  want %q", code, out, tc.print+"\n", errs, tc.note)
			}
			if b, _ := os.ReadFile(log); len(b) != 0 {
				t.Errorf("--print ran the agent: %s", b)
			}
			code, _, errs = runCLI(t, false, "--db", db, "resume", tc.id)
			b, _ := os.ReadFile(log)
			if tc.exit != 0 {
				if code != tc.exit || errs != tc.refusedTo || len(b) != 0 {
					t.Errorf("refusal: exit %d, stderr %q, agent log %q", code, errs, b)
				}
				return
			}
			if code != 0 || strings.TrimSpace(string(b)) != tc.ran || !strings.HasPrefix(errs, tc.note) {
				t.Errorf("run: exit %d, stderr %q, agent ran %q, want %q", code, errs, b, tc.ran)
			}
		})
	}
	// --print needs no agent; running one that is missing is one line.
	t.Setenv("PATH", t.TempDir())
	if code, out, errs := runCLI(t, false, "--db", db, "resume", idPlain, "--print"); code != 0 || !strings.Contains(out, "claude --resume "+idPlain) {
		t.Errorf("--print without claude installed: exit %d %q %q", code, out, errs)
	}
	code, _, errs := runCLI(t, false, "--db", db, "resume", idPlain)
	if code != 1 || errs != `recall resume: "claude" is not installed (agent not available); the command would be: claude --resume `+idPlain+"\n" {
		t.Errorf("missing agent: exit %d, stderr %q", code, errs)
	}
}

// The sub-agent id the Claude importer really writes (parent-agent-id, from
// subagents/agent-<id>.jsonl) resumes the parent.
func TestResumeImportedClaudeSubagent(t *testing.T) {
	home := isolate(t)
	db := filepath.Join(home, "r.db")
	if code, _, errs := runCLI(t, false, "--db", db, "import", "claude-code", "../../testdata/importers/claude/projects"); code != 0 {
		t.Fatalf("import: %d %s", code, errs)
	}
	parent := "7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17"
	code, out, errs := runCLI(t, false, "--db", db, "resume", parent+"-agent-ab12cd3", "--print")
	if code != 0 || !strings.HasSuffix(out, "claude --resume "+parent+"\n") || !strings.Contains(errs, "resuming its parent session "+parent) {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain-id_1.2":    "plain-id_1.2",
		"with space":      "'with space'",
		"it's":            `'it'\''s'`,
		"中文":              "'中文'",
		"esc\x1b]0;t\x07": `"$(printf 'esc\033]0;t\007')"`,
		"bin\xff":         `"$(printf 'bin\377')"`,
		"rtl\u202e'x%s\\": `"$(printf 'rtl\342\200\256\047x%%s\\')"`,
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
		// Pasted into a shell, the quoted word is the exact bytes again.
		for _, sh := range []string{"bash", "sh"} {
			out, err := exec.Command(sh, "-c", "printf %s "+shellQuote(in)).Output()
			if err != nil || string(out) != in {
				t.Errorf("%s: printf %s = %q (%v), want %q", sh, shellQuote(in), out, err, in)
			}
		}
	}
}
