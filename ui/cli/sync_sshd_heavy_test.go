//go:build heavy

package cli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// sshdHost is a real OpenSSH server on 127.0.0.1, with host and client keys
// made for the test, whose one authorized key runs commands with
// RECALL_DB set to the remote database: `recall sync remotebox` then goes
// through the system's ssh exactly as to another machine (known_hosts
// checked, BatchMode).
type sshdHost struct {
	dir, config, remoteDB string
	cmd                   *exec.Cmd
}

// startSSHD starts sshd; .ci/run installs Debian's openssh-server when it
// is missing.
func startSSHD(t *testing.T, recallDir string) *sshdHost {
	t.Helper()
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		sshd = "/usr/sbin/sshd"
	}
	if _, err := os.Stat(sshd); err != nil {
		t.Fatalf("sshd is not installed (apt-get install openssh-server; .ci/run does): %v", err)
	}
	for _, tool := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (apt-get install openssh-client)", tool)
		}
	}
	if os.Geteuid() == 0 {
		os.MkdirAll("/run/sshd", 0o755) // sshd's privilege separation directory
	}
	dir, err := os.MkdirTemp("", "recall-sshd-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	h := &sshdHost{dir: dir, remoteDB: filepath.Join(dir, "remote", "state.db")}
	os.MkdirAll(filepath.Dir(h.remoteDB), 0o700)
	for _, k := range []string{"host", "client"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "recall-test-"+k, "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(b))
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	env := fmt.Sprintf(`environment="RECALL_DB=%s",environment="PATH=%s:/usr/bin:/bin",environment="XDG_CONFIG_HOME=%s" `,
		h.remoteDB, recallDir, filepath.Join(dir, "remote-config"))
	write := func(name, body string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("authorized_keys", env+read("client.pub")+"\n", 0o600)
	write("sshd_config", fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
PermitUserEnvironment yes
AllowUsers %s
LogLevel ERROR
`, port, filepath.Join(dir, "host"), filepath.Join(dir, "sshd.pid"), filepath.Join(dir, "authorized_keys"), me.Username), 0o600)
	hostKey := strings.Fields(read("host.pub"))
	write("known_hosts", fmt.Sprintf("[127.0.0.1]:%d %s %s\n", port, hostKey[0], hostKey[1]), 0o600)
	h.config = filepath.Join(dir, "ssh_config")
	write("ssh_config", fmt.Sprintf(`Host remotebox
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  StrictHostKeyChecking yes
  BatchMode yes
  LogLevel ERROR
Host deadbox
  HostName 127.0.0.1
  Port %d
  BatchMode yes
  ConnectTimeout 5
`, port, me.Username, filepath.Join(dir, "client"), filepath.Join(dir, "known_hosts"), freePort(t)), 0o600)
	var logs bytes.Buffer
	h.cmd = exec.Command(sshd, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
	h.cmd.Stderr = &logs
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.cmd.Process.Kill()
		h.cmd.Wait()
	})
	for i := 0; ; i++ {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			break
		}
		if i > 100 {
			t.Fatalf("sshd did not listen on 127.0.0.1:%d: %s", port, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Setenv("RECALL_SSH", "ssh -F "+h.config)
	return h
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// recallProc runs recall (this test binary, by its "recall" link) as a
// process of its own, so it can be killed.
func recallProc(recallDir string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(recallDir, "recall"), args...)
	cmd.Env = os.Environ()
	return cmd
}

func messageCount(t *testing.T, db string) int64 {
	t.Helper()
	st, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if err != nil {
		return -1
	}
	defer st.Close()
	s, err := st.Stats(context.Background())
	if err != nil {
		return -1
	}
	return s.Messages
}

// TestSyncRealSSH: through a real sshd on loopback, a pull killed (-9)
// while the batch travels and again while it is applied, then completed;
// run again, and both ways: every message once on each side, nothing lost.
func TestSyncRealSSH(t *testing.T) {
	isolateAgents(t)
	noModel(t)
	recallDir := recallOnPath(t)
	h := startSSHD(t, recallDir)
	local := filepath.Join(t.TempDir(), "local.db")
	if code, _, errOut := runCLI(t, false, "--db", h.remoteDB, "gen", "--messages", "30000"); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	if code, _, errOut := runCLI(t, false, "--db", local, "gen", "--messages", "2000", "--seed", "7"); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	remote, mine := messageCount(t, h.remoteDB), messageCount(t, local)

	// A host that refuses: one line, exit 1.
	code, _, errOut := runCLI(t, false, "--db", local, "sync", "deadbox")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "deadbox: ") {
		t.Errorf("sync deadbox: exit %d, %s", code, errOut)
	}

	// kill -9 in the middle of the transfer, then in the middle of the apply.
	cmd := recallProc(recallDir, "--db", local, "sync", "remotebox")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killedIn := "transfer"
	for attempt := 0; attempt < 5; attempt++ {
		cmd = recallProc(recallDir, "--db", local, "sync", "remotebox")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			if n := messageCount(t, local); n > mine && n < mine+remote {
				cmd.Process.Signal(syscall.SIGKILL)
				killedIn = "apply"
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Wait()
		if killedIn == "apply" {
			break
		}
	}
	if killedIn != "apply" {
		t.Logf("no pull was caught between two chunks of its apply (the machine was too fast); only the transfer was killed")
	}
	t.Logf("killed during the %s at %d of %d messages", killedIn, messageCount(t, local)-mine, remote)
	code, out, errOut := runCLI(t, false, "--db", local, "sync", "remotebox")
	if code != 0 || !strings.Contains(out, "remotebox") {
		t.Fatalf("sync after kill -9: exit %d\n%s%s", code, out, errOut)
	}
	if n := messageCount(t, local); n != mine+remote {
		t.Fatalf("after the killed pulls and one more: %d messages, want %d + %d", n, mine, remote)
	}
	code, out, _ = runCLI(t, false, "--db", local, "sync", "remotebox")
	if code != 0 || !strings.Contains(out, "nothing new") {
		t.Errorf("second pull: %s", out)
	}
	// Both ways, twice.
	for i := 0; i < 2; i++ {
		code, out, errOut = runCLI(t, false, "--db", local, "sync", "--both", "remotebox")
		if code != 0 {
			t.Fatalf("sync --both: exit %d\n%s%s", code, out, errOut)
		}
	}
	if n, r := messageCount(t, local), messageCount(t, h.remoteDB); n != mine+remote || r != mine+remote {
		t.Errorf("after both ways twice: local %d, remote %d, want %d each", n, r, mine+remote)
	}
	// The remote's sessions keep their machine; resume goes back there.
	code, out, _ = runCLI(t, false, "--db", local, "recent", "--machine", "remotebox", "--json", "--limit", "1")
	if code != 0 || !strings.Contains(out, `"machine": "remotebox"`) {
		t.Errorf("recent --machine remotebox: %s", out)
	}
}

// TestSyncFigures measures what the README reports, when
// RECALL_SYNC_FIGURES names a corpus size (200000): the first pull over the
// real sshd (messages/s, bytes), a pull with nothing new, one with one new
// session, and peak RSS on both sides.
func TestSyncFigures(t *testing.T) {
	size, _ := strconv.Atoi(os.Getenv("RECALL_SYNC_FIGURES"))
	if size == 0 {
		t.Skip("set RECALL_SYNC_FIGURES=200000 to measure")
	}
	isolateAgents(t)
	noModel(t)
	recallDir := recallOnPath(t)
	// The remote side's peak RSS: a wrapper polls its high-water mark.
	wrap := filepath.Join(recallDir, "rss-recall")
	hwm := filepath.Join(t.TempDir(), "remote-hwm")
	os.WriteFile(wrap, []byte(`#!/bin/sh
"`+filepath.Join(recallDir, "recall")+`" "$@" & pid=$!
while kill -0 $pid 2>/dev/null; do grep VmHWM /proc/$pid/status >> "`+hwm+`" 2>/dev/null; sleep 0.02; done
wait $pid
`), 0o755)
	h := startSSHD(t, recallDir)
	os.MkdirAll(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "recall"), 0o700)
	os.WriteFile(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "recall", "config.json"), []byte(`{"sync": {"remote_command": "rss-recall"}}`), 0o600)
	local := filepath.Join(t.TempDir(), "local.db")
	if code, _, errOut := runCLI(t, false, "--db", h.remoteDB, "gen", "--messages", strconv.Itoa(size)); code != 0 {
		t.Fatalf("gen: %s", errOut)
	}
	run := func(label string) {
		os.Remove(hwm)
		cmd := recallProc(recallDir, "--db", local, "sync", "--json", "remotebox")
		start := time.Now()
		out, err := cmd.Output()
		el := time.Since(start)
		if err != nil {
			t.Fatalf("%s: %v\n%s", label, err, out)
		}
		res := decodeJSON[syncJSON](t, string(out))
		r := res.Results[0]
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		localRSS := ru.Maxrss
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		remoteRSS := int64(0)
		if b, err := os.ReadFile(hwm); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if f := strings.Fields(l); len(f) >= 2 {
					if v, _ := strconv.ParseInt(f[1], 10, 64); v > remoteRSS {
						remoteRSS = v
					}
				}
			}
		}
		t.Logf("| %s | %d | %.2f s | %.2f s | %.0f msg/s | %s | %.0f MB | %.0f MB |", label, r.Report.Messages, el.Seconds(), cpu.Seconds(),
			float64(r.Report.Messages)/el.Seconds(), humanBytes(r.Bytes), float64(localRSS)/1024, float64(remoteRSS)/1024)
	}
	t.Logf("| run | messages | wall | CPU here | messages/s (wall) | bytes sent | peak RSS here | peak RSS remote |")
	t.Logf("|---|---|---|---|---|---|---|---|")
	run("first pull")
	run("nothing new")
	f := filepath.Join(t.TempDir(), "one.jsonl")
	os.WriteFile(f, []byte(jl("new-one", "codex", "one new session", 0)+jl("new-one", "codex", "its second message", 5)), 0o600)
	runCLI(t, false, "--db", h.remoteDB, "import", "jsonl", f)
	run("one new session")
}
