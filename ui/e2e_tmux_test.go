package ui

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
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
	dir := t.TempDir()
	x := &tmux{t: t, sock: filepath.Join(dir, "tmux.sock")}
	shell := "env -u RECALL_LLM_BASE_URL -u RECALL_LLM_MODEL -u RECALL_LLM_API_KEY -u OPENAI_API_KEY -u OPENAI_BASE_URL -u TMUX " +
		"-u NO_COLOR -u CLICOLOR -u CLICOLOR_FORCE -u COLORTERM -u CI " +
		"TERM=xterm-256color XDG_DATA_HOME=" + dir + " XDG_CONFIG_HOME=" + dir + " " + extraEnv + " PS1='" + e2ePrompt + " ' sh"
	x.run("new-session", "-d", "-s", "e2e", "-x", itoa(e2eW), "-y", itoa(e2eH), shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.sock, "kill-server").Run() })
	x.waitFor("shell prompt", false, func(s string) bool { return strings.Contains(s, e2ePrompt) })

	x.run("send-keys", "-t", "e2e", bin+" demo", "Enter")
	x.waitFor("demo browse screen", false, func(s string) bool {
		return strings.Contains(s, "search your agent history") && regexp.MustCompile(`recent · \d+ sessions`).MatchString(s)
	})
	if alt := strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "#{alternate_on}")); alt != "1" {
		t.Errorf("TUI is not on the alternate screen (alternate_on=%s)", alt)
	}
	return x
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
	x.waitFor("shell prompt after quit", false, func(s string) bool {
		return strings.Count(s, e2ePrompt) >= 2 && !strings.Contains(s, "search your agent history")
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
