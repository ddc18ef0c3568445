package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// isolateAgents points every agent's default location into an empty temp
// dir, so tests never read the developer's real histories.
func isolateAgents(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	for _, k := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "HERMES_HOME", "CODEX_SQLITE_HOME", "RECALL_DB"} {
		t.Setenv(k, filepath.Join(home, "absent-"+strings.ToLower(k)))
	}
	return home
}

func runCLIStdin(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, strings.NewReader(stdin), &out, &errb, false)
	return code, out.String(), errb.String()
}

func decodeJSON[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, s)
	}
	return v
}

const jsonlSample = `{"session_id":"s1","role":"user","content":"how do I rotate the staging certificate","timestamp":"2026-07-17T09:00:00Z","title":"Cert rotation"}
{"session_id":"s1","role":"assistant","content":"run certbot renew on the ingress","timestamp":"2026-07-17T09:00:05Z"}
{"session_id":"s1","role":"user","content":"thanks" this is not json
{"session_id":"s2","role":"user","content":"second session","timestamp":"2026-07-17T10:00:00Z"}
`

func TestImportJSONLFile(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	file := filepath.Join(t.TempDir(), "history.jsonl")
	if err := os.WriteFile(file, []byte(jsonlSample), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, false, "--db", db, "import", "jsonl", file, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := decodeJSON[importJSON](t, out)
	if rep.Source != "jsonl" || rep.Files != 1 || rep.Messages != 3 || rep.Sessions != 2 || rep.Malformed != 1 {
		t.Fatalf("report = %+v", rep)
	}
	if len(rep.Problems) != 1 || rep.Problems[0].Line != 3 || rep.Problems[0].File != file || !strings.Contains(rep.Problems[0].Message, "invalid JSON") {
		t.Fatalf("problems = %+v", rep.Problems)
	}

	// Nothing changed: nothing added.
	code, out, errOut = runCLI(t, false, "--db", db, "import", "--json", "jsonl", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep = decodeJSON[importJSON](t, out)
	if rep.Messages != 0 || rep.Unchanged != 1 || rep.Files != 0 {
		t.Fatalf("re-import = %+v", rep)
	}

	// The good lines are searchable; the session is there with its title.
	code, out, _ = runCLI(t, false, "--db", db, "recent", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	rows := decodeJSON[[]recentJSON](t, out)
	if len(rows) != 2 {
		t.Fatalf("recent = %+v", rows)
	}
	for _, r := range rows {
		if r.ID == "s1" && (r.MessageCount != 2 || r.Title != "Cert rotation") {
			t.Fatalf("s1 = %+v", r)
		}
	}

	// Plain text: one summary line plus the problem as file:line: message.
	if err := os.WriteFile(file, []byte(jsonlSample+`{"session_id":"s2","role":"assistant","content":"ok","timestamp":"2026-07-17T10:00:01Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, false, "--db", db, "import", "jsonl", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "jsonl: 1 file, 1 session, 1 message imported in ") || !strings.Contains(out, " msg/s)") ||
		!strings.Contains(out, "\ndatabase: "+db+"\n") {
		t.Fatalf("text output:\n%s", out)
	}
	if !strings.HasSuffix(errOut, "next: `recall --db "+db+"` to browse and search them (`recall --db "+db+" search QUERY` in a script)\n") {
		t.Errorf("the last line of stderr is not the next step:\n%s", errOut)
	}
}

func TestImportJSONLStdin(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	code, out, errOut := runCLIStdin(t, jsonlSample, "--db", db, "import", "jsonl", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "3 messages imported") || !strings.Contains(lines[0], "1 malformed") || lines[2] != "database: "+db {
		t.Fatalf("output:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], "  -:3: invalid JSON") {
		t.Fatalf("problem line = %q", lines[1])
	}
	// The same stream again adds nothing (message keys).
	code, out, errOut = runCLIStdin(t, jsonlSample, "--db", db, "import", "jsonl", "-", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if rep := decodeJSON[importJSON](t, out); rep.Messages != 0 || rep.Malformed != 1 || rep.Problems[0].Line != 3 {
		t.Fatalf("re-import = %+v", rep)
	}
	code, out, _ = runCLI(t, false, "--db", db, "recent", "--json")
	if rows := decodeJSON[[]recentJSON](t, out); code != 0 || len(rows) != 2 {
		t.Fatalf("recent: %s", out)
	}
}

func TestImportErrors(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	tests := map[string]struct {
		args []string
		code int
		want []string
	}{
		"unknown source":   {[]string{"import", "notepad"}, 2, []string{`unknown source "notepad"`, "claude-code (claude)", "codex", "gemini-cli (gemini)", "hermes", "jsonl"}},
		"no source":        {[]string{"import"}, 2, []string{"a SOURCE is required"}},
		"jsonl needs file": {[]string{"import", "jsonl"}, 2, []string{"jsonl needs a FILE"}},
		"missing path":     {[]string{"import", "claude", "/nonexistent/recall-test"}, 1, []string{"no such file or directory"}},
		"stdin not jsonl":  {[]string{"import", "codex", "-"}, 2, []string{"only jsonl reads standard input"}},
		"watch jsonl":      {[]string{"watch", "--once", "jsonl"}, 2, []string{"jsonl has no default location"}},
		"watch unknown":    {[]string{"watch", "--once", "nope"}, 2, []string{`unknown source "nope"`}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := runCLI(t, false, append([]string{"--db", db}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			if n := strings.Count(strings.TrimSpace(errOut), "\n"); n != 0 {
				t.Fatalf("error is not one line:\n%s", errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Fatalf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

func TestImportClaudeTree(t *testing.T) {
	home := isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	root := filepath.Join(home, "claude")
	tree := writeClaudeTree(t, root, 3, 24, 12)

	code, out, errOut := runCLI(t, false, "--db", db, "import", "claude", tree.Dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := decodeJSON[importJSON](t, out)
	if rep.Source != "claude-code" || rep.Files != tree.Files || rep.Messages != tree.Messages || rep.Malformed != 0 || rep.Failed != 0 {
		t.Fatalf("report = %+v, tree = %+v", rep, tree)
	}
	if rep.Skipped == 0 || rep.Seconds <= 0 || rep.MessagesPerSec <= 0 {
		t.Fatalf("report = %+v", rep)
	}

	code, out, _ = runCLI(t, false, "--db", db, "recent", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	rows := decodeJSON[[]recentJSON](t, out)
	if len(rows) != tree.Sessions {
		t.Fatalf("recent has %d sessions, want %d", len(rows), tree.Sessions)
	}
	ids := map[string]bool{}
	for _, r := range rows {
		ids[r.ID] = true
		if r.Source != "claude-code" || r.MessageCount != 24 || r.Model != "claude-sonnet-4-5" || r.Cwd == "" {
			t.Fatalf("session = %+v", r)
		}
	}
	if !ids[claudeSessionID(0)] || !ids[claudeSessionID(2)] {
		t.Fatalf("sessions = %v", ids)
	}

	// import all: Claude Code is found through CLAUDE_CONFIG_DIR, the other
	// sources are absent and skipped; everything is unchanged; the
	// retention notice is printed once.
	t.Setenv("CLAUDE_CONFIG_DIR", root)
	code, out, errOut = runCLI(t, false, "--db", db, "import", "all", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reps := decodeJSON[[]importJSON](t, out)
	if len(reps) != 1 || reps[0].Source != "claude-code" || reps[0].Unchanged != tree.Files || reps[0].Messages != 0 {
		t.Fatalf("import all = %+v", reps)
	}
	if strings.Count(errOut, "Claude Code deletes transcripts") != 1 {
		t.Fatalf("retention notice:\n%s", errOut)
	}

	// watch --once picks up lines appended to a transcript.
	f := filepath.Join(tree.Dir, "-home-dev-proj00", claudeSessionID(0)+".jsonl")
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	sid := claudeSessionID(0)
	for i := 0; i < 2; i++ {
		fmt.Fprintf(fh, `{"type":"user","uuid":"late-%d","sessionId":%q,"timestamp":"2026-03-02T09:00:0%dZ","cwd":"/home/dev/proj0","message":{"role":"user","content":"one more question about the ingress %d"}}`+"\n", i, sid, i, i)
	}
	fh.Close()
	code, out, errOut = runCLI(t, false, "--db", db, "watch", "--once", "claude")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "claude-code: +2 messages") || strings.Count(out, "\n") != 1 {
		t.Fatalf("watch output:\n%s", out)
	}
	code, out, _ = runCLI(t, false, "--db", db, "watch", "--once")
	if code != 0 || out != "" {
		t.Fatalf("second watch printed %q (exit %d)", out, code)
	}
	code, out, _ = runCLI(t, false, "--db", db, "recent", "--json")
	found := false
	for _, r := range decodeJSON[[]recentJSON](t, out) {
		if r.ID == sid {
			found = r.MessageCount == 26 && r.LastActive == "2026-03-02T09:00:01Z"
		}
	}
	if code != 0 || !found {
		t.Fatalf("recent after watch: %s", out)
	}
}

func TestImportAllNothingFound(t *testing.T) {
	isolateAgents(t)
	db := filepath.Join(t.TempDir(), "state.db")
	code, out, errOut := runCLI(t, false, "--db", db, "import", "all")
	if code != 0 || out != "" || !strings.Contains(errOut, "no agent history found") {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, false, "--db", db, "import", "all", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Fatalf("json: %q", out)
	}
}

func TestParseInterspersed(t *testing.T) {
	env := &Env{Stderr: &bytes.Buffer{}}
	fs := newFlags(&Command{Name: "x"}, env)
	j := fs.Bool("json", false, "")
	got, err := parseArgs(fs, []string{"claude", "--json", "a", "--", "--b"})
	if err != nil || !*j || strings.Join(got, " ") != "claude a --b" {
		t.Fatalf("got %v %v %v", got, *j, err)
	}
}

// BenchmarkImportClaude imports a generated ~200 MB Claude Code tree (500
// files of 640 messages; RECALL_BENCH_IMPORT_FILES changes the file count,
// 50 is a quick ~20 MB run) into a fresh database per iteration and reports
// messages/s, MB/s and how the time splits between parsing and writing
// SQLite. Run with
// go test -run '^$' -bench ImportClaude -benchtime 1x ./ui/cli/
func BenchmarkImportClaude(b *testing.B) {
	files := benchFiles(b, 500)
	tree := writeClaudeTree(b, b.TempDir(), files, 640, 24)
	src, ok := importer.Lookup("claude")
	if !ok {
		b.Fatal("claude source not registered")
	}
	ctx := context.Background()
	var msgs int
	var parse, write, elapsed time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st, err := store.Open(ctx, filepath.Join(b.TempDir(), "state.db"), store.Options{Create: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		rep, err := importer.Run(ctx, st, src, []string{tree.Dir}, importer.Options{})
		elapsed += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if rep.Messages != tree.Messages {
			b.Fatalf("imported %d messages, want %d", rep.Messages, tree.Messages)
		}
		msgs += rep.Messages
		parse += rep.ParseTime
		write += rep.WriteTime
		st.Close()
		b.StartTimer()
	}
	b.StopTimer()
	s := elapsed.Seconds()
	b.ReportMetric(float64(msgs)/s, "msgs/s")
	b.ReportMetric(float64(tree.Bytes)*float64(b.N)/1e6/s, "MB/s")
	if tot := parse + write; tot > 0 {
		b.ReportMetric(100*float64(parse)/float64(tot), "parse%")
		b.ReportMetric(100*float64(write)/float64(tot), "write%")
	}
	b.Logf("tree: %d files, %d messages, %.1f MB", tree.Files, tree.Messages, float64(tree.Bytes)/1e6)
}

// BenchmarkImportNewestFirst measures how soon a first import makes the
// recent past searchable: on the generated tree (file i written i hours
// after the first, 500 files over three weeks by default), the time until
// the newest twelfth of the files is imported, newest first (the default)
// and in Discover's path order (the order before), side by side.
func BenchmarkImportNewestFirst(b *testing.B) {
	files := benchFiles(b, 500)
	tree := writeClaudeTree(b, b.TempDir(), files, 640, 24)
	src, _ := importer.Lookup("claude")
	discovered, err := src.Discover([]string{tree.Dir})
	if err != nil {
		b.Fatal(err)
	}
	recent := map[string]bool{}
	for _, p := range tree.Paths[len(tree.Paths)-max(1, files/12):] {
		recent[p] = true
	}
	for _, order := range []struct {
		name  string
		files []string // nil: Run's own order
	}{{"newest-first", nil}, {"path-order", discovered}} {
		b.Run(order.name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "state.db"), store.Options{Create: true})
				if err != nil {
					b.Fatal(err)
				}
				left, t0, at := len(recent), time.Now(), time.Duration(0)
				_, err = importer.Run(context.Background(), st, src, []string{tree.Dir}, importer.Options{Files: order.files,
					Progress: func(p importer.Progress) {
						if recent[p.File] {
							if left--; left == 0 {
								at = time.Since(t0)
							}
						}
					}})
				st.Close()
				if err != nil {
					b.Fatal(err)
				}
				total += at
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s-to-recent")
		})
	}
}

// benchFiles is the file count of a generated import tree:
// $RECALL_BENCH_IMPORT_FILES, else def.
func benchFiles(b *testing.B, def int) int {
	v := os.Getenv("RECALL_BENCH_IMPORT_FILES")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("RECALL_BENCH_IMPORT_FILES=%q: want a positive file count", v)
	}
	return n
}
