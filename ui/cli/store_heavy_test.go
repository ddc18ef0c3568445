//go:build heavy

package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/migrations"
)

var built struct {
	once sync.Once
	bin  string
	err  error
}

// TestMain removes the binary buildRecall shared between the tests.
// The shared build is removed after the tests (main_test.go's TestMain
// runs afterTests; a package has one TestMain).
func init() {
	afterTests = append(afterTests, func() {
		if built.bin != "" {
			os.RemoveAll(filepath.Dir(built.bin))
		}
	})
}

// buildRecall builds the binary once per test run, into a directory every
// user may read (TestReadOnlyFilesBrowsable runs it as another user).
func buildRecall(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "recall-bin-")
		if err != nil {
			built.err = err
			return
		}
		os.Chmod(dir, 0o755)
		built.bin = filepath.Join(dir, "recall")
		if out, err := exec.Command("go", "build", "-o", built.bin, "../..").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
}

// TestEightImportsAtOnce: 8 `recall import jsonl` processes, 20,000 messages
// each, started at once: each waits its turn however long the others take
// (one transaction per file, parsing included), and nothing is lost (before:
// up to 4 of 8 failed with "database stayed locked … after 15 attempts").
func TestEightImportsAtOnce(t *testing.T) {
	needTools(t, "sqlite3")
	const procs, msgs = 8, 20000
	bin := buildRecall(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	var files []string
	for p := 0; p < procs; p++ {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		for i := 0; i < msgs; i++ {
			enc.Encode(map[string]any{"session_id": fmt.Sprintf("w%d", p), "role": []string{"user", "assistant"}[i%2],
				"content":   fmt.Sprintf("writer %d message %d docker compose logs show an error in module %d %s", p, i, i%97, strings.Repeat("lorem ipsum ", i%5)),
				"timestamp": 1777640000 + i})
		}
		f := filepath.Join(dir, fmt.Sprintf("w%d.jsonl", p))
		os.WriteFile(f, []byte(b.String()), 0o600)
		files = append(files, f)
	}
	var wg sync.WaitGroup
	errs := make([]string, procs)
	t0 := time.Now()
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			if out, err := exec.Command(bin, "--db", db, "import", "jsonl", files[p]).CombinedOutput(); err != nil || strings.Contains(string(out), "locked") {
				errs[p] = fmt.Sprintf("import %d: %v: %s", p, err, out)
			}
		}(p)
	}
	wg.Wait()
	failed := 0
	for _, e := range errs {
		if e != "" {
			failed++
			t.Error(e)
		}
	}
	t.Logf("%d imports x %d messages at once: %d failed, %s", procs, msgs, failed, time.Since(t0).Round(time.Second))
	if n := sqlite3Int(t, db, "SELECT count(*) FROM messages;"); n != procs*msgs {
		t.Errorf("messages = %d, want %d", n, procs*msgs)
	}
	if n := sqlite3Int(t, db, fmt.Sprintf("SELECT count(*) FROM sessions WHERE message_count = %d;", msgs)); n != procs {
		t.Errorf("%d sessions with %d messages, want %d", n, msgs, procs)
	}
	if n := sqlite3Int(t, db, "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'docker';"); n != procs*msgs {
		t.Errorf("messages_fts docker = %d", n)
	}
	checkIntegrity(t, db)
	sqlite3Shell(t, db, "INSERT INTO recall_fts_cjk(recall_fts_cjk) VALUES('integrity-check');")
}

// crashedHermesFile runs store/testdata/crashed_writer.py (python3's native
// sqlite3 as a Hermes-like writer that SIGKILLs itself) in dir.
func crashedHermesFile(t *testing.T, dir, mode string) string {
	t.Helper()
	var ddl strings.Builder
	entries, _ := fs.ReadDir(migrations.FS, ".")
	for _, e := range entries {
		n, _ := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if n >= 1 && n <= 10 {
			b, _ := fs.ReadFile(migrations.FS, e.Name())
			ddl.Write(b)
			ddl.WriteString("\n")
		}
	}
	ddlFile := filepath.Join(dir, "ddl.sql")
	os.WriteFile(ddlFile, []byte(ddl.String()), 0o600)
	path := filepath.Join(dir, "state.db")
	out, err := exec.Command("python3", "../../store/testdata/crashed_writer.py", path, mode, ddlFile, "../../store/testdata/hermes_seed.sql").CombinedOutput()
	if !strings.Contains(string(out), "ready") {
		t.Fatalf("crashed writer: %v\n%s", err, out)
	}
	return path
}

