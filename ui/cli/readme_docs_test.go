package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The documents a user reads, from the repository's root.
var userDocs = []string{"README.md", "DESIGN.md", "BENCHMARKS.md", "FORMATS.md"}

// mdBlock is one fenced code block of a markdown file: its language, the
// nearest heading above it and its lines.
type mdBlock struct {
	lang, heading string
	lines         []string
}

// mdBlocks returns the fenced code blocks of the markdown file name (a path
// from the repository's root).
func mdBlocks(t *testing.T, name string) []mdBlock {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []mdBlock
	var cur *mdBlock
	heading := ""
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &mdBlock{lang: strings.TrimPrefix(l, "```"), heading: heading}
		case cur != nil && strings.HasPrefix(l, "```"):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, l)
		case strings.HasPrefix(l, "#"):
			heading = l
		}
	}
	return blocks
}

// commandPart is a shell line without its trailing comment ("  # ...") and
// surrounding space.
func commandPart(line string) string {
	if i := strings.Index(line, "  #"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// readmeCommandLines returns the command lines of the README's sh blocks
// other than those TestREADMEUsingItLinesWork runs ("Using it" and "Shell
// completion"), comments and blank lines left out.
func readmeCommandLines(t *testing.T) []string {
	var lines []string
	for _, b := range mdBlocks(t, "README.md") {
		if b.lang != "sh" || b.heading == "## Using it" || b.heading == "### Shell completion" {
			continue
		}
		for _, l := range b.lines {
			if c := commandPart(l); c != "" && !strings.HasPrefix(c, "#") {
				lines = append(lines, c)
			}
		}
	}
	return lines
}

// readmeLineChecks says, for every command line of the README's sh blocks
// outside "Using it" and "Shell completion" (TestREADMEUsingItLinesWork runs
// every line of those), which test runs it, or why no test does. A line
// added to the README must be added here: TestREADMECommandLinesAreChecked.
var readmeLineChecks = map[string]string{
	"go install github.com/recall-dev/recall@latest": "TestREADMEBuildLineInAFreshClone, from a module proxy holding a clone",
	"recall --version":                 setUpTest,
	"recall demo":                      setUpTest,
	"recall import all":                setUpTest,
	"recall":                           setUpTest,
	"source <(recall completion bash)": setUpTest,
	"recall service install":           setUpTest,
	"go run . demo":                    setUpTest,
	"go test -tags heavy ./...":        "not run: it is the test suite itself (.ci/run runs it)",
	"export RECALL_LLM_BASE_URL=http://localhost:11434/v1  RECALL_LLM_MODEL=qwen2.5:7b": setUpTest,
	"testdata/agents/drift.sh": "not run: it installs every agent's newest release from npm (run by hand when one ships)",
	// Sync: the hosts are fakes of ssh (a script running the host's recall
	// with another HOME) and, with -tags heavy, a real sshd on loopback.
	"recall sync devbox laptop":          "TestSyncOverFakeSSH (sync devbox down laptop), TestSyncRealSSH",
	"recall sync --push devbox":          "TestSyncOverFakeSSH",
	"recall sync":                        "TestSyncHostProblems (the hosts of config.json)",
	"recall recent --machine devbox":     "TestSyncOverFakeSSH",
	"recall resume SESSION_ID --print":   "TestSyncOverFakeSSH (a session synced from devbox)",
	"recall export --batch -o all.batch": "TestBatchFile",
	"recall import batch all.batch":      "TestBatchFile",
	"recall service install --sync":      "TestServiceSyncTimer (systemctl recorded, not run)",
}

// setUpTest is the test that runs a README line against the demo history.
const setUpTest = "TestREADMESetUpLinesWork"

// Every command line the README shows is run by a test or says why not, and
// the table names no line the README no longer has.
func TestREADMECommandLinesAreChecked(t *testing.T) {
	lines := readmeCommandLines(t)
	if len(lines) < 5 {
		t.Fatalf("only %d command lines found: %q", len(lines), lines)
	}
	for _, l := range lines {
		if _, ok := readmeLineChecks[l]; !ok {
			t.Errorf("README line %q is neither run by a test nor said why not (readmeLineChecks)", l)
		}
	}
	for l := range readmeLineChecks {
		if !slices.Contains(lines, l) {
			t.Errorf("readmeLineChecks names %q, which the README no longer shows", l)
		}
	}
}

// mdLink matches a markdown link or image: [text](target) or ![alt](target).
var mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// githubSlug is the anchor GitHub gives a heading: lower case, punctuation
// other than '-' and '_' dropped, spaces as '-'.
func githubSlug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(strings.TrimLeft(heading, "#"))) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a markdown file.
func anchors(t *testing.T, name string) map[string]bool {
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	inCode := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(l, "#") {
			out[githubSlug(l)] = true
		}
	}
	return out
}

