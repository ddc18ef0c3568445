package importer_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// historyFixture names the files a source's never-lose-history test
// imports when the source has no testdata/agents/<source>/home (files a
// real agent wrote): a folder under testdata/importers, or a setup that
// builds them into a folder.
type historyFixture struct {
	dir   string
	setup func(t *testing.T, dst string)
	// file, when set, is the one path under the copy to import (a
	// database the source reads by name).
	file string
}

// historyFixtures: a new source needs testdata/agents/<its name>/home or a
// line here (TestHistoryKept says so).
var historyFixtures = map[string]historyFixture{
	"claude-code":      {dir: "claude"},
	"codex":            {dir: "codex"},
	"gemini-cli":       {dir: "gemini"},
	"jsonl":            {dir: "jsonl"},
	"hermes":           {setup: sqlFixture("hermes", "state.db", "schema.sql", "seed.sql")},
	"aider":            {dir: "aider"},
	"amp":              {dir: "amp"},
	"chatgpt":          {dir: "chatgpt"},
	"claude-ai":        {dir: "claudeai"},
	"crush":            {setup: sqlFixture("crush", "crush.db", "schema.sql", "seed.sql"), file: "crush.db"},
	"cursor":           {setup: sqlFixture("cursor", "state.vscdb", "schema.sql", "seed.sql"), file: "state.vscdb"},
	"cursor-agent":     {setup: sqlFixture("cursoragent", "store.db", "store.sql"), file: "store.db"},
	"droid":            {dir: "droid"},
	"goose":            {setup: sqlFixture("goose", "sessions.db", "schema.sql", "seed.sql"), file: "sessions.db"},
	"roo-code":         {dir: "roo-code"},
	"gemini-apps":      {dir: "gemini-apps"},
	"copilot-chat":     {dir: "copilot-chat"},
	"trae-cli":         {dir: "trae-cli"},
	"zed":              {setup: sqlFixture("zed", "threads.db", "schema.sql", "seed.sql"), file: "threads.db"},
	"warp":             {setup: sqlFixture("warp", "warp.sqlite", "schema.sql", "seed.sql"), file: "warp.sqlite"},
	"deepseek-harness": {dir: "dsh"},
	"devin":            {setup: sqlFixture("devin", "sessions.db", "schema.sql", "seed.sql"), file: "sessions.db"},
	"mistral-vibe":     {dir: "vibe"},
	"openhands":        {dir: "openhands"},
	"grok-build":       {dir: "grokbuild"},
	"amazon-q":         {setup: sqlFixture("amazonq", "data.sqlite3", "schema.sql", "seed.sql"), file: "data.sqlite3"},
	"kiro":             {setup: sqlFixture("kiro", "data.sqlite3", "schema.sql", "seed.sql"), file: "data.sqlite3"},
	"junie":            {dir: "junie"},
	"antigravity":      {dir: "antigravity"},
	"qoder":            {dir: "qoder"},
	"grok-cli":         {setup: sqlFixture("grokcli", "grok.db", "schema.sql", "seed.sql"), file: "grok.db"},
}

// sqlFixture builds <dst>/<name> with the native sqlite3 shell from the
// .sql files of testdata/importers/<dir>: the apps' databases are kept as
// SQL, so a fixture is readable and diffable.
func sqlFixture(dir, name string, files ...string) func(t *testing.T, dst string) {
	return func(t *testing.T, dst string) {
		needShell(t)
		var sql strings.Builder
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(it.Fixtures(t, dir), f))
			if err != nil {
				t.Fatal(err)
			}
			sql.Write(b)
			sql.WriteString("\n")
		}
		shellSQL(t, filepath.Join(dst, name), sql.String())
	}
}

// treeWithDB copies testdata/importers/<dir> into dst (a source that
// reads files beside its database) and builds <dst>/<name> as sqlFixture.
func treeWithDB(dir, name string, files ...string) func(t *testing.T, dst string) {
	return func(t *testing.T, dst string) {
		if err := os.CopyFS(dst, os.DirFS(it.Fixtures(t, dir))); err != nil {
			t.Fatal(err)
		}
		sqlFixture(dir, name, files...)(t, dst)
	}
}

func needShell(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not on PATH")
	}
}

func shellSQL(t *testing.T, db, sql string) {
	t.Helper()
	cmd := exec.Command("sqlite3", "-bail", db)
	cmd.Stdin = strings.NewReader(sql)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sqlite3 %s: %v\n%s", db, err, out)
	}
}

// agentHome is testdata/agents/<source>/home, "" when there is none.
func agentHome(t *testing.T, source string) string {
	p := it.AgentHome(t, source)
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return filepath.Clean(p)
	}
	return ""
}

// historySetup copies the source's fixture into a temporary folder and
// returns the paths to import (nil: the source's default locations, with
// HOME pointed at the copy of an agent's home).
func historySetup(t *testing.T, src importer.Source) (root string, paths []string) {
	if home := agentHome(t, src.Name()); home != "" {
		root = it.CopyTree(t, home)
		t.Setenv("HOME", root)
		for _, k := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "HERMES_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "CODEBUDDY_CONFIG_DIR"} {
			t.Setenv(k, "")
		}
		return root, nil
	}
	fx, ok := historyFixtures[src.Name()]
	if !ok {
		t.Fatalf("source %s has no fixture for the never-lose-history test: add testdata/agents/%s/home (files the agent wrote) or a line for it in historyFixtures (store/importer/history_test.go)", src.Name(), src.Name())
	}
	if fx.setup != nil {
		root = t.TempDir()
		fx.setup(t, root)
	} else {
		root = it.CopyTree(t, it.Fixtures(t, fx.dir))
	}
	if fx.file != "" {
		return root, []string{filepath.Join(root, fx.file)}
	}
	return root, []string{root}
}

