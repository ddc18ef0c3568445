package store

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// crashedHermes makes a Hermes v10 state.db with a real writer (python3's
// sqlite3 module) that SIGKILLs itself: mode "wal" after committing (its
// commits only in the -wal), "journal" inside a rollback-journal
// transaction (a hot -journal).
func crashedHermes(t *testing.T, dir, mode string) string {
	t.Helper()
	needSQLite3(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	ddl := filepath.Join(dir, "ddl.sql")
	if err := os.WriteFile(ddl, []byte(migrationDDL(t, 1, 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "state.db")
	out, err := exec.Command("python3", "testdata/crashed_writer.py", path, mode, ddl, "testdata/hermes_seed.sql").CombinedOutput()
	if !strings.Contains(string(out), "ready") {
		t.Fatalf("crashed writer: %v\n%s", err, out)
	}
	companion := map[string]string{"wal": "-wal", "journal": "-journal", "fresh": "-journal"}[mode]
	if fi, err := os.Stat(path + companion); err != nil || fi.Size() == 0 {
		t.Fatalf("the crashed writer left no %s: %v", companion, err)
	}
	return path
}

// sums is the sha256 of path and each companion file that exists (never -shm).
func sums(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, suffix := range []string{"", "-wal", "-journal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			out[suffix] = fileSum(t, path+suffix)
		}
	}
	return out
}

func sameSums(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed state.db%s", what, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s created state.db%s", what, k)
		}
	}
}

// TestCrashedHermesWALUntouched: Hermes killed after committing leaves its
// commits in state.db-wal. recall reads them (they are committed) without
// merging them into state.db or emptying the WAL: the layout is decided on a
// read-only connection, so the foreign file is never opened read-write and
// closing never checkpoints; recall changes only -shm, as a native mode=ro
// reader does.
func TestCrashedHermesWALUntouched(t *testing.T) {
	path := crashedHermes(t, t.TempDir(), "wal")
	before := sums(t, path)
	// The native reference: a mode=ro reader changes nothing but -shm.
	shell(t, "file:"+path+"?mode=ro", "SELECT count(*) FROM messages;")
	sameSums(t, "native mode=ro", before, sums(t, path))

	ctx := context.Background()
	for _, opts := range []Options{{}, {Create: true}, {ReadOnly: true}} {
		st, err := Open(ctx, path, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !st.ReadOnly() {
			t.Fatalf("%+v: Hermes file opened writable", opts)
		}
		if res := search(t, st, "crashwal", SearchFilter{Limit: 500}); len(res.Hits) == 0 {
			t.Errorf("the committed WAL rows are not searchable (%s)", res.Index)
		}
		if res := search(t, st, "数据库", SearchFilter{}); len(res.Hits) == 0 {
			t.Error("CJK search found nothing")
		}
		list, err := st.RecentSessions(ctx, ListOptions{Limit: 10})
		if err != nil || len(list) != 3 { // h-root, h-tg and h-crash; h-child is a subagent
			t.Errorf("recent: %d sessions, %v", len(list), err)
		}
		ms, err := st.Messages(ctx, "h-crash")
		if err != nil || len(ms) != 300 {
			t.Errorf("messages of the crashed session: %d, %v", len(ms), err)
		}
		if _, err := st.Session(ctx, "h-root"); err != nil {
			t.Error(err)
		}
		if _, err := st.Stats(ctx); err != nil {
			t.Error(err)
		}
		if _, err := st.ChangeToken(ctx); err != nil {
			t.Error(err)
		}
		if err := st.CreateSession(ctx, Session{ID: "x"}); !errors.Is(err, ErrReadOnly) {
			t.Errorf("write into a Hermes file: %v", err)
		}
		st.Close()
		sameSums(t, "recall", before, sums(t, path))
	}
}

// TestCrashedHermesJournalUntouched: a hot journal can only be rolled back
// by a writer; recall used to open the file read-write and roll it back.
// Now it refuses with one line that says what happened and what to do, and
// neither the file nor the journal changes.
func TestCrashedHermesJournalUntouched(t *testing.T) {
	path := crashedHermes(t, t.TempDir(), "journal")
	before := sums(t, path)
	if journalOfEmptyFile(path + "-journal") {
		t.Error("the journal of a file with pages taken for an empty file's (which recall may roll back)")
	}
	for _, opts := range []Options{{}, {Create: true}, {ReadOnly: true}} {
		_, err := Open(context.Background(), path, opts)
		if !errors.Is(err, ErrHotJournal) {
			t.Fatalf("%+v: open = %v, want ErrHotJournal", opts, err)
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, path+"-journal") || !strings.Contains(msg, "crashed") {
			t.Errorf("message = %q", msg)
		}
		sameSums(t, "recall", before, sums(t, path))
	}
}

// TestHotJournalOfEmptyFile: a writer that crashed inside the first
// transaction of a new, empty file (recall's own creation stopped while
// switching to WAL does this) leaves a hot journal that says the file had
// no pages: rolling it back gives an empty file, which recall creates its
// database in; a read-only open still refuses to roll anything back.
func TestHotJournalOfEmptyFile(t *testing.T) {
	path := crashedHermes(t, t.TempDir(), "fresh")
	if !journalOfEmptyFile(path + "-journal") {
		t.Fatal("the journal does not say the file was empty")
	}
	if _, err := Open(context.Background(), path, Options{ReadOnly: true}); !errors.Is(err, ErrHotJournal) {
		t.Errorf("read-only open = %v, want ErrHotJournal", err)
	}
	assertComplete(t, path)
	if exists := storeCount(t, mustOpenPath(t, path, Options{}), "SELECT count(*) FROM sqlite_master WHERE name = 't'"); exists != 0 {
		t.Error("the crashed transaction's table survived")
	}
}

// TestErrorMessages: failures of the file read as one line a person can act
// on, never SQLite's internals ("PRAGMA synchronous=NORMAL: sqlite3: file is
// not a database"), and carry an exported kind.
func TestErrorMessages(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	os.WriteFile(notDB, []byte(strings.Repeat("these are my notes, not a database\n", 200)), 0o600)
	missing := filepath.Join(dir, "missing.db")
	for _, tc := range []struct {
		path string
		opts Options
		kind error
		want string
	}{
		{notDB, Options{}, ErrNotDatabase, notDB + " is not a SQLite database"},
		{notDB, Options{ReadOnly: true}, ErrNotDatabase, notDB + " is not a SQLite database"},
		{missing, Options{}, ErrNoDatabase, missing + ": no such database file"},
		{dir, Options{}, ErrNotDatabase, dir + " is a directory"},
	} {
		_, err := Open(context.Background(), tc.path, tc.opts)
		if !errors.Is(err, tc.kind) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Open(%s, %+v) = %v, want %v (%q)", tc.path, tc.opts, err, tc.kind, tc.want)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "PRAGMA") || strings.Contains(msg, "sqlite3:") {
			t.Errorf("internals in %q", msg)
		}
	}
}