// Every relative link and picture of the user's documents leads somewhere:
// the file exists, the heading it names is there, and a picture is small
// enough to load at once (the README's are made by assets/screens/shoot.sh).
func TestDocsLinksResolve(t *testing.T) {
	for _, doc := range userDocs {
		b, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			if file == "" {
				file = doc
			}
			st, err := os.Stat(filepath.Join("..", "..", file))
			if err != nil {
				t.Errorf("%s: link %q: %v", doc, target, err)
				continue
			}
			if anchor != "" && !anchors(t, file)[anchor] {
				t.Errorf("%s: link %q: %s has no heading with that anchor", doc, target, file)
			}
			if strings.HasPrefix(m[0], "!") && st.Size() > 200<<10 {
				t.Errorf("%s: picture %s is %d KB (keep it under 200 KB)", doc, file, st.Size()>>10)
			}
		}
	}
}

// goBench matches a benchmark command: go test, its package, then -bench
// and its pattern (quoted or not).
var goBench = regexp.MustCompile(`go test (?:-tags \S+ )?(\./\S+) [^\n` + "`" + `]*?-bench '?([^' \n` + "`" + `]+)'?`)

// Every benchmark command the documents show names a package that has a
// benchmark its pattern selects, so a renamed benchmark cannot leave a
// command that measures nothing.
func TestDocsBenchmarkCommandsExist(t *testing.T) {
	found := 0
	for _, doc := range userDocs {
		b, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goBench.FindAllStringSubmatch(string(b), -1) {
			found++
			pkg, pattern := m[1], m[2]
			re, err := regexp.Compile(pattern)
			if err != nil {
				t.Errorf("%s: %q: -bench %q is no pattern: %v", doc, m[0], pattern, err)
				continue
			}
			tests, _ := filepath.Glob(filepath.Join("..", "..", pkg, "*_test.go"))
			ok := false
			for _, f := range tests {
				src, _ := os.ReadFile(f)
				for _, name := range regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`).FindAllStringSubmatch(string(src), -1) {
					ok = ok || re.MatchString(name[1])
				}
			}
			if !ok {
				t.Errorf("%s: %q: no benchmark in %s matches %q", doc, m[0], pkg, pattern)
			}
		}
	}
	if found < 10 {
		t.Errorf("only %d benchmark commands found in %v", found, userDocs)
	}
}

// projectHistory matches the ways the documents once dated figures by the
// project's own milestones instead of by date and commit.
var projectHistory = regexp.MustCompile(`(?i)\b(first|second|third|fourth) stop\b|stop's tree|\(second stop`)

// The user's documents give today's figures with their date and commit,
// not the project's history (earlier trees belong to git history).
func TestDocsTellNoProjectHistory(t *testing.T) {
	for _, doc := range []string{"README.md", "DESIGN.md", "BENCHMARKS.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if m := projectHistory.FindString(l); m != "" {
				t.Errorf("%s:%d: %q dates a figure by the project's history: give the date and commit", doc, i+1, m)
			}
		}
	}
}

// repoPath matches a code span naming a file or folder of the repository.
var repoPath = regexp.MustCompile("`((?:store|ui|recall|assets|testdata|migrations)/[^`\\s]*)`")

// Every file or folder of the repository that the README, DESIGN.md or
// BENCHMARKS.md names in code is there: a moved file leaves no dead pointer
// in the design text. Spans with placeholders (<source>, {a,b}, *) are
// patterns, not paths.
func TestDocsNameFilesThatExist(t *testing.T) {
	n := 0
	for _, doc := range []string{"README.md", "DESIGN.md", "BENCHMARKS.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range repoPath.FindAllStringSubmatch(string(b), -1) {
			p := m[1]
			if strings.ContainsAny(p, "<{*") || strings.Contains(p, "..") {
				continue
			}
			n++
			if _, err := os.Stat(filepath.Join("..", "..", p)); err != nil {
				t.Errorf("%s names %s, which is not in the repository", doc, p)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d paths found", n)
	}
}
