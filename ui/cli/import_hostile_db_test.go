package cli

import (
	"bufio"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sqliteShell runs the native sqlite3 shell on db with sql.
func sqliteShell(t *testing.T, db, sql string) {
	t.Helper()
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 not installed")
	}
	cmd := exec.Command("sqlite3", db)
	cmd.Stdin = strings.NewReader(sql)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
}

// crushSchema is the two tables of a crush.db the importer reads, with one
// session; messages is left to each case.
const crushSessions = `CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, message_count INTEGER,
	prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, updated_at INTEGER, created_at INTEGER);
INSERT INTO sessions VALUES ('s1', NULL, 'hostile', 1, 0, 0, 0, 1764932400, 1764932400);
`

// TestImportHostileCrushDB: crush.db files that are not what Crush writes
// are each named with why, in the text and in --json problems, and never
// hang the import: a messages view over an endless recursive CTE, a
// messages virtual table, 100 KB of random bytes, a 10 GB sparse file of
// zeros, a database locked EXCLUSIVE by its app. Before: the view spun
// until killed, random bytes and the sparse file said "1 records skipped"
// with "problems": [], the lock cost 25 s and "this looks like a Hermes
// state.db".
func TestImportHostileCrushDB(t *testing.T) {
	isolateAgents(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		make  func(t *testing.T, path string) (release func())
		why   string
		fails bool
	}{
		{"recursive view", func(t *testing.T, p string) func() {
			sqliteShell(t, p, crushSessions+`CREATE VIEW messages AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
				SELECT i AS id, 's1' AS session_id, 'user' AS role, '[]' AS parts, i AS created_at, i AS updated_at FROM r;`)
			return nil
		}, "messages is a view, where the app writes a table: not read", true},
		{"virtual table", func(t *testing.T, p string) func() {
			sqliteShell(t, p, crushSessions+`CREATE VIRTUAL TABLE messages USING fts5(id, session_id, role, parts, created_at, updated_at);`)
			return nil
		}, "messages is a virtual table, where the app writes a table: not read", true},
		{"random bytes", func(t *testing.T, p string) func() {
			b := make([]byte, 100<<10)
			rand.Read(b)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "not a SQLite database (no SQLite header: an app still creating it, or another kind of file): not read, tried again on the next run", false},
		{"sparse 10 GB", func(t *testing.T, p string) func() {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(10 << 30); err != nil {
				t.Skipf("no sparse file here: %v", err)
			}
			return nil
		}, "not a SQLite database (no SQLite header: an app still creating it, or another kind of file): not read, tried again on the next run", false},
		{"locked", func(t *testing.T, p string) func() {
			sqliteShell(t, p, crushSessions+`CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts TEXT, model TEXT, provider TEXT,
				created_at INTEGER, updated_at INTEGER, finished_at INTEGER); PRAGMA journal_mode=WAL;`)
			// The app holds an exclusive lock while the import runs.
			cmd := exec.Command("sqlite3", p)
			in, _ := cmd.StdinPipe()
			out, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(in, "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sessions SET title = title; SELECT 'held';")
			for r := bufio.NewReader(out); ; {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatalf("the lock was not taken: %v", err)
				}
				if strings.TrimSpace(line) == "held" {
					break
				}
			}
			return func() { in.Close(); cmd.Wait() }
		}, "locked by another program (its app, writing it): it will be read on the next run", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			project := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-"))
			path := filepath.Join(project, ".crush", "crush.db")
			os.MkdirAll(filepath.Dir(path), 0o755)
			if release := c.make(t, path); release != nil {
				defer release()
			}
			db := filepath.Join(project, "state.db")
			t0 := time.Now()
			code, out, errOut := runCLI(t, false, "--db", db, "import", "crush", path)
			if took := time.Since(t0); took > 30*time.Second {
				t.Errorf("took %s", took)
			}
			if want := "  " + path + ": " + c.why + "\n"; !strings.Contains(out, want) {
				t.Errorf("text lacks %q:\n%s%s", want, out, errOut)
			}
			if (code != 0) != c.fails || strings.Contains(errOut, "looks like") {
				t.Errorf("exit %d (fails: %v):\n%s", code, c.fails, errOut)
			}
			_, out, _ = runCLI(t, false, "--db", db, "import", "crush", "--json", path)
			var rep importJSON
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(rep.Problems) != 1 || rep.Problems[0].File != path || rep.Problems[0].Message != c.why || rep.Skipped != 0 {
				t.Errorf("--json: %+v", rep)
			}
		})
	}
}

