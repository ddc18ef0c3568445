package ui

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTmuxTypingIsText types words into the real binary at 30, 150 and
// 400 ms per key (a fast typist, an ordinary one, a slow one: issue 32's
// "error" typed at 150 ms in the list opened the export box and Enter
// wrote a file; "rollback" resumed the session and opened the pager) in
// every pane where text is typed: the search box, the list, the reading
// pane's find prompt, the export box and the help. The pane's shell has
// only a directory of fake programs on its PATH (pagers, clipboards, tmux,
// the demo's agents) that record any start; HOME, the working directory
// and TMPDIR are watched for new or changed files. Nothing may start and
// nothing may be written.
func TestTmuxTypingIsText(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := recallBinary(t)
	for _, perKey := range []time.Duration{30 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond} {
		t.Run(perKey.String()+" per key", func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			home, work, tmp, fake := filepath.Join(root, "home"), filepath.Join(root, "work"), filepath.Join(root, "tmp"), filepath.Join(root, "bin")
			calls := filepath.Join(root, "calls.log")
			for _, d := range []string{home, work, tmp, fake} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, name := range []string{"less", "more", "xclip", "xsel", "wl-copy", "wl-paste", "pbcopy", "pbpaste", "tmux",
				"claude", "codex", "gemini", "hermes", "opencode", "vi", "nano"} {
				script := "#!/bin/sh\necho \"" + name + " $*\" >> " + calls + "\n"
				if err := os.WriteFile(filepath.Join(fake, name), []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			x := startShell(t, shellConfig{shell: "/bin/sh", env: "HOME=" + home + " TMPDIR=" + tmp + " PATH=" + fake +
				" DISPLAY=:0 WAYLAND_DISPLAY=wayland-0"})
			x.text("cd " + work)
			x.keys("Enter")
			x.openDemo(bin)
			before := snapshot(t, home, work, tmp)

			typeSlowly := func(s string) {
				for _, r := range s {
					x.text(string(r))
					time.Sleep(perKey)
				}
			}
			// The search box.
			typeSlowly("error rollback")
			x.searched("error rollback")
			x.keys("C-u")
			// The list: the word is the query, and enter summarises.
			x.keys("Tab")
			typeSlowly("error")
			x.searched("error")
			x.keys("Tab", "Enter")
			x.waitFor("the summary", false, func(s string) bool {
				return strings.Contains(s, "Summary") && !strings.Contains(s, "streaming… (esc")
			})
			x.esc() // closes the summary
			x.waitFor("the transcript again", false, func(s string) bool { return !strings.Contains(s, "Summary") })
			x.esc() // the list → the search box
			x.keys("C-u")
			x.waitFor("the recent sessions", false, func(s string) bool { return strings.Contains(s, "recent · ") })
			// The reading pane's find prompt.
			x.keys("Tab", "Tab", "/")
			x.waitFor("the find prompt", false, func(s string) bool { return strings.Contains(s, "enter: find") })
			typeSlowly("yo-yo network TV")
			x.waitFor("the pattern typed", false, func(s string) bool { return strings.Contains(s, "/yo-yo network TV") })
			x.esc()
			x.esc()
			// The export box (alt+e from the list), left with esc.
			x.keys("M-e")
			x.waitFor("the export box", false, func(s string) bool { return strings.Contains(s, "Export session") })
			x.keys("C-u")
			typeSlowly("rollback error")
			x.waitFor("the path typed", false, func(s string) bool { return strings.Contains(s, "path: rollback error") })
			x.esc()
			// The help over the list: letters do nothing until q closes it;
			// the rest of "quit" is then the query.
			x.keys("F1")
			x.waitFor("the help", false, func(s string) bool { return strings.Contains(s, "Help · the keys in force") })
			typeSlowly("error yo quit")
			x.waitFor("the help closed, the rest typed", false, func(s string) bool {
				return strings.Contains(s, "❯ uit") && !strings.Contains(s, "Help · the keys")
			})

			time.Sleep(500 * time.Millisecond) // anything started late would have started by now
			if b, err := os.ReadFile(calls); err == nil {
				t.Fatalf("typing started programs:\n%s\nscreen:\n%s", b, x.capture(false))
			}
			if after := snapshot(t, home, work, tmp); after != before {
				t.Fatalf("typing wrote files:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			x.quit()
		})
	}
}

// esc sends Escape and waits until the screen answers it (every Escape a
// test sends closes or leaves something, which repaints at least a style):
// a key sent before the program has read the Escape would be read with it
// as that key with alt (the terminal's ESC prefix), however long a fixed
// pause was on a loaded machine.
func (x *tmux) esc() {
	x.t.Helper()
	before := x.capture(true)
	x.keys("Escape")
	x.waitFor("the screen to answer Escape", true, func(s string) bool { return s != before })
}

// snapshot lists the files under dirs with their sizes and times, leaving
// out the demo's own database (recall-demo-*), which the TUI reads.
func snapshot(t *testing.T, dirs ...string) string {
	t.Helper()
	var b strings.Builder
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && strings.HasPrefix(d.Name(), "recall-demo-") {
				return filepath.SkipDir
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			b.WriteString(path + " " + info.ModTime().String() + " " + itoa(int(info.Size())) + "\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
