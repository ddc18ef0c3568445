//go:build heavy

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// run runs name args in dir and returns its combined output, failing on error.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestREADMEBuildLineInAFreshClone builds recall the way the README says,
// in a fresh clone of this checkout (as it is now, uncommitted work
// included): `go build -o bin/recall .` gives a binary that runs (the old
// `go build -o recall .` wrote into the recall/ package directory), bin/
// stays out of git status, and `go install .` with VCS stamping gives a
// binary whose --version names the clone's commit.
func TestREADMEBuildLineInAFreshClone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(go build -o (\\S+) \\.)`").FindStringSubmatch(string(readme))
	if m == nil || !strings.Contains(string(readme), "`go install .`") {
		t.Fatal("README has no `go build -o PATH .` and `go install .` lines")
	}
	buildLine, binPath := m[1], m[2]

	// A repository holding exactly this checkout's files, then a clone of it.
	root, _ := filepath.Abs("../..")
	src, clone := t.TempDir(), filepath.Join(t.TempDir(), "recall")
	files := strings.Fields(run(t, root, nil, "git", "ls-files", "-co", "--exclude-standard"))
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	run(t, src, gitEnv, "git", "init", "-q")
	run(t, src, gitEnv, "git", "add", "-A")
	run(t, src, gitEnv, "git", "commit", "-qm", "snapshot")
	run(t, "", nil, "git", "clone", "-q", src, clone)
	head := strings.TrimSpace(run(t, clone, nil, "git", "rev-parse", "HEAD"))

	run(t, clone, nil, "sh", "-c", buildLine)
	bin := filepath.Join(clone, binPath)
	if out := run(t, clone, nil, bin, "--version"); !strings.HasPrefix(out, "recall ") {
		t.Errorf("%s --version: %s", binPath, out)
	}
	cmd := exec.Command(bin, "demo")
	cmd.Dir = clone
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), errNoTerminal.Error()) {
		t.Errorf("%s demo (no terminal) should ask for one: %s", binPath, out)
	}
	if st := run(t, clone, nil, "git", "status", "--porcelain"); st != "" {
		t.Errorf("the build left files git sees (.gitignore):\n%s", st)
	}

	gobin := t.TempDir()
	run(t, clone, []string{"GOBIN=" + gobin, "GOFLAGS=-buildvcs=true"}, "go", "install", ".")
	out := run(t, clone, nil, filepath.Join(gobin, "recall"), "version")
	if !strings.Contains(out, "revision "+head) {
		t.Errorf("go install with VCS stamping: version does not name commit %s:\n%s", head, out)
	}
	readmeGoInstallLatest(t, string(readme), clone, head)
}

// readmeGoInstallLatest runs the README's `go install MODULE@latest` against
// a module proxy (a folder, GOPROXY=file://...) whose only version of the
// module is the clone's commit, as the real proxy serves an untagged commit
// (a pseudo-version). Nothing is fetched: the dependencies come from the
// module cache. The binary's --version must have the shape the README shows.
func readmeGoInstallLatest(t *testing.T, readme, clone, head string) {
	m := regexp.MustCompile("go install (\\S+)@latest").FindStringSubmatch(readme)
	mod, _ := os.ReadFile(filepath.Join(clone, "go.mod"))
	module := regexp.MustCompile(`(?m)^module (\S+)`).FindStringSubmatch(string(mod))
	if m == nil || module == nil || m[1] != module[1] {
		t.Fatalf("the README's go install line names %v, go.mod the module %v", m, module)
	}
	cmd := exec.Command("git", "log", "-1", "--format=%cd", "--date=format-local:%Y%m%d%H%M%S")
	cmd.Dir, cmd.Env = clone, append(os.Environ(), "TZ=UTC")
	stamp, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	version := "v0.0.0-" + strings.TrimSpace(string(stamp)) + "-" + head[:12]
	proxy := t.TempDir()
	dir := filepath.Join(proxy, m[1], "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"list": version + "\n", version + ".info": `{"Version":"` + version + `"}`, version + ".mod": string(mod)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, clone, nil, "git", "archive", "--format=zip", "--prefix="+m[1]+"@"+version+"/", "-o", filepath.Join(dir, version+".zip"), "HEAD")

	// GOSUMDB=off: outside a module, go install checks the dependencies
	// against the checksum database, which a machine with no network but
	// the module proxy cannot reach; they come from the module cache, which
	// the test binary's own build verified against go.sum.
	gobin := t.TempDir()
	run(t, t.TempDir(), []string{"GOBIN=" + gobin, "GOPROXY=file://" + proxy + ",off", "GOSUMDB=off", "GOFLAGS="}, "go", "install", m[1]+"@latest")
	out := run(t, "", nil, filepath.Join(gobin, "recall"), "--version")
	if !strings.HasPrefix(out, "recall "+version+"\n") || !strings.Contains(out, "revision "+head[:12]+" (") {
		t.Errorf("recall --version after go install %s@latest:\n%s", m[1], out)
	}
	// The README's example is this output, but for the version, commit, time and Go.
	shape := func(s string) string {
		for _, r := range []struct{ re, to string }{
			{`v0\.0\.0-\d{14}-[0-9a-f]{12}`, "VERSION"}, {`\b[0-9a-f]{12}\b`, "COMMIT"},
			{`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`, "TIME"}, {`go1\.\d+(\.\d+)? \S+/\S+`, "GO PLATFORM"},
		} {
			s = regexp.MustCompile(r.re).ReplaceAllString(s, r.to)
		}
		return strings.TrimSpace(s)
	}
	var example string
	for _, b := range mdBlocks(t, "README.md") {
		if b.lang == "" && len(b.lines) > 0 && strings.HasPrefix(b.lines[0], "recall v") {
			example = strings.Join(b.lines, "\n")
		}
	}
	if shape(example) != shape(out) {
		t.Errorf("the README shows --version printing\n%s\nbut a go install of the module prints\n%s", example, out)
	}
}
