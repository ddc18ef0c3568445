package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The end-to-end test drives the real binary in a detached tmux session of a
// fixed size: `recall demo`, an English query, a CJK query, quit; once in
// colour and once under NO_COLOR. It checks
// the screen with capture-pane (-e keeps the highlighting escapes) and that
// the terminal is restored (alternate screen left, shell prompt back).

const (
	e2eQuery       = "migration"
	e2eCJKQuery    = "数据库"
	e2ePrompt      = "E2E-READY$"
	e2eW, e2eH     = 120, 40
	e2eWaitTimeout = 20 * time.Second
)

type tmux struct {
	t    *testing.T
	sock string
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.sock}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (x *tmux) capture(escapes bool) string {
	args := []string{"capture-pane", "-p", "-t", "e2e"}
	if escapes {
		args = append(args, "-e")
	}
	return x.run(args...)
}

// waitFor polls the pane until match holds.
func (x *tmux) waitFor(what string, escapes bool, match func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(e2eWaitTimeout)
	for {
		s := x.capture(escapes)
		if match(s) {
			return s
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("timed out waiting for %s; screen:\n%s\nwith escapes: %q", what, x.capture(false), x.capture(true))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestTmuxEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := recallBinary(t)
	t.Run("colour", func(t *testing.T) { e2eColour(t, bin) })
	// Colourless terminals: NO_COLOR, CLICOLOR=0, and CI set (termenv's "not a
	// terminal", which the project's CI has) all draw in reverse and bold.
	for _, env := range []string{"NO_COLOR=1", "CLICOLOR=0", "CI=true"} {
		t.Run(env, func(t *testing.T) { e2eNoColor(t, bin, env) })
	}
}

// startDemo opens `recall demo` in a fresh tmux server whose shell has a known
// prompt, no model configured, no user database and no colour settings from
// the environment running the tests (NO_COLOR, CLICOLOR* and CI, which
// termenv takes for "no terminal", change what is drawn); extraEnv adds
// NAME=value words.
func startDemo(t *testing.T, bin, extraEnv string) *tmux {
	x := startShell(t, shellConfig{env: extraEnv})
	x.openDemo(bin)
	return x
}

// shellConfig is the tmux pane a test starts: its size (default 120x40),
// NAME=value words for the shell's environment, and whether $TMUX stays set
// (tmux sets it in the pane, naming this test's private server).
type shellConfig struct {
	w, h     int
	env      string
	keepTMUX bool
	shell    string // default sh
}

// startShell starts a private tmux server with one pane running a shell
// whose prompt is e2ePrompt.
func startShell(t *testing.T, c shellConfig) *tmux {
	dir := t.TempDir()
	x := &tmux{t: t, sock: filepath.Join(dir, "tmux.sock")}
	if c.w == 0 {
		c.w, c.h = e2eW, e2eH
	}
	if c.shell == "" {
		c.shell = "sh"
	}
	unset := "-u RECALL_LLM_BASE_URL -u RECALL_LLM_MODEL -u RECALL_LLM_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL " +
		"-u NO_COLOR -u CLICOLOR -u CLICOLOR_FORCE -u COLORTERM -u CI -u DISPLAY -u WAYLAND_DISPLAY "
	if !c.keepTMUX {
		unset += "-u TMUX "
	}
	shell := "env " + unset + "TERM=xterm-256color XDG_DATA_HOME=" + dir + " XDG_CONFIG_HOME=" + dir + " " + c.env +
		" PS1='" + e2ePrompt + " ' " + c.shell
	x.run("new-session", "-d", "-s", "e2e", "-x", itoa(c.w), "-y", itoa(c.h), shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.sock, "kill-server").Run() })
	x.waitFor("shell prompt", false, func(s string) bool { return strings.Contains(s, e2ePrompt) })
	return x
}

// openDemo runs `recall demo` in the pane and waits for its first screen.
func (x *tmux) openDemo(bin string) {
	x.t.Helper()
	x.run("send-keys", "-t", "e2e", bin+" demo", "Enter")
	x.waitFor("demo browse screen", false, func(s string) bool {
		return strings.Contains(s, "search your agent history") && regexp.MustCompile(`recent · \d+ sessions`).MatchString(s)
	})
	if alt := strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "1" {
		x.t.Errorf("TUI is not on the alternate screen (alternate_on=%s)", alt)
	}
}

