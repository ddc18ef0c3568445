package cli

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// isolate points the default database, the agents' homes and the model
// config into a temp dir and returns a database path that does not exist.
func isolate(t *testing.T) string {
	t.Helper()
	home := isolateAgents(t)
	noModel(t)
	db := filepath.Join(home, "absent", "state.db")
	t.Setenv("RECALL_DB", db)
	return db
}

// oneLine fails unless s is exactly one line (the error, printed once).
func oneLine(t *testing.T, what, s string) {
	t.Helper()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") {
		t.Errorf("%s: stderr is not exactly one line:\n%s", what, s)
	}
}

func TestFlagsAnywhere(t *testing.T) {
	isolate(t)
	db, cwd := contractDB(t)
	for _, args := range [][]string{
		{"show", idPlain, "--json"},
		{"show", "--json", idPlain},
		{"show", idPlain, "--json", "--db", db},
		{"export", idPlain, "--format", "md"},
		{"export", idPlain, "--format=json", "-o", "-"},
		{"resume", idPlain, "--print"},
		{"recent", "--json", "--limit", "2"},
		{"recent", "--limit", "2", "--json"},
		{"messages", "docker", "--json", "--limit", "5"},
		{"search", "docker", "--no-summary", "--json"},
		{"stats", "--json"},
		{"bench", "docker", "--reps", "1", "--json"},
		{"version", "--json"},
	} {
		full := append([]string{"--db", db}, args...)
		code, out, errs := runCLI(t, false, full...)
		if code != 0 {
			t.Errorf("recall %s: exit %d: %s", strings.Join(args, " "), code, errs)
			continue
		}
		switch {
		case slicesContain(args, "--json") || slicesContain(args, "--format=json"):
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Errorf("recall %s: not JSON: %v\n%s", strings.Join(args, " "), err, out)
			}
		case args[0] == "resume":
			if want := "cd " + cwd + " && claude --resume " + idPlain + "\n"; out != want {
				t.Errorf("resume --print = %q, want %q", out, want)
			}
		case args[0] == "export":
			if !strings.HasPrefix(out, "# Docker networking fix\n") {
				t.Errorf("export: %q", out)
			}
		}
	}
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// A query's -word stays its NOT wherever the query's flags go.
func TestQueryNotIsNotAFlag(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	for _, args := range [][]string{
		{"messages", "deploy", "-rollback", "--json"},
		{"messages", "--json", "deploy", "-rollback"},
	} {
		code, out, errs := runCLI(t, false, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		hits := decodeJSON[[]hitJSON](t, out)
		if len(hits) != 1 || strings.Contains(hits[0].Snippet, "rollback") {
			t.Errorf("%v: hits %+v, want only the message without rollback", args, hits)
		}
	}
}

func TestHelpEveryCommand(t *testing.T) {
	db := isolate(t)
	for _, c := range commands {
		if c.Hidden {
			continue
		}
		for _, args := range [][]string{{"help", c.Name}, {c.Name, "-h"}, {c.Name, "--help"}, {c.Name, "x", "--help"}} {
			code, out, errs := runCLI(t, false, args...)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: "+c.Usage+"\n\n"+c.Summary+"\n") {
				t.Errorf("recall %s: exit %d, stderr %q, stdout:\n%s", strings.Join(args, " "), code, errs, out)
			}
			if fs := commandFlags(c); fs != nil {
				fs.VisitAll(func(f *flag.Flag) {
					if !strings.Contains(out, "  "+flagLabel(f)) {
						t.Errorf("recall %s: help does not list %s", strings.Join(args, " "), flagLabel(f))
					}
				})
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, out, errs := runCLI(t, false, args...)
		if code != 0 || errs != "" || !strings.Contains(out, "commands:") {
			t.Errorf("recall %v: exit %d, stderr %q", args, code, errs)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("help created or touched the database: %v", err)
	}
}

// Every flag a usage line names exists, and every flag a command has is in
// its usage line unless the line says [flags].
func TestUsageLinesMatchFlags(t *testing.T) {
	flagRe := regexp.MustCompile(`(?:^|[\s\[|])(--?[a-z][a-z0-9-]*)`)
	for _, c := range commands {
		fs := commandFlags(c)
		if fs == nil {
			t.Errorf("%s: its Run never parsed its flags with newFlags(c, env).Parse", c.Name)
			continue
		}
		named := map[string]bool{}
		for _, m := range flagRe.FindAllStringSubmatch(c.Usage, -1) {
			name := strings.TrimLeft(m[1], "-")
			named[name] = true
			if name != "db" && fs.Lookup(name) == nil {
				t.Errorf("%s: usage %q names %s, which the command does not have", c.Name, c.Usage, m[1])
			}
		}
		if strings.Contains(c.Usage, "[flags]") {
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			if !named[f.Name] {
				t.Errorf("%s: usage %q does not name its flag %s", c.Name, c.Usage, flagLabel(f))
			}
		})
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	for _, args := range [][]string{
		{"recent", "--limit", "abc"},
		{"recent", "--limit", "0"},
		{"recent", "extra"},
		{"recent", "-x"},
		{"show"},
		{"show", "a", "b"},
		{"show", "--bogus", idPlain},
		{"export", idPlain, "--format", "pdf"},
		{"export", idPlain, "-o"},
		{"resume"},
		{"messages"},
		{"messages", "--limit", "x", "docker"},
		{"search", "--sessions", "abc", "docker"},
		{"import"},
		{"import", "nosuchsource"},
		{"watch", "--interval", "1ms"},
		{"stats", "extra"},
		{"bench"},
		{"gen"},
		{"gen", "--messages", "-1"},
		{"demo", "extra"},
		{"completion"},
		{"completion", "tcsh"},
		{"version", "extra"},
		{"help", "nosuchcommand"},
		{"--bogus-flag"}, // recall nosuchcommand is a query now (TestDefaultCommandTakesItsFlags)
		{"show", idPlain, "--db"},
	} {
		code, out, errs := runCLI(t, false, append([]string{"--db", db}, args...)...)
		if code != 2 {
			t.Errorf("recall %s: exit %d, want 2 (stderr %q)", strings.Join(args, " "), code, errs)
		}
		oneLine(t, "recall "+strings.Join(args, " "), errs)
		if !strings.HasPrefix(errs, "recall") || strings.Contains(errs, "usage: usage") {
			t.Errorf("recall %s: stderr %q", strings.Join(args, " "), errs)
		}
		if out != "" {
			t.Errorf("recall %s: printed to stdout: %q", strings.Join(args, " "), out)
		}
	}
	// migrate needs an explicit --db.
	t.Setenv("RECALL_DB", "")
	if code, _, errs := runCLI(t, false, "migrate"); code != 2 {
		t.Errorf("migrate without --db: exit %d (%s)", code, errs)
	}
}

// Every runtime error is one line, printed once, with no prefix said twice.
func TestErrorsPrintedOnce(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	t.Setenv("PATH", t.TempDir()) // no agent installed
	missing := filepath.Join(t.TempDir(), "none.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "gen", "--messages", "10"}, "recall gen: " + db + " already holds"},
		{[]string{"--db", db, "show", "nosuch"}, `recall show: no session nosuch`},
		{[]string{"--db", db, "export", idPlain, "-o", "/nonexistent/dir/x.md"}, "recall export: create export file: open /nonexistent/dir/x.md: no such file or directory"},
		{[]string{"--db", db, "resume", idPlain}, `recall resume: "claude" is not installed`},
		{[]string{"--db", db, "resume", idClaudeGone}, "recall resume: cannot resume: Claude Code finds a session by the directory it ran in"},
		{[]string{"--db", missing, "show", "x"}, "recall show: "},
		{[]string{"--db", db, "import", "jsonl", "/nonexistent/x.jsonl"}, "recall import: "},
	} {
		code, _, errs := runCLI(t, false, tc.args...)
		if code != 1 {
			t.Errorf("recall %s: exit %d, want 1 (%s)", strings.Join(tc.args, " "), code, errs)
		}
		oneLine(t, strings.Join(tc.args, " "), errs)
		if !strings.HasPrefix(errs, tc.want) {
			t.Errorf("recall %s:\n got %q\nwant prefix %q", strings.Join(tc.args, " "), errs, tc.want)
		}
		parts := strings.Split(strings.TrimSpace(errs), ": ")
		for i := 1; i < len(parts); i++ {
			if parts[i] == parts[i-1] || (i == 1 && "recall "+parts[i] == parts[0]) {
				t.Errorf("recall %s: %q is said twice in %q", strings.Join(tc.args, " "), parts[i], errs)
			}
		}
	}
}

func TestPanicStopsAtTheBoundary(t *testing.T) {
	isolate(t)
	saved := commands
	t.Cleanup(func() { commands = saved })
	commands = append(saved[:len(saved):len(saved)], &Command{Name: "panic-test", Usage: "recall panic-test", Hidden: true,
		Run: func(env *Env, c *Command, args []string) error {
			if err := newFlags(c, env).Parse(args); err != nil {
				return err
			}
			var m map[string]int
			m["boom"]++ // a nil-map write: a real runtime panic
			return nil
		}})
	code, out, errs := runCLI(t, false, "panic-test")
	if code != 1 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	oneLine(t, "panic", errs)
	if !strings.HasPrefix(errs, "recall panic-test: internal error: assignment to entry in nil map") || strings.Contains(errs, "goroutine") {
		t.Errorf("stderr %q", errs)
	}
	t.Setenv("RECALL_TRACE", "1")
	if _, _, errs := runCLI(t, false, "panic-test"); !strings.Contains(errs, "goroutine") || !strings.Contains(errs, "contract_test.go") {
		t.Errorf("RECALL_TRACE=1 printed no stack:\n%s", errs)
	}
}

func TestVersion(t *testing.T) {
	saved := readBuildInfo
	t.Cleanup(func() { readBuildInfo = saved })
	for name, tc := range map[string]struct {
		info      *debug.BuildInfo
		want      []string
		revision  string
		modified  bool
		versionIs string
	}{
		"with VCS information": {
			info: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/recall-dev/recall", Version: "v0.0.0-20260304100000-0123456789ab+dirty"},
				Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
					{Key: "vcs.time", Value: "2026-03-04T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			want:     []string{"recall v0.0.0-20260304100000-0123456789ab+dirty\n", "revision 0123456789abcdef0123456789abcdef01234567 (2026-03-04T10:00:00Z) with uncommitted changes\n", "go1.26.8 "},
			revision: "0123456789abcdef0123456789abcdef01234567", modified: true, versionIs: "v0.0.0-20260304100000-0123456789ab+dirty",
		},
		"built with -buildvcs=false": {
			info:      &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/recall-dev/recall", Version: "(devel)"}},
			want:      []string{"recall (devel)\n", "revision unknown (built without VCS information"},
			versionIs: "(devel)",
		},
		"go install MODULE@latest (a pseudo-version, no VCS stamp)": {
			info:      &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/recall-dev/recall", Version: "v0.0.0-20261205221510-288eb41111d7"}},
			want:      []string{"recall v0.0.0-20261205221510-288eb41111d7\n", "revision 288eb41111d7 (2026-12-05T22:15:10Z, from the module version)\n"},
			versionIs: "v0.0.0-20261205221510-288eb41111d7",
		},
		"go install MODULE@v1.2.0 (a release)": {
			info:      &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/recall-dev/recall", Version: "v1.2.0"}},
			want:      []string{"recall v1.2.0\n", "revision: tag v1.2.0 (built from the module, which carries no VCS information)\n"},
			versionIs: "v1.2.0",
		},
		"no build information": {
			want:      []string{"recall (devel)\n", "revision unknown"},
			versionIs: "(devel)",
		},
	} {
		t.Run(name, func(t *testing.T) {
			readBuildInfo = func() (*debug.BuildInfo, bool) { return tc.info, tc.info != nil }
			var outs []string
			for _, args := range [][]string{{"--version"}, {"version"}} {
				code, out, errs := runCLI(t, false, args...)
				if code != 0 || errs != "" {
					t.Fatalf("%v: exit %d %s", args, code, errs)
				}
				for _, w := range tc.want {
					if !strings.Contains(out, w) {
						t.Errorf("%v: %q lacks %q", args, out, w)
					}
				}
				outs = append(outs, out)
			}
			if outs[0] != outs[1] {
				t.Errorf("--version and version differ:\n%s\n%s", outs[0], outs[1])
			}
			_, out, _ := runCLI(t, false, "version", "--json")
			v := decodeJSON[versionJSON](t, out)
			if v.Version != tc.versionIs || v.Revision != tc.revision || v.Modified != tc.modified || v.Go == "" {
				t.Errorf("version --json = %+v", v)
			}
		})
	}
}

func TestExportDashAndFile(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	t.Chdir(t.TempDir())
	_, piped, _ := runCLI(t, false, "--db", db, "export", idHostile)
	code, dash, errs := runCLI(t, false, "--db", db, "export", idHostile, "-o", "-")
	if code != 0 || dash != piped || !strings.Contains(dash, hostile) {
		t.Errorf("export -o -: exit %d (%s), same as stdout %v, exact bytes %v", code, errs, dash == piped, strings.Contains(dash, hostile))
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`export -o - created a file named "-"`)
	}
	if code, _, errs := runCLI(t, false, "--db", db, "export", idHostile, "-o", "out.md"); code != 0 {
		t.Fatalf("export -o out.md: %d %s", code, errs)
	}
	b, err := os.ReadFile("out.md")
	fi, _ := os.Stat("out.md")
	if err != nil || string(b) != piped || fi.Mode().Perm() != 0o600 {
		t.Errorf("out.md: %v, exact %v, mode %v (want 0600)", err, string(b) == piped, fi.Mode().Perm())
	}
}

// The usage line `recall [tui] [--query Q]` holds: a flag before any
// command is the TUI's. Without a terminal, the TUI named (tui, demo) stops
// at "needs a terminal"; the default command answers as `recall search`
// does (recall docker | head), or as `recall recent` with no query.
func TestDefaultCommandTakesItsFlags(t *testing.T) {
	isolate(t)
	db, _ := contractDB(t)
	t.Setenv("RECALL_DB", db)
	for _, args := range [][]string{{"tui", "--query", "docker"}, {"demo", "--query", "docker"}, {"tui", "docker"}} {
		code, _, errs := runCLI(t, false, args...)
		if code != 1 || !strings.HasSuffix(errs, ": "+errNoTerminal.Error()+"\n") {
			t.Errorf("recall %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
		}
	}
	_, search, _ := runCLI(t, false, "search", "docker", "network")
	for _, args := range [][]string{{"--query", "docker network"}, {"--db", db, "--query=docker network"}, {"docker", "network"}, {"--db", db, "docker", "network"}} {
		code, out, errs := runCLI(t, false, args...)
		if code != 0 || stripTimings(out) != stripTimings(search) {
			t.Errorf("recall %s: exit %d, stderr %q, stdout\n%s\nwant recall search's\n%s", strings.Join(args, " "), code, errs, out, search)
		}
	}
	_, recent, _ := runCLI(t, false, "recent")
	if code, out, _ := runCLI(t, false); code != 0 || out != recent {
		t.Errorf("recall alone without a terminal: exit %d\n%s\nwant recall recent's\n%s", code, out, recent)
	}
	// A word one slip from a command is searched, and the command named.
	code, out, errs := runCLI(t, false, "serach", "docker")
	if code != 0 || !strings.Contains(errs, "recall search") || !strings.Contains(out, `for "serach docker"`) {
		t.Errorf("recall serach docker: exit %d, stderr %q, stdout\n%s", code, errs, out)
	}
}

// stripTimings drops the milliseconds a search line reports.
func stripTimings(s string) string {
	return regexp.MustCompile(`, \d+ms\)`).ReplaceAllString(s, ")")
}