// fileSums is the sha256 of the database, -wal and -journal (not -shm).
func fileSums(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, s := range []string{"", "-wal", "-journal"} {
		if b, err := os.ReadFile(path + s); err == nil {
			h := sha256.Sum256(b)
			out["state.db"+s] = hex.EncodeToString(h[:])
		}
	}
	return out
}

func checkSums(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	if fmt.Sprint(want) != fmt.Sprint(got) {
		t.Errorf("%s changed the files:\nbefore %v\nafter  %v", what, want, got)
	}
}

// readCommands are every command that only reads (each also with --json).
func readCommands(db string) [][]string {
	var out [][]string
	for _, c := range [][]string{{"recent"}, {"search", "docker"}, {"search", "数据库"}, {"messages", "crash"}, {"show", "h-root"}, {"stats"}, {"export", "h-root"}} {
		asJSON := []string{"--json"}
		if c[0] == "export" {
			asJSON = []string{"--format", "json"}
		}
		out = append(out, append([]string{"--db", db}, c...), append(append([]string{"--db", db, c[0]}, asJSON...), c[1:]...))
	}
	return out
}

// TestReadCommandsLeaveCrashedHermesUntouched: Hermes killed after
// committing (its commits only in state.db-wal), and Hermes killed inside
// a rollback-journal transaction (a hot state.db-journal). After every read
// command and the TUI the sha256 of the database and its WAL/journal are
// unchanged (before: `recent` merged the WAL into state.db and emptied it,
// and rolled the journal back). The WAL file is read; the hot journal gets
// one line that says what happened and what to do, exit 1.
func TestReadCommandsLeaveCrashedHermesUntouched(t *testing.T) {
	needTools(t, "sqlite3", "python3")
	bin := buildRecall(t)
	t.Run("wal", func(t *testing.T) {
		db := crashedHermesFile(t, t.TempDir(), "wal")
		before := fileSums(t, db)
		for _, args := range readCommands(db) {
			out, err := exec.Command(bin, args...).CombinedOutput()
			if err != nil {
				t.Errorf("%v: %v\n%s", args[2:], err, out)
			}
			checkSums(t, fmt.Sprint(args[2:]), before, fileSums(t, db))
		}
		if out, _ := exec.Command(bin, "--db", db, "messages", "--json", "crashwal").Output(); !strings.Contains(string(out), `"session_id": "h-crash"`) {
			t.Errorf("the WAL's committed rows are not read:\n%.300s", out)
		}
		tuiSession(t, bin, db, "crashwal")
		checkSums(t, "the TUI", before, fileSums(t, db))
	})
	t.Run("journal", func(t *testing.T) {
		db := crashedHermesFile(t, t.TempDir(), "journal")
		before := fileSums(t, db)
		for _, args := range readCommands(db) {
			// stderr carries the one line (stdout may carry a JSON error envelope).
			cmd := exec.Command(bin, args...)
			var errb strings.Builder
			cmd.Stderr = &errb
			_, err := cmd.Output()
			lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
			if err == nil || len(lines) != 1 || !strings.Contains(errb.String(), "hot journal") {
				t.Errorf("%v: %v\n%s", args[2:], err, errb.String())
			}
			checkSums(t, fmt.Sprint(args[2:]), before, fileSums(t, db))
		}
		tuiSession(t, bin, db, "")
		checkSums(t, "the TUI", before, fileSums(t, db))
	})
}

// tuiSession runs the TUI on db in a private tmux server (120x40), types
// query (when not empty) and waits for its results, moves, opens the tool
// view, and quits; with no query it expects the one-line error.
func tuiSession(t *testing.T, bin, db, query string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Log("tmux not installed: TUI not checked")
		return
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tm := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out)
	}
	defer tm("kill-server")
	dir := t.TempDir()
	tm("new-session", "-d", "-s", "t", "-x", "120", "-y", "40",
		"env -u RECALL_LLM_BASE_URL -u OPENAI_API_KEY -u CI TERM=xterm-256color XDG_CONFIG_HOME="+dir+" "+bin+" --db "+db+"; echo TUI-EXIT-$?; sleep 30")
	wait := func(what string, ok func(string) bool) string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			s := tm("capture-pane", "-p", "-t", "t")
			if ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s:\n%s", what, s)
			}
		}
	}
	if query == "" {
		s := wait("exit", func(s string) bool { return strings.Contains(s, "TUI-EXIT-") })
		if !strings.Contains(s, "hot journal") || strings.Contains(s, "TUI-EXIT-0") {
			t.Errorf("TUI on a hot journal:\n%s", s)
		}
		return
	}
	wait("the session list", func(s string) bool { return regexp.MustCompile(`\d+ sessions`).MatchString(s) })
	tm("send-keys", "-t", "t", "-l", query)
	wait("results for "+query, func(s string) bool {
		return regexp.MustCompile(`[1-9]\d* session`).MatchString(s) && strings.Contains(s, query)
	})
	for _, k := range []string{"Down", "Up", "Tab", "t", "t", "Tab", "Enter"} {
		tm("send-keys", "-t", "t", k)
		time.Sleep(150 * time.Millisecond)
	}
	tm("send-keys", "-t", "t", "C-c")
	if s := wait("exit", func(s string) bool { return strings.Contains(s, "TUI-EXIT-") }); !strings.Contains(s, "TUI-EXIT-0") {
		t.Errorf("TUI exit:\n%s", s)
	}
}