// searchFor types query and waits until the status line reports sessions and
// the screen shows query highlighted as hit says.
func (x *tmux) searchFor(query string, hit *regexp.Regexp) string {
	x.t.Helper()
	x.run("send-keys", "-t", "e2e", "C-u") // clear the box first
	x.run("send-keys", "-t", "e2e", "-l", query)
	status := regexp.MustCompile(`(unicode61|trigram|like|cjk) · [0-9.]+ ms · [1-9]\d* session`)
	return x.waitFor("highlighted hit for "+query, true, func(s string) bool {
		text := stripSGR(s)
		return strings.Contains(text, "❯ "+query) && status.MatchString(text) && hit.MatchString(s)
	})
}

func e2eColour(t *testing.T, bin string) {
	x := startDemo(t, bin, "")
	// An English query: the expected session, and its snippet highlighted.
	screen := x.searchFor(e2eQuery, regexp.MustCompile(`48;5;220m(\x1b\[[0-9;]*m)*(?i:`+e2eQuery+`)`))
	if !strings.Contains(strings.ToLower(stripSGR(screen)), "hits") && !strings.Contains(stripSGR(screen), "1 hit") {
		t.Errorf("no hit count on screen:\n%s", stripSGR(screen))
	}
	// A CJK query.
	x.searchFor(e2eCJKQuery, regexp.MustCompile(`48;5;220m(\x1b\[[0-9;]*m)*`+e2eCJKQuery))
	x.quit()
}

// e2eNoColor runs with env (NAME=value): tmux's copy of the screen holds no
// colour at all, and the hits are still marked (reverse video).
func e2eNoColor(t *testing.T, bin, env string) {
	x := startDemo(t, bin, env)
	for _, q := range []string{e2eQuery, e2eCJKQuery} {
		screen := x.searchFor(q, reverseHit(q))
		if bad := colourSGR(screen); len(bad) > 0 {
			t.Errorf("NO_COLOR screen for %q sets colours %q", q, bad[:min(len(bad), 5)])
		}
	}
	x.quit()
}

