package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// fakeSSH is a transport for the tests ($RECALL_SSH): `fakessh [opts] --
// HOST COMMAND` runs COMMAND with HOME=$FAKE_SSH_HOMES/HOST (the host's own
// recall database, config and, first on its PATH, its bin folder), as ssh
// runs it on another machine; a host without a folder is down.
const fakeSSH = `#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in --) shift; break;; -[oipFJlS]) shift 2;; -*) shift;; *) break;; esac; done
host=$1; shift
[ -d "$FAKE_SSH_HOMES/$host" ] || { echo "ssh: connect to host $host port 22: Connection refused" >&2; exit 255; }
cd "$FAKE_SSH_HOMES/$host" || exit 255
unset XDG_DATA_HOME XDG_CONFIG_HOME RECALL_DB
HOME=$FAKE_SSH_HOMES/$host PATH=$FAKE_SSH_HOMES/$host/bin:$FAKE_SSH_PATH exec sh -c "$*"
`

// syncWorld is a local database and hosts reached through fakeSSH.
type syncWorld struct {
	t         *testing.T
	homes     string
	local     string
	recallDir string
}

func newSyncWorld(t *testing.T) *syncWorld {
	t.Helper()
	isolateAgents(t)
	noModel(t)
	recallDir := recallOnPath(t)
	homes := t.TempDir()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "fakessh"), []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RECALL_SSH", filepath.Join(bin, "fakessh")+" -o BatchMode=yes")
	t.Setenv("FAKE_SSH_HOMES", homes)
	// The hosts' PATH: recall (this test binary) and the system's tools,
	// unless a host's bin folder says otherwise.
	t.Setenv("FAKE_SSH_PATH", recallDir+":/usr/bin:/bin")
	return &syncWorld{t: t, homes: homes, local: filepath.Join(t.TempDir(), "local.db"), recallDir: recallDir}
}

// host makes a host whose database holds jsonl.
func (w *syncWorld) host(name, jsonl string) string {
	w.t.Helper()
	home := filepath.Join(w.homes, name)
	db := filepath.Join(home, ".local", "share", "recall", "state.db")
	if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if jsonl != "" {
		w.importInto(db, jsonl)
	}
	return db
}

func (w *syncWorld) importInto(db, jsonl string) {
	w.t.Helper()
	f := filepath.Join(w.t.TempDir(), "in.jsonl")
	if err := os.WriteFile(f, []byte(jsonl), 0o600); err != nil {
		w.t.Fatal(err)
	}
	if code, _, errOut := runCLI(w.t, false, "--db", db, "import", "jsonl", f); code != 0 {
		w.t.Fatalf("import into %s: %s", db, errOut)
	}
}

// run runs recall on the local database.
func (w *syncWorld) run(args ...string) (int, string, string) {
	w.t.Helper()
	return runCLI(w.t, false, append([]string{"--db", w.local}, args...)...)
}

func jl(session, source, content string, ts int) string {
	return `{"session_id":"` + session + `","source":"` + source + `","role":"user","content":"` + content + `","timestamp":` + strconv.Itoa(1784278800+ts) + `,"cwd":"/src/` + session + `"}` + "\n"
}

