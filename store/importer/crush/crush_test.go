package crush

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	s1    = "7c1d0e52-8a43-4d1e-9b6f-1a2b3c4d5e60"
	child = "toolu_01ChildAgentCall"
)

// crushDB builds <dir>/api/.crush/crush.db the way a running Crush has it
// (WAL, rows not checkpointed, the writer still open) and Crush's data dir
// listing the project; it returns the data dir, the database and the writer.
func crushDB(t *testing.T) (string, string, *sqlite3.Conn) {
	t.Helper()
	dir := t.TempDir()
	proj := filepath.Join(dir, "api")
	if err := os.MkdirAll(filepath.Join(proj, ".crush"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(proj, ".crush", "crush.db")
	// The schema in the main file, the rows in the WAL, not yet checkpointed,
	// as with a running Crush.
	w := it.LiveDB(t, path, it.Fixtures(t, "crush"), "PRAGMA journal_mode=DELETE", "schema.sql", "PRAGMA journal_mode=WAL", "seed.sql")
	data := filepath.Join(dir, "data")
	os.MkdirAll(data, 0o755)
	list := `{"projects":[{"path":"` + proj + `","data_dir":"` + filepath.Join(proj, ".crush") + `","last_accessed":"2025-12-05T10:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(data, "projects.json"), []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRUSH_GLOBAL_DATA", data)
	return data, path, w
}

func sum(t *testing.T, paths ...string) string {
	h := sha256.New()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestImport(t *testing.T) {
	data, path, _ := crushDB(t)
	before := sum(t, path, path+"-wal")
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, data)
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 10 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	if sum(t, path, path+"-wal") != before {
		t.Error("the import changed Crush's database")
	}
	cwd := filepath.Dir(filepath.Dir(path))
	d := it.Dump(t, st)
	if len(d) != 2 {
		t.Fatalf("sessions %v", it.IDs(d))
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: s1, Source: "crush", Model: "claude-sonnet-4-5", Title: "Fix flaky TestRetry", StartedAt: time.Unix(1764932400, 0),
			InputTokens: 12000, OutputTokens: 800, EstimatedCostUSD: 0.042, Cwd: cwd, MessageCount: 8, ToolCallCount: 2}, []it.Msg{
			{Role: "user", Content: "TestRetry fails one run in ten, find out why"},
			{Role: "assistant", Content: "Let me run it 50 times.", Reasoning: "Probably a timing assumption; run it repeatedly.",
				ToolCalls: it.Calls("toolu_01Bash", "bash", `{"command":"go test -run TestRetry -count=50 ./retry"}`), Finish: "tool_use"},
			{Role: "tool", Content: "--- FAIL: TestRetry (0.01s)\n    retry_test.go:41: backoff 9ms < 10ms", ToolCallID: "toolu_01Bash", ToolName: "bash"},
			{Role: "assistant", Content: "The jitter can make the backoff shorter than the 10ms the test expects; compare against the minimum instead.", Finish: "end_turn"},
			{Role: "user", Content: "! git status --short", Kind: "command"},
			{Role: "user", Content: " M retry/retry_test.go", Kind: "agent"},
			{Role: "user", Content: "commit it"},
			// Cancelled while the input streamed: the call, no result.
			{Role: "assistant", ToolCalls: it.Calls("toolu_01Commit", "bash", `{"command":"git commit -am`), Finish: "canceled"},
		}},
		{store.Session{ID: child, Source: "crush", Model: "claude-haiku-4-5", Title: "Find retry tests", ParentID: s1, StartedAt: time.Unix(1764932440, 0),
			InputTokens: 900, OutputTokens: 60, EstimatedCostUSD: 0.003, Cwd: cwd, MessageCount: 2}, []it.Msg{
			{Role: "user", Content: "List the tests that call retry.Do"},
			{Role: "assistant", Content: "retry_test.go: TestRetry, TestRetryGivesUp", Finish: "end_turn"},
		}},
	} {
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}
	rep = it.Run(t, st, &Source{}, data)
	if rep.Unchanged != 1 || rep.Files != 0 {
		t.Errorf("again: %+v", rep)
	}
}

// TestIncremental: Crush writes on; only the session that changed is read
// again, and its rows are replaced, not doubled.
func TestIncremental(t *testing.T) {
	data, _, w := crushDB(t)
	st := it.Open(t)
	it.Run(t, st, &Source{}, data)
	if err := w.Exec(`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES
		('c3', '` + child + `', 'user', '[{"type":"text","data":{"text":"and the benchmarks?"}}]', 1764932470, 1764932470)`); err != nil {
		t.Fatal(err)
	}
	rep := it.Run(t, st, &Source{}, data)
	if rep.Files != 1 || rep.Sessions != 1 || rep.Messages != 1 {
		t.Errorf("after one new message: %+v, want the child session alone (1 session, 1 new message)", rep)
	}
	if d := it.Dump(t, st); it.Count(d) != 11 {
		t.Errorf("%d messages, want 11", it.Count(d))
	}
}

// TestHalfWritten: a crush.db Crush is still creating (not yet a database)
// is passed over without an error, with a line saying why, and read on the
// next run.
func TestHalfWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".crush", "crush.db")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("SQLite format 3\x00\x10\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CRUSH_GLOBAL_DATA", filepath.Join(dir, "none"))
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Failed != 0 || rep.Deferred != 1 || rep.Files != 0 || len(rep.Problems) != 1 ||
		rep.Problems[0].File != path || !strings.Contains(rep.Problems[0].Msg, "not a SQLite database") {
		t.Errorf("half-written: %+v, want it passed over for the next run, named", rep)
	}
}

// TestLocked: a crush.db another process holds an exclusive lock on (a
// rollback-journal database mid-write) is passed over without an error,
// with a line saying it is locked, nothing recorded, and imported on the
// next run once the lock is gone.
func TestLocked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".crush", "crush.db")
	w := it.LiveDB(t, path, it.Fixtures(t, "crush"), "PRAGMA journal_mode=DELETE", "schema.sql", "seed.sql")
	t.Setenv("CRUSH_GLOBAL_DATA", filepath.Join(dir, "none"))
	if err := w.Exec("BEGIN EXCLUSIVE; UPDATE sessions SET title = title"); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Failed != 0 || rep.Deferred != 1 || rep.Messages != 0 || len(rep.Problems) != 1 ||
		rep.Problems[0].String() != path+": locked by another program (its app, writing it): it will be read on the next run" {
		t.Errorf("locked: %+v, want it passed over, named", rep)
	}
	if err := w.Exec("COMMIT"); err != nil {
		t.Fatal(err)
	}
	if rep := it.Run(t, st, &Source{}, dir); rep.Files != 1 || rep.Messages != 10 {
		t.Errorf("after the lock: %+v, want the 10 messages", rep)
	}
}