// corruptPages overwrites every page of the named b-tree (all but the
// first 8 bytes of each, so SQLite sees a page of nonsense).
func corruptPages(t *testing.T, path, btree string) {
	t.Helper()
	needSQLite3(t)
	shell(t, path, "PRAGMA wal_checkpoint(TRUNCATE);")
	pages := strings.Fields(shell(t, path, "SELECT pageno FROM dbstat WHERE name = '"+btree+"';", "-readonly"))
	if len(pages) == 0 {
		t.Fatalf("no pages for %s", btree)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Seeded: some random pages read as a record too big to hold
	// (SQLITE_TOOBIG) rather than as a damaged page, which made the test
	// fail now and then; these read as damaged every time.
	junk := make([]byte, 4096-8)
	rng := rand.New(rand.NewSource(1))
	for _, p := range pages {
		var n int64
		for _, c := range p {
			n = n*10 + int64(c-'0')
		}
		rng.Read(junk)
		if _, err := f.WriteAt(junk, (n-1)*4096+8); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCorruptDatabaseWrite: a write that meets damaged pages fails with
// ErrCorrupt and a line that names the file and what to do (importers stop
// on it: IsDatabaseFault).
func TestCorruptDatabaseWrite(t *testing.T) {
	st, _ := routingStore(t)
	path := st.Path()
	st.Close()
	corruptPages(t, path, "sessions")
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer st.Close()
	err = st.CreateSession(context.Background(), Session{ID: "new-after-corruption", Source: "cli"})
	if !errors.Is(err, ErrCorrupt) || !IsDatabaseFault(err) {
		t.Fatalf("write into a corrupt database = %v, want ErrCorrupt", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, path+" is corrupt") || strings.Contains(msg, "\n") || !strings.Contains(msg, ".recover") {
		t.Errorf("message = %q", msg)
	}
	if _, err := st.RecentSessions(context.Background(), ListOptions{Limit: 5}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("read of a corrupt table = %v, want ErrCorrupt", err)
	}
}
