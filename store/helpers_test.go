package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/migrations"
	"github.com/recall-dev/recall/store/engine/postings"
	"github.com/recall-dev/recall/store/engine/rowcache"
)

// epoch is the fixed clock the fixtures use: message timestamps are epoch+N
// minutes, so Since/Until filters have exact answers.
var epoch = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return epoch.Add(time.Duration(minutes) * time.Minute) }

// mustOpen creates a fresh recall database in t.TempDir().
func mustOpen(t testing.TB) *Store {
	t.Helper()
	return mustOpenPath(t, filepath.Join(t.TempDir(), "recall.db"), Options{Create: true})
}

// mustOpenPath opens path and closes it when the test ends.
func mustOpenPath(t testing.TB, path string, opts Options) *Store {
	t.Helper()
	st, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// needSQLite3 skips the test when the native sqlite3 shell is not installed.
func needSQLite3(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("native sqlite3 shell not installed")
	}
}

// shell runs the native sqlite3 shell on path with sql on stdin (and extra
// flags before the path) and returns its stdout; any stderr output fails the
// test, because the shell reports SQL errors there and still exits 0.
func shell(t testing.TB, path, sql string, flags ...string) string {
	t.Helper()
	args := append(append([]string{"-batch", "-bail"}, flags...), path)
	cmd := exec.Command("sqlite3", args...)
	cmd.Stdin = strings.NewReader(sql)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("sqlite3 %v: %v\nstderr: %s\nsql: %.500s", args, err, errb.String(), sql)
	}
	return out.String()
}

// migrationDDL concatenates the embedded migration files numbered from..to,
// as a native writer would have run them.
func migrationDDL(t testing.TB, from, to int) string {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range ms {
		if m.version >= from && m.version <= to {
			b.WriteString(m.sql)
			b.WriteString("\n")
		}
	}
	if b.Len() == 0 {
		t.Fatalf("no migrations %d..%d in %v", from, to, migrations.FS)
	}
	return b.String()
}

// readFixture returns a file under testdata/.
func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fileSum is the sha256 of a file.
func fileSum(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// dirNames lists a directory's file names, sorted.
func dirNames(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// copyFile copies src to dst.
func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rawConn opens a second connection of our own to path (a "second writer"
// when readOnly is false), closed at the end of the test.
func rawConn(t testing.TB, path string, readOnly bool) *conn {
	t.Helper()
	if err := initSQLite(); err != nil {
		t.Fatal(err)
	}
	c, err := openConn(path, readOnly)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.close() })
	return c
}

// rows runs sql on c and renders every row as its columns' text joined by
// " | ", so whole tables compare as []string.
func rows(t testing.TB, c *conn, sql string, args ...any) []string {
	t.Helper()
	var out []string
	err := c.query(sql, args, func(st stmtRow) error {
		cols := make([]string, st.ColumnCount())
		for i := range cols {
			cols[i] = st.ColumnText(i)
		}
		out = append(out, strings.Join(cols, " | "))
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

// count runs a count(*) query on c.
func count(t testing.TB, c *conn, sql string, args ...any) int64 {
	t.Helper()
	n, _, err := c.scalarInt(sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// storeCount runs a scalar query on a reader connection of st.
func storeCount(t testing.TB, st *Store, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	err := st.read(context.Background(), func(c *conn) error {
		var err error
		n, _, err = c.scalarInt(sql, args...)
		return err
	})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// ftsIntegrity runs FTS5's integrity-check on each table through c (which
// must be writable: the check is an INSERT command).
func ftsIntegrity(t testing.TB, c *conn, tables ...string) {
	t.Helper()
	for _, tb := range tables {
		if err := c.exec("INSERT INTO " + tb + "(" + tb + ") VALUES ('integrity-check')"); err != nil {
			t.Errorf("%s integrity-check: %v", tb, err)
		}
	}
}

// sqliteIntegrity asserts PRAGMA integrity_check says ok.
func sqliteIntegrity(t testing.TB, c *conn) {
	t.Helper()
	if got := rows(t, c, "PRAGMA integrity_check"); len(got) != 1 || got[0] != "ok" {
		t.Errorf("integrity_check = %v", got)
	}
}

// allFTS are recall's three full-text tables.
var allFTS = []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"}

// fixture is one labelled message of a test corpus.
type fixture struct {
	label   string
	session string
	role    string
	content string
	tool    string // tool_name
	calls   string // tool_calls JSON
	minute  int    // timestamp = at(minute)
}

// fixtureSession describes a session the corpus writes before its messages.
type fixtureSession struct {
	id, source, title, parent string
	minute                    int
}

// seed writes sessions and messages into st and returns label -> message id.
func seed(t testing.TB, st *Store, sessions []fixtureSession, msgs []fixture) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	err := st.Write(context.Background(), func(tx *Tx) error {
		for _, s := range sessions {
			if err := tx.UpsertSession(Session{ID: s.id, Source: s.source, Title: s.title, ParentID: s.parent,
				Model: "test-model", StartedAt: at(s.minute)}); err != nil {
				return err
			}
		}
		batch := make([]Message, len(msgs))
		for i, m := range msgs {
			batch[i] = Message{SessionID: m.session, Role: m.role, Content: m.content, ToolName: m.tool,
				ToolCalls: m.calls, Timestamp: at(m.minute)}
		}
		// One message per call: the trigger path, as a live agent writes.
		for i := range batch {
			if _, err := tx.InsertMessages(batch[i : i+1]); err != nil {
				return err
			}
			ids[msgs[i].label] = batch[i].ID
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return ids
}

// hitIDs are the message ids of a result, in result order.
func hitIDs(res SearchResult) []int64 {
	out := make([]int64, len(res.Hits))
	for i, h := range res.Hits {
		out[i] = h.MessageID
	}
	return out
}

// labelsOf maps result ids back to fixture labels, sorted.
func labelsOf(res SearchResult, ids map[string]int64) []string {
	byID := map[int64]string{}
	for l, id := range ids {
		byID[id] = l
	}
	var out []string
	for _, h := range res.Hits {
		l, ok := byID[h.MessageID]
		if !ok {
			l = fmt.Sprintf("#%d", h.MessageID)
		}
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// search runs SearchMessages and fails the test on error.
func search(t testing.TB, st *Store, q string, f SearchFilter) SearchResult {
	t.Helper()
	res, err := st.SearchMessages(context.Background(), q, f)
	if err != nil {
		t.Fatalf("SearchMessages(%q, %+v): %v", q, f, err)
	}
	return res
}

// testIndexes reads st's FTS tables as the engine does, with row caches of
// its own.
func testIndexes(st *Store) *postings.Indexes { return postings.NewIndexes(rowcache.New(st.Path())) }
