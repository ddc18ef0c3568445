package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// e never writes a file by itself: it opens a boxed popup with the path
// editable (lazygit); enter writes, an existing file is only replaced by a
// second enter on the same path; what it writes is 0600 under any umask
// (transcripts are private), and the status line shows the full path.
// Before, e wrote ./recall-<id>.md at once.
func TestExportNeverOverwritesSilently(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	d := newDriver(t, demoBackend(), 200, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")

	// alt+e alone writes nothing: it asks where, in a box.
	d.key("down") // cx-2222
	d.key("alt+e")
	fresh := filepath.Join(dir, "recall-cx-2222.md")
	d.settle()
	if _, err := os.Stat(fresh); err == nil {
		t.Fatal("alt+e wrote a file without asking")
	}
	scr := d.screen()
	if !d.m.popup.open || !strings.Contains(scr, "╭") || !strings.Contains(scr, "Export session") || !strings.Contains(scr, fresh) {
		t.Fatalf("no export popup with the path:\n%s", scr)
	}
	// The path is editable: ctrl-u clears it, a new name is typed.
	d.key("ctrl+u")
	d.typ("mine.md")
	d.key("enter")
	d.pump("exported", func() bool { return strings.HasPrefix(d.m.status.msg, "exported") })
	if d.m.popup.open {
		t.Error("popup still open after the export")
	}
	typed := filepath.Join(dir, "mine.md")
	if !strings.Contains(d.m.status.msg, typed) {
		t.Errorf("status %q lacks the full path %s", d.m.status.msg, typed)
	}
	if fi, err := os.Stat(typed); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("export: %v; want 0600", err)
	}

	// esc cancels.
	d.key("alt+e")
	d.key("esc")
	if d.m.popup.open || d.m.focus != focusList {
		t.Errorf("esc: popup open %v, focus %v", d.m.popup.open, d.m.focus)
	}

	// An existing file of the user's.
	d.key("up") // cc-1111
	mine := filepath.Join(dir, "recall-cc-1111.md")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.key("alt+e")
	d.key("enter")
	d.pump("asked", func() bool { return strings.Contains(d.m.popup.note, "exists") })
	if b, _ := os.ReadFile(mine); string(b) != "my notes\n" {
		t.Fatalf("the first enter replaced an existing file: %q", b)
	}
	d.key("enter")
	d.pump("replaced", func() bool { return strings.HasPrefix(d.m.status.msg, "exported") })
	b, _ := os.ReadFile(mine)
	fi, _ := os.Stat(mine)
	if !strings.Contains(string(b), "Fix the sqlite migration") || fi.Mode().Perm() != 0o600 {
		t.Fatalf("second enter: mode %v, content %.60q", fi.Mode().Perm(), b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".recall-export-*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}