// asOther runs name/args as a user without root's powers: the test itself
// when it is not root (then file modes already bind it), else uid/gid
// 65534 (nobody), for whom chmod 444 and a 0555 directory really refuse
// writes. ok is false when neither is possible.
func asOther(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	return cmd
}

// TestReadOnlyFilesBrowsable: wherever the native shell can read a database
// with -readonly, recall browses it: a 0444 recall database (it said
// "permission denied"), a WAL database in a read-only directory with and
// without its -wal and -shm (it said "PRAGMA synchronous=NORMAL: attempt to
// write a readonly database"), and a 0444 Hermes file. Run as uid 65534
// when the tests run as root, since root ignores file modes.
func TestReadOnlyFilesBrowsable(t *testing.T) {
	needTools(t, "sqlite3")
	bin := buildRecall(t)
	base, err := os.MkdirTemp("", "recall-ro-")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		filepath.Walk(base, func(p string, _ os.FileInfo, _ error) error { os.Chmod(p, 0o755); return nil })
		os.RemoveAll(base)
	}()
	os.Chmod(base, 0o755)
	home := filepath.Join(base, "home")
	os.MkdirAll(home, 0o777)
	os.Chmod(home, 0o777)
	owner := func(p string) {
		if os.Geteuid() == 0 {
			os.Lchown(p, 65534, 65534)
		}
	}
	// One recall database with a session to find.
	makeDB := func(name string) string {
		dir := filepath.Join(base, name)
		os.MkdirAll(dir, 0o755)
		db := filepath.Join(dir, "state.db")
		in := `{"session_id":"ro1","role":"user","content":"read only docker question","timestamp":1777640000}` + "\n"
		cmd := exec.Command(bin, "--db", db, "import", "jsonl", "-")
		cmd.Stdin = strings.NewReader(in)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("import: %v %s", err, out)
		}
		filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { owner(p); return nil })
		return db
	}
	type tc struct {
		name string
		db   string
		// mustRead: recall reads it even where the native shell cannot (a
		// WAL database on read-only storage with no -wal: read as immutable).
		mustRead bool
	}
	var cases []tc

	db := makeDB("file444")
	os.Chmod(db, 0o444)
	cases = append(cases, tc{"0444 recall database", db, false})

	db = makeDB("rodir")
	os.Chmod(filepath.Dir(db), 0o555)
	cases = append(cases, tc{"read-only directory, no -wal/-shm", db, true})

	db = makeDB("rodir-wal")
	// A writer's -wal and -shm left in place (as while one is running).
	if out, err := exec.Command("python3", "-c", `
import sqlite3, os, signal, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("INSERT INTO sessions(id, source, started_at) VALUES ('ro2', 'cli', 1)")
os.kill(os.getpid(), signal.SIGKILL)`, db).CombinedOutput(); err == nil || !exists(db+"-wal") {
		t.Fatalf("leave a -wal: %v %s", err, out)
	}
	filepath.Walk(filepath.Dir(db), func(p string, _ os.FileInfo, _ error) error { owner(p); return nil })
	os.Chmod(filepath.Dir(db), 0o555)
	cases = append(cases, tc{"read-only directory, -wal and -shm present", db, false})

	hermesDir := filepath.Join(base, "hermes")
	os.MkdirAll(hermesDir, 0o755)
	hermes := crashedHermesFile(t, hermesDir, "wal")
	exec.Command("sqlite3", hermes, "PRAGMA wal_checkpoint(TRUNCATE);").Run()
	os.Remove(hermes + "-wal")
	os.Remove(hermes + "-shm")
	filepath.Walk(hermesDir, func(p string, _ os.FileInfo, _ error) error { owner(p); return nil })
	os.Chmod(hermes, 0o444)
	cases = append(cases, tc{"0444 Hermes file", hermes, false})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if probe := asOther("sh", "-c", ": >> "+c.db+" 2>/dev/null"); probe.Run() == nil && !strings.Contains(c.name, "directory") {
				t.Fatalf("the test user can still write %s: the case proves nothing", c.db)
			}
			// recall first (what the file looks like after a clean close),
			// then the native shell (which leaves a -wal and -shm with the
			// database's 0444 mode where it may create them), then recall again.
			recallReads(t, bin, home, c.db, c.mustRead, nil)
			native := asOther("sqlite3", "-readonly", c.db, "SELECT count(*) FROM messages;")
			nout, nerr := native.CombinedOutput()
			t.Logf("native -readonly: %v %q", nerr, strings.TrimSpace(string(nout)))
			recallReads(t, bin, home, c.db, c.mustRead, nerr)
		})
	}
}

