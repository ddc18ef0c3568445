package ui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// e never replaces a file silently: an existing file stays until a second
// e; what it writes is 0600 under any umask (transcripts are private), and
// the status line shows the full path. Before, e truncated the file and
// wrote 0644.
func TestExportNeverOverwritesSilently(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	d := newDriver(t, demoBackend(), 200, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")

	// A fresh export.
	d.key("j") // cx-2222
	d.key("e")
	d.pump("exported", func() bool { return strings.HasPrefix(d.m.status.msg, "exported") })
	fresh := filepath.Join(dir, "recall-cx-2222.md")
	if !strings.Contains(d.m.status.msg, fresh) {
		t.Errorf("status %q lacks the full path %s", d.m.status.msg, fresh)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("fresh export: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}

	// An existing file of the user's.
	d.key("k") // cc-1111
	mine := filepath.Join(dir, "recall-cc-1111.md")
	if err := os.WriteFile(mine, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d.key("e")
	d.pump("asked", func() bool { return strings.Contains(d.m.status.msg, "exists") })
	if b, _ := os.ReadFile(mine); string(b) != "my notes\n" {
		t.Fatalf("the first e replaced an existing file: %q", b)
	}
	if !strings.Contains(d.m.status.msg, mine) {
		t.Errorf("status %q lacks the full path", d.m.status.msg)
	}
	d.key("e")
	d.pump("replaced", func() bool { return strings.HasPrefix(d.m.status.msg, "exported") })
	b, _ := os.ReadFile(mine)
	fi, _ := os.Stat(mine)
	if !strings.Contains(string(b), "Fix the sqlite migration") || fi.Mode().Perm() != 0o600 {
		t.Fatalf("second e: mode %v, content %.60q", fi.Mode().Perm(), b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".recall-export-*")); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}
