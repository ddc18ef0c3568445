package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTmuxUX drives the real binary for what fzf, atuin, lazygit and glow
// users expect of the keys and the screen (issue 22). Set
// RECALL_TEST_BINARY to an older build to see these fail without the fixes.
func TestTmuxUX(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := recallBinary(t)
	t.Run("export asks where in a box", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		x := startShell(t, shellConfig{})
		x.text("cd " + dir)
		x.keys("Enter")
		x.openDemo(bin)
		x.keys("Tab")
		x.keys("M-e")
		s := x.waitFor("the export popup", false, func(s string) bool {
			return strings.Contains(s, "Export session") && strings.Contains(s, "╭") && strings.Contains(s, ".md") && strings.Contains(s, "path: ")
		})
		if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) > 0 {
			t.Fatalf("alt+e wrote %q before asking:\n%s", files, s)
		}
		x.keys("C-u")
		x.text(filepath.Join(dir, "notes.md"))
		x.keys("Enter")
		x.waitFor("exported", false, func(s string) bool { return strings.Contains(s, "exported "+filepath.Join(dir, "notes.md")) })
		if _, err := os.Stat(filepath.Join(dir, "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("the current hit is on screen", func(t *testing.T) {
		t.Parallel()
		// Before: "hit 2/2 · 100%" with nothing highlighted, the match cut
		// behind the … of a compact tool line.
		x := startDemo(t, bin, "")
		pos := regexp.MustCompile(`hit (\d+)/(\d+)`)
		for qi, q := range []string{"docker network", "デプロイ", "nginx"} {
			if qi > 0 {
				x.esc() // detail → list → search box
				x.esc()
				x.keys("C-u")
			}
			x.text(q)
			x.searched(q)
			x.settled()
			x.keys("Tab", "Tab")
			s := x.waitFor("the transcript at its hit", false, func(s string) bool {
				return pos.MatchString(s) && !strings.Contains(s, "loading…")
			})
			if s = x.settled(); !pos.MatchString(s) {
				t.Fatalf("%q: no hit position once the screen settled:\n%s", q, s)
			}
			start, _ := strconv.Atoi(pos.FindStringSubmatch(s)[1])
			n, _ := strconv.Atoi(pos.FindStringSubmatch(s)[2])
			for k := range n {
				want := "hit " + itoa((start-1+k)%n+1) + "/" + itoa(n)
				// The current hit's colour (HitCurrent: background 208),
				// on the screen that says which hit it is: waited for
				// together, as a capture can land between the frame that
				// moves the position and the one that scrolls to it on a
				// loaded machine. It never showing fails the wait.
				x.waitFor(fmt.Sprintf("%q %s with the current hit on screen", q, want), true, func(s string) bool {
					return strings.Contains(stripSGR(s), want) && strings.Contains(s, "48;5;208m")
				})
				x.keys("n")
			}
		}
	})
	t.Run("ctrl-v pastes from the tmux buffer", func(t *testing.T) {
		t.Parallel()
		// No xclip or wl-paste in the pane's PATH matters: inside tmux the
		// paste comes from tmux's buffer, where y copies to.
		x := startShell(t, shellConfig{keepTMUX: true})
		x.run("set-buffer", "overlay network")
		x.openDemo(bin)
		x.keys("C-v")
		x.waitFor("the pasted query", false, func(s string) bool {
			return strings.Contains(s, "❯ overlay network") && strings.Contains(s, "pasted from the tmux buffer")
		})
	})
	t.Run("o opens less at the hit with every word highlighted", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("less"); err != nil {
			t.Skip("less not installed")
		}
		x := startDemo(t, bin, "PAGER=less")
		x.text("docker network")
		x.searched("docker network")
		x.settled()
		x.keys("Tab", "Tab")
		x.waitFor("the hit", false, func(s string) bool { return regexp.MustCompile(`hit \d+/\d+`).MatchString(s) })
		x.keys("o")
		// less's search highlight is reverse video; both words carry it,
		// and the hit's line is the screen's fourth (-j4).
		s := x.waitFor("less at the hit", true, func(s string) bool {
			return strings.Contains(s, "7mdocker") && strings.Contains(s, "7mnetwork") && !strings.Contains(s, "search your agent history")
		})
		if row := lines(stripSGR(s))[3]; !strings.Contains(strings.ToLower(row), "docker") && !strings.Contains(strings.ToLower(row), "network") {
			t.Errorf("the fourth line is not the hit's: %q\n%s", row, stripSGR(s))
		}
		x.keys("q")
		x.waitFor("back in recall", false, func(s string) bool { return strings.Contains(s, "❯ docker network") })
	})
	t.Run("F6 says what enter and esc do", func(t *testing.T) {
		t.Parallel()
		x := startDemo(t, bin, "")
		x.keys("F6")
		x.waitFor("the F6 status", false, func(s string) bool { return strings.Contains(s, "enter: the session's summary") })
		x.keys("Tab", "Enter")
		x.waitFor("the summary", false, func(s string) bool { return strings.Contains(s, "summary") && !strings.Contains(s, "streaming") })
	})
}
