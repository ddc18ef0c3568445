//go:build heavy

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// These run the completion scripts in the real shells, each candidate list
// coming from a recall process (this test binary, see recallOnPath): a few
// seconds each on a loaded machine, so they are heavy tests.

// shellSetup skips unless shell is installed, points RECALL_DB at the
// fixture, puts recall on $PATH and writes `recall completion SHELL` to a
// file; it returns the database and the script.
func shellSetup(t *testing.T, shell string) (db, script string) {
	t.Helper()
	if _, err := exec.LookPath(shell); err != nil {
		t.Skipf("%s not installed (apt-get install %s)", shell, shell)
	}
	isolate(t)
	db, _ = contractDB(t)
	t.Setenv("RECALL_DB", db)
	recallOnPath(t)
	return db, completionScript(t, shell)
}

// completionScript writes `recall completion SHELL` to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	code, out, errs := runCLI(t, false, "completion", shell)
	if code != 0 {
		t.Fatalf("completion %s: %d %s", shell, code, errs)
	}
	p := filepath.Join(t.TempDir(), "recall."+shell)
	if err := os.WriteFile(p, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The bash script, sourced in a real bash, fills COMPREPLY from the
// COMP_WORDS bash would give it (which splits words at ':' and '=').
func TestCompletionBash(t *testing.T) {
	db, script := shellSetup(t, "bash")
	for _, tc := range []struct {
		words []string // COMP_WORDS, the last one being completed
		want  []string
	}{
		{[]string{"recall", "sh"}, []string{"show"}},
		{[]string{"recall", "show", "pa"}, []string{idSubagent, idParent}},
		{[]string{"recall", "show", "--js"}, []string{"--json"}},
		{[]string{"recall", "--db", db, "resume", "plain"}, []string{idPlain}},
		{[]string{"recall", "import", "ge"}, []string{"gemini", "gemini-apps", "gemini-cli"}},
		{[]string{"recall", "export", "x", "--format", ""}, []string{"md", "json", "html"}},
		// "--format=j": bash gives "--format" "=" "j" and replaces only "j".
		{[]string{"recall", "export", "x", "--format", "=", "j"}, []string{"json"}},
		{[]string{"recall", "completion", "z"}, []string{"zsh"}},
	} {
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", `source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_recall
printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
		cmd.Args = append(cmd.Args, tc.words...)
		out, err := cmd.CombinedOutput()
		got := strings.Fields(string(out))
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("COMP_WORDS=%q: COMPREPLY %q (%v), want %q", tc.words, got, err, tc.want)
		}
	}
	// complete -p shows the function is registered for recall.
	out, err := exec.Command("bash", "--norc", "-c", `source "$1"; complete -p recall`, "bash", script).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-F _recall recall") {
		t.Errorf("complete -p recall: %s %v", out, err)
	}
}

// The zsh script, with compadd and _files replaced by functions that print
// what they were given (the completion system needs a terminal otherwise).
func TestCompletionZsh(t *testing.T) {
	_, script := shellSetup(t, "zsh")
	if out, err := exec.Command("zsh", "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %s %v", out, err)
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"recall", "sh"}, "words: show\ndisplay: show -- a whole session (id or unique id prefix)\n"},
		{[]string{"recall", "show", "pa"}, "words: " + idSubagent + " " + idParent + "\n"},
		{[]string{"recall", "--db", ""}, "files\n"},
	} {
		cmd := exec.Command("zsh", "-f", "-c", `compadd() {
  local -a w d; local dn an
  while (( $# )); do
    case $1 in
      -d) dn=$2; shift 2;;
      -a) an=$2; shift 2;;
      --) shift; break;;
      *) shift;;
    esac
  done
  print -r -- "words: ${(P)an}"
  [[ $words[CURRENT] == sh ]] && print -r -- "display: ${${(P)dn}[1]}"
  return 0
}
_files() { print files }
source "$1"; shift
words=("$@"); CURRENT=$#
_recall`, "zsh", script)
		cmd.Args = append(cmd.Args, tc.words...)
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != tc.want {
			t.Errorf("words=%q: %q (%v), want %q", tc.words, out, err, tc.want)
		}
	}
}

// fish completes a command line without a terminal: complete -C.
func TestCompletionFish(t *testing.T) {
	db, script := shellSetup(t, "fish")
	if out, err := exec.Command("fish", "--no-execute", script).CombinedOutput(); err != nil {
		t.Fatalf("fish --no-execute: %s %v", out, err)
	}
	for line, want := range map[string][]string{
		"recall sh":                   {"show\ta whole session (id or unique id prefix)"},
		"recall show pa":              {idSubagent, idParent + "\tParent run"},
		"recall import ge":            {"gemini\t= gemini-cli", "gemini-cli"},
		"recall export x --format j":  {"json\tJSON"},
		"recall --db " + db + " stat": {"stats\tschema version, counts, database and index sizes, SQLite version and backend"},
	} {
		out, err := exec.Command("fish", "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, line).CombinedOutput()
		got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		slices.Sort(got) // fish sorts candidates its own way
		slices.Sort(want)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("complete -C %q: %q (%v), want %q", line, got, err, want)
		}
	}
}
