package ui

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/recall-dev/recall/store"
)

// silentPTY is a pseudo-terminal whose far end never answers anything: the
// program's queries (OSC 11 background colour, cursor position) go
// unanswered, as under script(1) or a hook runner. What the program writes
// is collected with the time it arrived.
type silentPTY struct {
	master, slave *os.File
	mu            sync.Mutex
	out           bytes.Buffer
	marks         []ptyMark
	done          chan struct{}
}

type ptyMark struct {
	at  time.Duration
	len int
}

func openSilentPTY(t *testing.T, cols, rows int) *silentPTY {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	ioctl := func(req uintptr, arg unsafe.Pointer) {
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), req, uintptr(arg)); e != 0 {
			t.Skipf("pty ioctl %#x: %v", req, e)
		}
	}
	unlock, n := int32(0), uint32(0)
	ioctl(syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	ioctl(syscall.TIOCGPTN, unsafe.Pointer(&n))
	ws := struct{ row, col, x, y uint16 }{uint16(rows), uint16(cols), 0, 0}
	ioctl(syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pty slave: %v", err)
	}
	p := &silentPTY{master: master, slave: slave, done: make(chan struct{})}
	t.Cleanup(func() { master.Close(); slave.Close() })
	return p
}

// start runs cmd with the pty as its controlling terminal and stdin, stdout
// and stderr (stdout may be set by the caller beforehand), and reads what it
// writes.
func (p *silentPTY) start(t *testing.T, cmd *exec.Cmd) time.Time {
	t.Helper()
	cmd.Stdin, cmd.Stderr = p.slave, p.slave
	if cmd.Stdout == nil {
		cmd.Stdout = p.slave
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		buf := make([]byte, 64<<10)
		for {
			n, err := p.master.Read(buf)
			if n > 0 {
				p.mu.Lock()
				p.out.Write(buf[:n])
				p.marks = append(p.marks, ptyMark{at: time.Since(began), len: p.out.Len()})
				p.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	return began
}

// firstSeen is when out first held want, and whether it did.
func (p *silentPTY) firstSeen(want string) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := bytes.Index(p.out.Bytes(), []byte(want))
	if i < 0 {
		return 0, false
	}
	for _, m := range p.marks {
		if m.len >= i+len(want) {
			return m.at, true
		}
	}
	return 0, false
}

func (p *silentPTY) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// The terminal queries Bubble Tea v1's init makes, which wait 5 s for an answer.
const (
	bgQuery     = "\x1b]11;?"
	cursorQuery = "\x1b[6n"
)

// No command waits for the terminal to answer a query: on a terminal that
// never answers, `recall help` and the TUI's first frame come at once (the
// stall was 5.4 s, with NO_COLOR too) and no query is ever written; colours
// still follow the real TERM; piped output carries no escape at all.
func TestStartsWithoutWaitingForTheTerminal(t *testing.T) {
	bin := recallBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "state.db")
	env := append(os.Environ(), "TERM=xterm-256color", "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	env = append(env, "NO_COLOR=", "CLICOLOR=", "CI=", "RECALL_LLM_BASE_URL=", "OPENAI_API_KEY=", "TMUX=")
	// Create the database and warm the engine's compile cache first, so
	// what is timed below is only the start.
	st, err := store.Open(context.Background(), db, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if out, err := exec.Command(bin, "--db", db, "stats").CombinedOutput(); err != nil {
		t.Fatalf("recall stats: %v\n%s", err, out)
	}
	// The query stall is 5 s: anything under 2 s is not waiting on it.
	const notWaiting = 2 * time.Second

	t.Run("help", func(t *testing.T) {
		p := openSilentPTY(t, 120, 40)
		cmd := exec.Command(bin, "help")
		cmd.Env = env
		began := p.start(t, cmd)
		err := cmd.Wait()
		took := time.Since(began)
		if err != nil {
			t.Fatalf("recall help: %v", err)
		}
		p.slave.Close()
		<-p.done
		out := p.output()
		if bytes.Contains([]byte(out), []byte(bgQuery)) || bytes.Contains([]byte(out), []byte(cursorQuery)) {
			t.Errorf("recall help queried the terminal: %q", out[:min(len(out), 80)])
		}
		if took > notWaiting {
			t.Errorf("recall help took %v on a terminal that does not answer", took)
		}
	})

	for _, extra := range []string{"", "NO_COLOR=1"} {
		t.Run(strings.TrimSpace("tui "+extra), func(t *testing.T) {
			p := openSilentPTY(t, 120, 40)
			cmd := exec.Command(bin, "--db", db)
			cmd.Env = append(append([]string{}, env...), extra)
			p.start(t, cmd)
			defer cmd.Process.Kill()
			deadline := time.Now().Add(15 * time.Second)
			var at time.Duration
			var ok bool
			for ; time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if at, ok = p.firstSeen("earch your agent history"); ok {
					break
				}
			}
			if !ok {
				t.Fatalf("no first frame; output %q", p.output())
			}
			if at > notWaiting {
				t.Errorf("first frame after %v on a terminal that does not answer", at)
			}
			out := p.output()
			if bytes.Contains([]byte(out), []byte(bgQuery)) {
				t.Errorf("the TUI queried the terminal's background: %q", out[:min(len(out), 80)])
			}
			// TERM is the real one again once the program runs: 256 colours
			// (none under NO_COLOR).
			if colour := bytes.Contains([]byte(out), []byte("38;5;")); colour != (extra == "") {
				t.Errorf("256-colour SGR present = %v with %q", colour, extra)
			}
			p.master.Write([]byte{3}) // ctrl-c
			if err := waitTimeout(cmd, 10*time.Second); err != nil {
				t.Errorf("quit: %v", err)
			}
		})
	}

	// A cold compile cache (the first run on a machine) says what the
	// wait is for before the TUI takes the screen, and only then.
	t.Run("cold cache", func(t *testing.T) {
		cache := t.TempDir()
		const notice = "preparing the search engine (first run only)"
		for run, want := range []bool{true, false} {
			p := openSilentPTY(t, 120, 40)
			cmd := exec.Command(bin, "--db", db)
			cmd.Env = append(append([]string{}, env...), "XDG_CACHE_HOME="+cache)
			p.start(t, cmd)
			var frame time.Duration
			var ok bool
			for deadline := time.Now().Add(60 * time.Second); !ok && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				frame, ok = p.firstSeen("earch your agent history")
			}
			if !ok {
				cmd.Process.Kill()
				t.Fatalf("run %d: no first frame: %q", run, p.output())
			}
			at, shown := p.firstSeen(notice)
			switch {
			case shown != want:
				t.Errorf("run %d (cold %v): notice shown %v: %q", run, want, shown, p.output()[:min(200, len(p.output()))])
			case shown && !strings.HasPrefix(p.output(), "recall: "+notice):
				t.Errorf("the notice is not the first thing written: %q", p.output()[:80])
			case shown:
				t.Logf("cold start: notice at %v, first frame at %v", at, frame)
			}
			p.master.Write([]byte{3})
			if err := waitTimeout(cmd, 10*time.Second); err != nil {
				t.Errorf("quit: %v", err)
			}
		}
	})

	t.Run("piped", func(t *testing.T) {
		p := openSilentPTY(t, 120, 40)
		var stdout bytes.Buffer
		cmd := exec.Command(bin, "--db", db, "recent")
		cmd.Env, cmd.Stdout = env, &stdout
		p.start(t, cmd)
		if err := waitTimeout(cmd, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsRune(stdout.Bytes(), 0x1b) {
			t.Errorf("piped output holds escapes: %q", stdout.String())
		}
	})
}

func waitTimeout(cmd *exec.Cmd, d time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		return <-done
	}
}