// TestImportAllPastHostileDB: `import all` with a crush.db whose messages
// is an endless view among the sources goes on with the others, the
// crush.db named with why (before: it blocked after the other sources).
func TestImportAllPastHostileDB(t *testing.T) {
	home := isolateAgents(t)
	codex := filepath.Join(home, "codex")
	if err := os.CopyFS(codex, os.DirFS(filepath.Join("..", "..", "testdata", "agents", "codex", "home", ".codex"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", codex)
	crushData := filepath.Join(home, "crush-data")
	project := filepath.Join(home, "app")
	path := filepath.Join(project, ".crush", "crush.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.MkdirAll(crushData, 0o755)
	sqliteShell(t, path, crushSessions+`CREATE VIEW messages AS WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
		SELECT i AS id, 's1' AS session_id, 'user' AS role, '[]' AS parts, i AS created_at, i AS updated_at FROM r;`)
	list, _ := json.Marshal(map[string]any{"projects": []map[string]string{{"path": project}}})
	if err := os.WriteFile(filepath.Join(crushData, "projects.json"), list, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRUSH_GLOBAL_DATA", crushData)
	code, out, errOut := runCLI(t, false, "--db", filepath.Join(home, "state.db"), "import", "all")
	if code != 0 || !strings.Contains(out, "codex: 4 files, 4 sessions") ||
		!strings.Contains(out, "  "+path+": messages is a view, where the app writes a table: not read") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

// TestFirstImportAllSaysWhatAndWhere: the first `import all` on a machine
// with Claude Code and Codex says why it skipped what it skipped (grouped
// by kind, under each source's line), counts in English ("1 file"), gives
// the total and the database, and ends with the next step, after the
// retention notes. Before: "178 records skipped" with no reason, "1
// files", no database, no total, and the notes last.
func TestFirstImportAllSaysWhatAndWhere(t *testing.T) {
	home := isolateAgents(t)
	for env, dir := range map[string]string{"CLAUDE_CONFIG_DIR": "claude-code/home/.claude", "CODEX_HOME": "codex/home/.codex"} {
		to := filepath.Join(home, env)
		if err := os.CopyFS(to, os.DirFS(filepath.Join("..", "..", "testdata", "agents", dir))); err != nil {
			t.Fatal(err)
		}
		t.Setenv(env, to)
	}
	db := filepath.Join(home, "state.db")
	code, out, errOut := runCLI(t, false, "--db", db, "import", "all")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	sources := 0
	for i, l := range lines {
		if strings.Contains(l, " 1 files") || strings.Contains(l, " 1 sessions") || strings.Contains(l, " 1 messages") {
			t.Errorf("not English: %q", l)
		}
		if strings.HasPrefix(l, "claude-code: ") || strings.HasPrefix(l, "codex: ") {
			sources++
			if !strings.Contains(l, "records skipped") {
				t.Errorf("the fixture skips records: %q", l)
				continue
			}
			if i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "  records skipped, by kind: ") || !strings.ContainsAny(lines[i+1], "0123456789") {
				t.Errorf("no reasons under %q", l)
			}
		}
	}
	total := lines[len(lines)-1]
	if sources != 2 || !strings.HasPrefix(total, "total: ") || !strings.Contains(total, " from 2 sources in ") || !strings.HasSuffix(total, ", into "+db) {
		t.Errorf("output:\n%s", out)
	}
	errLines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if last := errLines[len(errLines)-1]; last != "next: `recall --db "+db+"` to browse and search them (`recall --db "+db+" search QUERY` in a script)" ||
		!strings.Contains(errOut, "note: Claude Code deletes transcripts") {
		t.Errorf("stderr does not end with the next step:\n%s", errOut)
	}
}