// TestSyncOverFakeSSH: pull from two hosts while a third is down (one line,
// exit 1, the others synced), again (nothing new), push, forget travels,
// the machine is shown and filterable, resume goes over ssh.
func TestSyncOverFakeSSH(t *testing.T) {
	w := newSyncWorld(t)
	devDB := w.host("devbox", jl("d1", "claude-code", "devbox docker network", 0)+jl("d1", "claude-code", "devbox bridge answer", 5))
	w.host("laptop", jl("l1", "codex", "laptop kubernetes question", 0))
	w.importInto(w.local, jl("d1", "claude-code", "local session with devbox's id", 0)+jl("x1", "aider", "local xylophone", 1))

	code, out, errOut := w.run("sync", "devbox", "down", "laptop")
	if code != 1 || !strings.Contains(out, "devbox") || !strings.Contains(out, "pulled 2 messages in 1 session") ||
		!strings.Contains(out, "laptop") || !strings.Contains(out, "pulled 1 message in 1 session") {
		t.Fatalf("sync devbox down laptop: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "down: ssh: connect to host down port 22: Connection refused") {
		t.Errorf("the host that is down: want one line, got:\n%s", errOut)
	}
	code, out, errOut = w.run("sync", "devbox", "laptop")
	if code != 0 || strings.Count(out, "nothing new") != 2 {
		t.Errorf("second sync: exit %d\n%s%s", code, out, errOut)
	}
	// devbox's d1 is another session than the local d1: both kept, each
	// with its machine.
	code, out, _ = w.run("recent", "--json")
	recent := decodeJSON[[]struct {
		ID      string `json:"session_id"`
		Native  string `json:"native_id"`
		Machine string `json:"machine"`
	}](t, out)
	machines := map[string]string{}
	for _, r := range recent {
		machines[r.ID] = r.Machine
	}
	if code != 0 || len(recent) != 4 || machines["d1"] != "" || machines["d1@claude-code"] != "devbox" || machines["l1"] != "laptop" || machines["x1"] != "" {
		t.Errorf("recent: %s", out)
	}
	code, out, _ = w.run("recent", "--machine", "devbox")
	if code != 0 || !strings.Contains(out, "claude-code@devbox") || strings.Count(out, "\n") != 1 {
		t.Errorf("recent --machine devbox:\n%s", out)
	}
	code, out, _ = w.run("messages", "--machine", "local", "--json", "devbox")
	if code != 0 || strings.Contains(out, `"d1@claude-code"`) || !strings.Contains(out, `"session_id": "d1"`) {
		t.Errorf("messages --machine local devbox:\n%s", out)
	}
	code, out, errOut = w.run("resume", "--print", "d1@claude-code")
	if code != 0 || !strings.Contains(out, "-t -- devbox 'cd /src/d1 && claude --resume d1'") {
		t.Errorf("resume --print of devbox's session: exit %d\n%s%s", code, out, errOut)
	}

	// Push: devbox gains the local sessions (and laptop's), not its own back.
	code, out, errOut = w.run("sync", "--push", "devbox")
	if code != 0 || !strings.Contains(out, "pushed 3 messages in 3 sessions") {
		t.Fatalf("push: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ = w.run("sync", "--push", "devbox"); code != 0 || !strings.Contains(out, "nothing new") {
		t.Errorf("second push: %s", out)
	}
	code, out, _ = runCLI(t, false, "--db", devDB, "messages", "--json", "xylophone")
	if code != 0 || !strings.Contains(out, `"session_id": "x1"`) {
		t.Errorf("devbox lacks the pushed session: %s", out)
	}
	// Forget on devbox travels here, and nothing brings it back.
	if code, _, errOut = runCLI(t, false, "--db", devDB, "forget", "--yes", "d1"); code != 0 {
		t.Fatalf("forget on devbox: %s", errOut)
	}
	code, out, errOut = w.run("sync", "--both", "devbox", "laptop")
	if code != 0 || !strings.Contains(out, "forgot 1 session (2 messages) as the other machine did") {
		t.Errorf("sync after the forget: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ = w.run("messages", "--json", "bridge"); strings.Contains(out, `"session_id"`) {
		t.Errorf("devbox's forgotten session is still here: %s", out)
	}
	w.run("sync", "--both", "devbox")
	if _, out, _ = runCLI(t, false, "--db", devDB, "messages", "--json", "bridge"); strings.Contains(out, `"session_id"`) {
		t.Errorf("a sync brought the forgotten session back to devbox: %s", out)
	}
}

// TestSyncHostProblems: a host without recall, with an older recall, one
// whose batch arrives cut short, and one of a newer batch format: each is
// one line that says what to do, exit 1, nothing written.
func TestSyncHostProblems(t *testing.T) {
	w := newSyncWorld(t)
	w.host("bare", "")
	w.host("old", "")
	w.host("cut", "")
	w.host("future", "")
	w.host("good", jl("g1", "codex", "good host hello", 0))
	// bare: no recall on its PATH.
	t.Setenv("FAKE_SSH_PATH", "/usr/bin:/bin")
	script := func(host, body string) {
		p := filepath.Join(w.homes, host, "bin", "recall")
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// This test binary runs as recall only under that name (TestMain).
	recallBin := filepath.Join(w.recallDir, "recall")
	script("good", `exec "`+recallBin+`" "$@"`)
	script("old", `echo "recall export: flag provided but not defined: -batch" >&2; exit 2`)
	// A real batch, cut short (a killed transfer).
	script("cut", `"`+recallBin+`" "$@" | head -c 150`)
	future := filepath.Join(t.TempDir(), "future.zst")
	writeFutureBatch(t, future)
	script("future", `cat "`+future+`"`)
	w.importInto(w.local, jl("x1", "aider", "local only", 0))

	for _, tc := range []struct{ host, want string }{
		{"bare", "bare: recall is not installed there"},
		{"old", "old: the recall there is older than sync"},
		{"cut", "cut: its batch was rejected whole, nothing applied: the batch is cut short"},
		{"future", "future: its batch was rejected whole, nothing applied: batch format 99 (written by recall schema 2000 on tomorrow): this recall reads formats 1 to 1; upgrade recall here"},
	} {
		code, out, errOut := w.run("sync", tc.host)
		if code != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("sync %s: exit %d\nstdout %s\nstderr %s\nwant %q", tc.host, code, out, errOut, tc.want)
		}
	}
	if _, out, _ := w.run("stats", "--json"); !strings.Contains(out, `"messages": 1,`) {
		t.Errorf("a failed sync wrote something: %s", out)
	}
	// The good host alone, with config.json naming the hosts.
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "recall", "config.json")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	if err := os.WriteFile(cfg, []byte(`{"sync": {"hosts": ["good", "old"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := w.run("sync")
	if code != 1 || !strings.Contains(out, "good") || !strings.Contains(out, "pulled 1 message") || !strings.Contains(errOut, "old: the recall there is older") {
		t.Errorf("sync with config.json's hosts: exit %d\n%s%s", code, out, errOut)
	}
	os.Remove(cfg)
	if code, _, errOut := w.run("sync"); code != 2 || !strings.Contains(errOut, "config.json") {
		t.Errorf("sync with no host anywhere: exit %d, %s", code, errOut)
	}
}

// writeFutureBatch writes a well-formed batch of format 99.
func writeFutureBatch(t *testing.T, path string) {
	var raw bytes.Buffer
	z, _ := zstd.NewWriter(&raw)
	header := `{"format":"recall-batch","version":99,"machine":"f00d","machine_name":"tomorrow","schema":2000}` + "\n"
	sum := sha256.Sum256([]byte(header))
	z.Write([]byte(header + `{"k":"end","sha256":"` + hex.EncodeToString(sum[:]) + `"}` + "\n"))
	z.Close()
	if err := os.WriteFile(path, raw.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestBatchFile: the same batch as a file, for a machine ssh cannot reach:
// everything, or --since; imported once, replayed (nothing twice), from a
// machine never seen before; redacted before it leaves a machine whose
// config says redact_at_import.
func TestBatchFile(t *testing.T) {
	w := newSyncWorld(t)
	src := filepath.Join(t.TempDir(), "src.db")
	w.importInto(src, jl("s1", "codex", "old news", -86400*30)+jl("s2", "codex", "token ghp_8xQ2mZr4Tn6Vb1Kc9Lp3Wd7Fh5Js0Ga2Ye4U fresh", 0))
	file := filepath.Join(t.TempDir(), "all.batch")
	if code, _, errOut := runCLI(t, false, "--db", src, "export", "--batch", "-o", file); code != 0 {
		t.Fatalf("export --batch: %s", errOut)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("batch file: %v, %v", fi, err)
	}
	code, out, errOut := w.run("import", "batch", file)
	if code != 0 || !strings.Contains(out, "2 sessions, 2 messages added, 0 already here") || !strings.Contains(out, "a machine not seen before") {
		t.Errorf("import batch: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = w.run("import", "batch", file)
	if code != 0 || !strings.Contains(out, "0 messages added, 2 already here") {
		t.Errorf("replayed: %s", out)
	}
	code, out, _ = w.run("import", "batch", "--json", "-")
	if code == 0 {
		t.Errorf("an empty standard input imported: %s", out)
	}
	since := filepath.Join(t.TempDir(), "since.batch")
	runCLI(t, false, "--db", src, "export", "--batch", "--since", "2026-07-01", "-o", since)
	other := filepath.Join(t.TempDir(), "other.db")
	code, out, _ = runCLI(t, false, "--db", other, "import", "batch", since)
	if code != 0 || !strings.Contains(out, "1 session, 1 message added") {
		t.Errorf("--since batch: %s", out)
	}
	// redact_at_import on the writing machine: the token never leaves it.
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "recall", "config.json")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte(`{"redact_at_import": true}`), 0o600)
	red := filepath.Join(t.TempDir(), "red.batch")
	runCLI(t, false, "--db", src, "export", "--batch", "-o", red)
	os.Remove(cfg)
	third := filepath.Join(t.TempDir(), "third.db")
	runCLI(t, false, "--db", third, "import", "batch", red)
	if _, out, _ := runCLI(t, false, "--db", third, "messages", "--json", "fresh"); strings.Contains(out, "ghp_") || !strings.Contains(out, "[REDACTED:github-pat]") {
		t.Errorf("redact_at_import: the token left the machine: %s", out)
	}
	// redact_at_import on the receiving machine: an unredacted batch is
	// stored redacted there.
	os.WriteFile(cfg, []byte(`{"redact_at_import": true}`), 0o600)
	fifth := filepath.Join(t.TempDir(), "fifth.db")
	runCLI(t, false, "--db", fifth, "import", "batch", file)
	os.Remove(cfg)
	if _, out, _ := runCLI(t, false, "--db", fifth, "messages", "--json", "--show-secrets", "fresh"); strings.Contains(out, "ghp_") || !strings.Contains(out, "[REDACTED:github-pat]") {
		t.Errorf("redact_at_import here: the token was stored: %s", out)
	}
	// Cut short: rejected whole, nothing written.
	raw, _ := os.ReadFile(file)
	cut := filepath.Join(t.TempDir(), "cut.batch")
	os.WriteFile(cut, raw[:len(raw)/2], 0o600)
	fourth := filepath.Join(t.TempDir(), "fourth.db")
	code, _, errOut = runCLI(t, false, "--db", fourth, "import", "batch", cut)
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "cut short") {
		t.Errorf("cut batch: exit %d, %s", code, errOut)
	}
	if _, out, _ := runCLI(t, false, "--db", fourth, "stats", "--json"); !strings.Contains(out, `"messages": 0,`) {
		t.Errorf("a rejected batch wrote: %s", out)
	}
}
