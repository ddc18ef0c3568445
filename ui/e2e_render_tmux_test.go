package ui

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestTmuxRendering drives the real binary in tmux for what only a real
// terminal shows: Japanese that must wrap rather than be cut, and a hostile
// session that must not retitle the pane, rename the window or write the
// clipboard, with tmux configured to let an application do all three.
func TestTmuxRendering(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := filepath.Join(t.TempDir(), "bin", "recall")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("japanese wraps", func(t *testing.T) { e2eJapaneseWrap(t, bin) })
	t.Run("hostile session", func(t *testing.T) { e2eHostile(t, bin) })
}

// The last sentence of a long Japanese reply in the demo: cut at "通…" at 80
// and 120 columns before the transcript was wrapped by character.
const e2eJapaneseSentence = "本番への反映は通常のリリースに乗せて問題ありません。"

func e2eJapaneseWrap(t *testing.T, bin string) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		x := startDemoSized(t, bin, w, h)
		x.run("send-keys", "-t", "e2e", "-l", "デプロイ")
		x.waitFor("the Japanese session", false, func(s string) bool {
			return strings.Contains(s, "文字化けする ·") && strings.Contains(s, "trigram ·")
		})
		x.run("send-keys", "-t", "e2e", "Tab")
		x.run("send-keys", "-t", "e2e", "Tab")
		x.run("send-keys", "-t", "e2e", "g")
		detX := 0
		if l := computeLayout(w, h, false); l.mode == layoutWide {
			detX = l.detX
		}
		found := false
		var pages []string
		for page := 0; page < 12 && !found; page++ {
			time.Sleep(300 * time.Millisecond)
			screen := x.capture(false)
			lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
			var text strings.Builder
			start := -1
			for i, l := range lines {
				if start < 0 && strings.Contains(ansi.Cut(l, detX, w), "文字化けする ·") { // the detail header
					start = i + 1
				}
			}
			for i := max(start, 0); start >= 0 && i < len(lines)-1; i++ {
				text.WriteString(ansi.Cut(lines[i], detX, w))
			}
			pages = append(pages, screen)
			found = strings.Contains(noSpace(text.String()), e2eJapaneseSentence)
			x.run("send-keys", "-t", "e2e", "PgDn")
		}
		if !found {
			t.Errorf("%dx%d: %q never on screen whole; pages:\n%s", w, h, e2eJapaneseSentence, strings.Join(pages, "\n-----\n"))
		}
		x.quit()
	}
}

// startDemoSized is startDemo at another size.
func startDemoSized(t *testing.T, bin string, w, h int) *tmux {
	x := startDemo(t, bin, "")
	x.run("resize-window", "-t", "e2e", "-x", itoa(w), "-y", itoa(h))
	x.waitFor("resized", false, func(s string) bool {
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		return len(lines) <= h && strings.Contains(s, "search your agent history")
	})
	return x
}

func e2eHostile(t *testing.T, bin string) {
	dir := t.TempDir()
	db := filepath.Join(dir, "hostile.db")
	if out, err := exec.Command(bin, "--db", db, "import", "jsonl", filepath.Join("testdata", "hostile.jsonl")).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	x := &tmux{t: t, sock: filepath.Join(dir, "tmux.sock")}
	shell := "env -u TMUX -u NO_COLOR -u CI PAGER=less TERM=xterm-256color XDG_DATA_HOME=" + dir + " XDG_CONFIG_HOME=" + dir +
		" PS1='" + e2ePrompt + " ' sh"
	x.run("-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", shell)
	t.Cleanup(func() { exec.Command("tmux", "-S", x.sock, "kill-server").Run() })
	// Everything an application may do to tmux, allowed; the window name
	// must only change by an escape (automatic renaming shows the command).
	x.run("set-option", "-s", "set-clipboard", "on")
	x.run("set-option", "-g", "allow-passthrough", "on")
	x.run("set-option", "-g", "allow-rename", "on")
	x.run("set-option", "-g", "automatic-rename", "off")
	x.waitFor("shell prompt", false, func(s string) bool { return strings.Contains(s, e2ePrompt) })
	state := func() string {
		return strings.TrimSpace(x.run("display-message", "-p", "-t", "e2e", "title=#{pane_title} window=#{window_name}")) +
			" buffers=" + strings.TrimSpace(x.run("list-buffers"))
	}
	before := state()

	x.run("send-keys", "-t", "e2e", bin+" --db "+db, "Enter")
	x.waitFor("the TUI", false, func(s string) bool { return strings.Contains(s, "search your agent history") })
	x.run("send-keys", "-t", "e2e", "-l", "docker")
	x.waitFor("the hostile session", false, func(s string) bool { return strings.Contains(s, "docker hostile") && strings.Contains(s, "Done with") })
	time.Sleep(300 * time.Millisecond) // a title change would be processed by now
	if now := state(); now != before {
		t.Fatalf("showing the session changed the terminal: %s, was %s", now, before)
	}
	steps := []struct {
		keys []string
		what string
		done func(string) bool
	}{
		{[]string{"Tab", "Tab"}, "detail focus", func(s string) bool { return strings.Contains(s, "hit ") }},
		{[]string{"t"}, "raw tool view", func(s string) bool { return strings.Contains(s, `"description"`) }},
		{[]string{"G"}, "bottom", func(s string) bool { return strings.Contains(s, "100%") || strings.Contains(s, "all") }},
		{[]string{"o"}, "pager", func(s string) bool {
			return strings.Contains(s, "# docker hostile") || strings.Contains(s, "(END)") || strings.Contains(s, "hostile-1")
		}},
		{[]string{"G"}, "pager end", func(s string) bool { return strings.Contains(s, "(END)") }},
		{[]string{"q"}, "back from the pager", func(s string) bool { return strings.Contains(s, "Sessions") && strings.Contains(s, "❯ docker") }},
		{[]string{"s"}, "summary", func(s string) bool { return strings.Contains(s, "no model configured") }},
	}
	for _, st := range steps {
		for _, k := range st.keys {
			x.run("send-keys", "-t", "e2e", k)
		}
		x.waitFor(st.what, false, st.done)
		if now := state(); now != before {
			t.Fatalf("after %s the terminal changed: %s, was %s", st.what, now, before)
		}
	}
	x.quit()
	if now := state(); now != before {
		t.Fatalf("after quitting the terminal changed: %s, was %s", now, before)
	}
}