// messageSet is every message of a dump as "session: message", counted.
func messageSet(d map[string]it.Session) map[string]int {
	out := map[string]int{}
	for id, s := range d {
		for _, m := range s.Msgs {
			out[id+": "+m.Role+" "+m.Content]++
		}
	}
	return out
}

// missing lists what of before is not in after.
func missing(before, after map[string]int) []string {
	var out []string
	for k, n := range before {
		if after[k] < n {
			out = append(out, fmt.Sprintf("%dx %.120q", n-after[k], k))
		}
	}
	sort.Strings(out)
	return out
}

// shorten rewrites a source file as an agent that drops history would: a
// SQLite database (Hermes's state.db) loses its newer half of sessions, as
// a prune does (edits inside a session, a rewind or replace_messages, are
// Hermes's own and mirrored), any other file its second half of lines (at
// least one line goes, at least one stays).
func shorten(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(path) {
		return // a conversation inside an export, recorded by its id
	}
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(string(b), "SQLite format 3\x00") {
		needShell(t)
		if !hermesLayout(t, path) {
			shortenTables(t, path)
			return
		}
		shellSQL(t, path, `CREATE TEMP TABLE doomed AS SELECT id FROM sessions ORDER BY started_at DESC LIMIT (SELECT (count(*) + 1) / 2 FROM sessions);
UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IN (SELECT id FROM doomed);
DELETE FROM messages WHERE session_id IN (SELECT id FROM doomed);
DELETE FROM sessions WHERE id IN (SELECT id FROM doomed);`)
		return
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) < 2 {
		it.Write(t, path, "")
		return
	}
	it.Write(t, path, strings.Join(lines[:len(lines)/2], ""))
}

// hermesLayout reports whether the database has Hermes's sessions table.
func hermesLayout(t *testing.T, db string) bool {
	out, err := exec.Command("sqlite3", db, "SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'started_at'").Output()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v", db, err)
	}
	return strings.TrimSpace(string(out)) == "1"
}

// shortenTables drops the newer half of the rows of every ordinary table
// (not the shadow tables of an FTS index), as an app that prunes its
// history would.
func shortenTables(t *testing.T, db string) {
	out, err := exec.Command("sqlite3", db, `SELECT name FROM sqlite_master t WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
AND NOT EXISTS (SELECT 1 FROM sqlite_master v WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL%' AND (t.name = v.name OR t.name LIKE v.name || '_%'))`).Output()
	if err != nil {
		t.Fatalf("sqlite3 %s: %v", db, err)
	}
	var sql strings.Builder
	for _, name := range strings.Fields(string(out)) {
		fmt.Fprintf(&sql, "DELETE FROM %q WHERE rowid IN (SELECT rowid FROM %q ORDER BY rowid DESC LIMIT (SELECT count(*) / 2 FROM %q));\n", name, name, name)
	}
	shellSQL(t, db, sql.String())
}

// TestHistoryKept: for every registered source, the sessions and messages
// recall imported stay when the agent rewrites its files shorter or
// deletes them, and `stats` counts the sessions whose files are gone.
func TestHistoryKept(t *testing.T) {
	for _, src := range importer.Sources() {
		t.Run(src.Name(), func(t *testing.T) {
			if _, ok := src.(importer.Unreadable); ok {
				t.Skip("its files are found, never read: nothing imported to keep")
			}
			ctx := context.Background()
			root, paths := historySetup(t, src)
			st := it.Open(t)
			run := func(label string) importer.Report {
				t.Helper()
				rep, err := importer.Run(ctx, st, src, paths, importer.Options{})
				if err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				return rep
			}
			run("first import")
			before := it.Dump(t, st)
			if it.Count(before) == 0 {
				t.Fatalf("the fixture of %s imported no messages", src.Name())
			}
			files, err := st.ImportFiles(ctx)
			if err != nil || len(files) == 0 {
				t.Fatalf("no import records: %v", err)
			}

			for _, f := range files {
				shorten(t, f.Path)
			}
			run("import after the files were rewritten shorter")
			if lost := missing(messageSet(before), messageSet(it.Dump(t, st))); len(lost) > 0 {
				t.Errorf("rewritten shorter: %d messages lost:\n%s", len(lost), strings.Join(lost, "\n"))
			}
			if gone, err := st.SessionsSourceGone(ctx); err != nil || gone != 0 {
				t.Errorf("sessions with their source gone while the files are there: %d, %v", gone, err)
			}

			for _, f := range files {
				if err := os.Remove(f.Path); err != nil && !(errors.Is(err, fs.ErrNotExist) && !filepath.IsAbs(f.Path)) {
					t.Fatal(err)
				}
			}
			if err := os.RemoveAll(root); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(root, 0o755)
			run("import after the files were deleted")
			after := it.Dump(t, st)
			if lost := missing(messageSet(before), messageSet(after)); len(lost) > 0 {
				t.Errorf("deleted: %d messages lost:\n%s", len(lost), strings.Join(lost, "\n"))
			}
			gone, err := st.SessionsSourceGone(ctx)
			all, err := st.Stats(ctx)
			if err != nil || int64(gone) != all.Sessions {
				t.Errorf("sessions whose source is gone: %d, want all %d (%v)", gone, all.Sessions, err)
			}
			var s store.Stats
			if s, err = st.Stats(ctx); err != nil || s.SessionsSourceGone != int64(gone) {
				t.Errorf("stats: sessions_source_gone %d, want %d (%v)", s.SessionsSourceGone, gone, err)
			}
		})
	}
}