// recallReads runs recall's read commands on db as the other user and
// fails when one fails where the native shell read the file (nativeErr
// nil; unknown yet on the first pass) or where recall must read it.
func recallReads(t *testing.T, bin, home, db string, mustRead bool, nativeErr error) {
	t.Helper()
	for _, args := range [][]string{{"recent"}, {"search", "docker"}, {"stats"}} {
		cmd := asOther(bin, append([]string{"--db", db}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+home, "XDG_CONFIG_HOME="+home)
		out, err := cmd.CombinedOutput()
		t.Logf("recall %v: %v %.160q", args, err, out)
		if err != nil && (nativeErr == nil || mustRead) {
			t.Errorf("recall %v fails (native -readonly: %v): %s", args, nativeErr, out)
		}
		if err != nil && (strings.Contains(string(out), "PRAGMA") || strings.Count(strings.TrimSpace(string(out)), "\n") > 0) {
			t.Errorf("not one clear line: %s", out)
		}
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestDiskFull: an import into a database on a full file system (a 2 MiB
// tmpfs in a private mount namespace, so nothing outside the test sees it)
// fails with one line that says "disk full" and names the file, not "disk
// I/O error", and the database stays intact. Skipped where no mount
// namespace can be made (unshare -m as root, unshare -rm otherwise).
func TestDiskFull(t *testing.T) {
	needTools(t, "sqlite3", "unshare")
	bin := buildRecall(t)
	dir := t.TempDir()
	mnt := filepath.Join(dir, "small")
	os.MkdirAll(mnt, 0o755)
	data := filepath.Join(dir, "big.jsonl")
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&b, `{"session_id":"full%d","role":"user","content":"disk full test %d %s","timestamp":%d}`+"\n", i%40, i, strings.Repeat("payload ", 60), 1777640000+i)
	}
	os.WriteFile(data, []byte(b.String()), 0o600)
	db := filepath.Join(mnt, "state.db")
	script := fmt.Sprintf(`set -e
mount -t tmpfs -o size=2m tmpfs %[1]s
printf '%%s\n' '{"session_id":"first","role":"user","content":"before the disk filled","timestamp":1777640000}' > %[1]s/first.jsonl
%[2]s --db %[3]s import jsonl %[1]s/first.jsonl >/dev/null
set +e
%[2]s --db %[3]s import jsonl %[4]s > %[5]s/out 2> %[5]s/err
echo $? > %[5]s/rc
sqlite3 %[3]s 'PRAGMA integrity_check; SELECT count(*) FROM messages WHERE session_id = '"'"'first'"'"';' > %[5]s/check 2>&1
`, mnt, bin, db, data, dir)
	args := []string{"-m", "sh", "-c", script}
	if os.Geteuid() != 0 {
		args = append([]string{"-r"}, args...)
	}
	if out, err := exec.Command("unshare", args...).CombinedOutput(); err != nil {
		t.Skipf("no private mount namespace with a tmpfs here (%v): %s", err, out)
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return strings.TrimSpace(string(b))
	}
	errOut := read("err")
	t.Logf("exit %s, stderr %q, check %q", read("rc"), errOut, read("check"))
	if read("rc") == "0" || !strings.Contains(errOut, "disk full writing "+db) || strings.Contains(errOut, "I/O error") || strings.Count(errOut, "\n") > 0 {
		t.Errorf("import on a full disk: exit %s, stderr:\n%s", read("rc"), errOut)
	}
	if read("check") != "ok\n1" && read("check") != "ok\r\n1" && !strings.HasPrefix(read("check"), "ok") {
		t.Errorf("after the full disk: %s", read("check"))
	}
}