// quit leaves the TUI with ctrl-c and checks the terminal is restored: the
// shell prompt on the normal screen, typed text echoed again.
func (x *tmux) quit() {
	x.t.Helper()
	x.run("send-keys", "-t", "e2e", "C-c")
	// A fresh prompt, alone on the last line: the shell has the terminal
	// back. (The prompts above it, of the commands run before, are there as
	// soon as the program leaves the alternate screen, while it may still
	// be reading the keyboard; keys sent then are lost.)
	x.waitFor("shell prompt after quit", false, func(s string) bool {
		ls := lines(strings.TrimRight(s, " \n"))
		return strings.TrimSpace(ls[len(ls)-1]) == e2ePrompt && !strings.Contains(s, "search your agent history")
	})
	if alt := strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "0" {
		x.t.Errorf("alternate screen still on after quit (alternate_on=%s)", alt)
	}
	x.run("send-keys", "-t", "e2e", "-l", "echo restored-$((40+2))")
	x.run("send-keys", "-t", "e2e", "Enter")
	x.waitFor("shell working after quit", false, func(s string) bool { return strings.Contains(s, "restored-42") })
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func stripSGR(s string) string { return sgr.ReplaceAllString(s, "") }

func itoa(n int) string { return strconv.Itoa(n) }

// keys sends tmux key names; text sends literal text, in one write (as a
// fast typist or ssh delivers it).
func (x *tmux) keys(keys ...string) { x.run(append([]string{"send-keys", "-t", "e2e"}, keys...)...) }
func (x *tmux) text(s string)       { x.run("send-keys", "-t", "e2e", "-l", s) }

// searched waits until the status line answers query (the ranked phase:
// the "searching…" mark is gone).
func (x *tmux) searched(query string) string {
	x.t.Helper()
	status := regexp.MustCompile(`(unicode61|trigram|like|cjk) · [0-9.]+ ms · [1-9]\d* session`)
	return x.waitFor("results for "+query, false, func(s string) bool {
		return strings.Contains(s, "❯ "+query) && status.MatchString(s) && !strings.Contains(s, "searching…")
	})
}

// settled waits until the screen stops changing (two captures 400 ms
// apart agree): the ranked answer may reorder the list after the first
// paint, and a test that reads positions must read the final ones.
func (x *tmux) settled() string {
	x.t.Helper()
	prev := x.capture(false)
	return x.waitFor("a still screen", false, func(s string) bool {
		time.Sleep(400 * time.Millisecond)
		now := x.capture(false)
		same := now == prev
		prev = now
		return same
	})
}

// lines splits a plain capture into its rows.
func lines(screen string) []string { return strings.Split(strings.TrimRight(screen, "\n"), "\n") }

// The list's geometry at e2eW columns (layout.go: wide layout).
const (
	e2eListW = 48
	e2eDetX  = e2eListW + 2
)

// TestTmuxBehaviour drives the real binary for what only a real terminal
// shows: the selection after typing, keys that arrive together, resizing,
// copying inside tmux, the demo's clean-up when its terminal goes away, and
// recall pick with its shell binding.
func TestTmuxBehaviour(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := recallBinary(t)
	t.Run("top selection after typing", func(t *testing.T) {
		t.Parallel()
		// Typed in one go, the query's first paint and the ranked list
		// differ; the bar must end on the top result (before, it stayed on
		// "Staging: lookup redis…", and enter summarised that).
		x := startDemo(t, bin, "")
		x.text("docker network")
		rows := lines(x.searched("docker network"))
		// rows: the search box, the filters, the panes' title bars (the
		// list's " Sessions" and the detail header), then the first row.
		first := rows[3]
		if !strings.HasPrefix(first, "│ ") && !strings.HasPrefix(first, "┃ ") {
			t.Fatalf("the selection bar is not on the first result:\n%s", strings.Join(rows[:12], "\n"))
		}
		title := strings.TrimSpace(strings.SplitN(ansi.Cut(first, 2, e2eListW), "…", 2)[0])
		if header := strings.TrimSpace(ansi.Cut(rows[2], e2eDetX, e2eW)); len(title) < 10 || !strings.HasPrefix(header, title) {
			t.Fatalf("the detail pane shows %q, not the top result %q", header, title)
		}
	})
	t.Run("batched keys", func(t *testing.T) {
		t.Parallel()
		// send-keys -l jjj writes three j at once: Bubble Tea reads them as
		// one key message. Each must scroll the detail pane a line.
		x := startDemo(t, bin, "")
		x.keys("Tab", "Tab")
		before := x.waitFor("the transcript", false, func(s string) bool {
			return strings.Contains(s, "▍ user") && !strings.Contains(s, "loading…")
		})
		x.text("jjj")
		want := detailColumn(lines(before))[4:]
		after := x.waitFor("scrolled three lines", false, func(s string) bool {
			got := detailColumn(lines(s))[1:]
			return strings.Join(got[:len(want)-1], "\n") == strings.Join(want[:len(want)-1], "\n")
		})
		_ = after
	})
	t.Run("resize", func(t *testing.T) {
		t.Parallel()
		x := startDemo(t, bin, "")
		x.keys("Tab", "Down", "Down", "Down")
		for _, sz := range [][2]int{{40, 12}, {20, 6}, {200, 60}} {
			x.run("resize-window", "-t", "e2e", "-x", itoa(sz[0]), "-y", itoa(sz[1]))
			time.Sleep(300 * time.Millisecond)
		}
		screen := x.waitFor("the list at 200x60", false, func(s string) bool { return len(lines(s)) >= 60 })
		n := regexp.MustCompile(`recent · (\d+) sessions`).FindStringSubmatch(screen)
		if n == nil {
			t.Fatalf("no session count:\n%s", screen)
		}
		// The list fills its pane again: every session when they fit, else
		// a pane's worth (56 body lines hold 18 rows of 3 lines).
		total, _ := strconv.Atoi(n[1])
		if shown := strings.Count(screen, " msgs"); shown < min(total, 18) {
			t.Fatalf("200x60 after 20x6: %s sessions, %d shown:\n%s", n[1], shown, screen)
		}
	})
	t.Run("copy in tmux", func(t *testing.T) {
		t.Parallel()
		// Inside tmux, copying goes through tmux's own buffer (OSC 52 from a
		// pane needs passthrough, off by default, and said "copied"
		// regardless). ctrl+y from the list, sent as soon as the list is
		// on it: the ranked answer may still move the selection and the
		// transcript still be loading (what failed on a fresh machine,
		// where the first ranked search is slow), and the copy must wait
		// for it rather than say there is nothing to copy. Then y in the
		// reading pane copies the message at the hit again.
		x := startShell(t, shellConfig{keepTMUX: true})
		x.openDemo(bin)
		x.text("docker network")
		x.searched("docker network")
		x.keys("Tab", "C-y")
		status := x.waitFor("copied", false, func(s string) bool { return strings.Contains(s, "copied message") })
		if !strings.Contains(status, "tmux buffer") {
			t.Errorf("the status line does not say the tmux buffer:\n%s", status)
		}
		buf := x.run("show-buffer")
		if !strings.Contains(strings.ToLower(buf), "docker network") || len(buf) < 40 {
			t.Fatalf("the tmux buffer holds %q, not the message", buf)
		}
		x.run("delete-buffer")
		x.keys("Tab")
		x.waitFor("the reading pane", false, func(s string) bool { return strings.Contains(s, "n next hit") })
		x.keys("y")
		x.waitFor("copied again", false, func(s string) bool {
			b, err := exec.Command("tmux", "-S", x.sock, "show-buffer").Output()
			return err == nil && strings.Contains(strings.ToLower(string(b)), "docker network")
		})
	})
	for _, how := range []string{"SIGHUP", "SIGTERM"} {
		t.Run("demo clean-up on "+how, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			x := startShell(t, shellConfig{env: "TMPDIR=" + tmp})
			x.openDemo(bin)
			dirs, _ := filepath.Glob(filepath.Join(tmp, "recall-demo-*"))
			if len(dirs) != 1 {
				t.Fatalf("demo directories %q", dirs)
			}
			if how == "SIGHUP" {
				x.run("kill-server") // the terminal goes away: SIGHUP
			} else {
				x.signalTUI(syscall.SIGTERM)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				if _, err := os.Stat(dirs[0]); os.IsNotExist(err) {
					break
				}
				if time.Now().After(deadline) {
					left, _ := filepath.Glob(filepath.Join(dirs[0], "*"))
					screen := ""
					if how != "SIGHUP" {
						x.signalTUI(syscall.SIGQUIT) // a goroutine dump on the pane, if it is stuck
						time.Sleep(time.Second)
						screen = x.capture(false)
					}
					t.Fatalf("%s left %s behind: %q\n%s", how, dirs[0], left, screen)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	t.Run("pick", func(t *testing.T) { t.Parallel(); e2ePick(t, bin) })
	t.Run("a word that is no command opens the TUI on it", func(t *testing.T) {
		t.Parallel()
		db := importDemo(t, bin)
		x := startShell(t, shellConfig{env: "RECALL_DB=" + db})
		x.keys(bin+" docker network", "Enter")
		x.searched("docker network")
		x.quit()
		x.keys(bin+" serach docker", "Enter")
		x.waitFor("the command named", false, func(s string) bool {
			return strings.Contains(s, "❯ serach docker") && strings.Contains(s, "for the command: recall search")
		})
	})
}

// detailColumn is the detail pane's text of each row (wide layout).
func detailColumn(rows []string) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows[2 : len(rows)-1] {
		out = append(out, strings.TrimRight(ansi.Cut(r, e2eDetX, e2eW), " "))
	}
	return out
}

// e2ePick: recall pick prints only the answer on stdout, draws inline with
// --height, exits 130 when cancelled; the README's bash binding puts the
// resume command on the prompt.
func e2ePick(t *testing.T, bin string) {
	db := importDemo(t, bin)
	dir := filepath.Dir(db)
	// A claude on $PATH, so --resume has an agent to name.
	if err := os.WriteFile(filepath.Join(dir, "claude"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(bin) + ":" + dir + ":" + os.Getenv("PATH")
	x := startShell(t, shellConfig{env: "PATH=" + path + " RECALL_DB=" + db})

	x.keys(`r=$(recall pick --height 14); echo "R""C=$? <$r>"`, "Enter")
	x.waitFor("the picker", false, func(s string) bool { return strings.Contains(s, "enter pick") })
	if alt := strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "0" {
		t.Errorf("--height drew on the alternate screen")
	}
	x.text("docker network")
	x.searched("docker network")
	x.keys("Enter")
	done := x.waitFor("the answer", false, func(s string) bool { return strings.Contains(s, "RC=") })
	if !strings.Contains(done, "RC=0 <3f2a9c1e-docker-dns>") {
		t.Fatalf("recall pick printed something else than the id:\n%s", done)
	}
	if strings.Contains(done, "enter pick") {
		t.Errorf("the inline picker was left on the screen:\n%s", done)
	}

	x.keys("clear", "Enter")
	x.keys(`r=$(recall pick --resume docker network); echo "R""C=$? <$r>"`, "Enter")
	x.searched("docker network")
	x.keys("Enter")
	done = x.waitFor("the resume answer", false, func(s string) bool { return strings.Contains(s, "RC=") })
	if !regexp.MustCompile(`RC=0 <(cd \S+ && )?claude --resume 3f2a9c1e-docker-dns>`).MatchString(done) {
		t.Fatalf("recall pick --resume printed:\n%s", done)
	}

	x.keys("clear", "Enter")
	x.keys(`r=$(recall pick); echo "R""C=$? <$r>"`, "Enter")
	x.waitFor("the picker", false, func(s string) bool { return strings.Contains(s, "enter pick") })
	x.keys("Escape")
	done = x.waitFor("cancelled", false, func(s string) bool { return strings.Contains(s, "RC=") })
	if !strings.Contains(done, "RC=130 <>") {
		t.Fatalf("cancelled pick:\n%s", done)
	}

	// The README's bash binding, in an interactive bash: alt-r, pick, and
	// the resume command is on the command line.
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)### Shell integration.*?```bash\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("no bash binding in the README")
	}
	rc := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(rc, m[1], 0o600); err != nil {
		t.Fatal(err)
	}
	b := startShell(t, shellConfig{env: "PATH=" + path + " RECALL_DB=" + db, shell: "bash --norc --noprofile -i"})
	b.keys("source "+rc, "Enter")
	b.keys("clear", "Enter")
	b.waitFor("prompt", false, func(s string) bool { return strings.HasPrefix(s, e2ePrompt) })
	b.text("docker network")
	b.keys("M-r")
	b.waitFor("the picker", false, func(s string) bool { return strings.Contains(s, "enter pick") })
	b.searched("docker network")
	b.keys("Enter")
	b.waitFor("the command on the prompt", false, func(s string) bool {
		return regexp.MustCompile(regexp.QuoteMeta(e2ePrompt) + ` (cd \S+ && )?claude --resume 3f2a9c1e-docker-dns`).MatchString(s)
	})
}

// signalTUI sends sig to the program the pane's shell is running.
func (x *tmux) signalTUI(sig syscall.Signal) {
	x.t.Helper()
	shell := strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "#{pane_pid}"))
	children, err := os.ReadFile("/proc/" + shell + "/task/" + shell + "/children")
	if err != nil {
		x.t.Skipf("cannot find the pane's processes: %v", err)
	}
	kids := strings.Fields(string(children))
	if len(kids) != 1 {
		x.t.Fatalf("the shell runs %q, want one program", kids)
	}
	pid, _ := strconv.Atoi(kids[0])
	if err := syscall.Kill(pid, sig); err != nil {
		x.t.Fatal(err)
	}
}

// importDemo imports the demo history into a new database and returns its path.
func importDemo(t *testing.T, bin string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "demo.db")
	demo, _ := filepath.Glob(filepath.Join("..", "assets", "demo", "*.jsonl"))
	if out, err := exec.Command(bin, append([]string{"--db", db, "import", "jsonl"}, demo...)...).CombinedOutput(); err != nil {
		t.Fatalf("import demo: %v\n%s", err, out)
	}
	return db
}
