package ui

import (
	"os"
	"os/exec"
	"path/filepath"
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
	t.Run("a word typed in a pane is a query", func(t *testing.T) {
		t.Parallel()
		// Before: n jumped to a hit, e wrote recall-<id>.md into the
		// working directory, t turned the tool view on, "work" was typed.
		dir := t.TempDir()
		x := startShell(t, shellConfig{})
		x.text("cd " + dir)
		x.keys("Enter")
		x.openDemo(bin)
		x.keys("Tab")
		x.text("network")
		x.searched("network")
		if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) > 0 {
			t.Fatalf("typing a word in the list wrote %q", files)
		}
	})
	t.Run("export asks where in a box", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		x := startShell(t, shellConfig{})
		x.text("cd " + dir)
		x.keys("Enter")
		x.openDemo(bin)
		x.keys("Tab")
		x.keys("e")
		s := x.waitFor("the export popup", false, func(s string) bool {
			return strings.Contains(s, "Export session") && strings.Contains(s, "╭") && strings.Contains(s, ".md") && strings.Contains(s, "path: ")
		})
		if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) > 0 {
			t.Fatalf("e wrote %q before asking:\n%s", files, s)
		}
		x.keys("C-u")
		x.text(filepath.Join(dir, "notes.md"))
		x.keys("Enter")
		x.waitFor("exported", false, func(s string) bool { return strings.Contains(s, "exported "+filepath.Join(dir, "notes.md")) })
		if _, err := os.Stat(filepath.Join(dir, "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
}
