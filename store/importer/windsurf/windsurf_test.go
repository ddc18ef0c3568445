package windsurf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestFoundNeverRead: the .pb files of the cascade folders are found (only
// they), and importing one says why it cannot be read.
func TestFoundNeverRead(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	s := &Source{}
	paths := s.DefaultPaths()
	if len(paths) != 2 || paths[0] != filepath.Join(home, ".codeium", "windsurf", "cascade") || paths[1] != filepath.Join(home, ".codeium", "windsurf-next", "cascade") {
		t.Fatalf("paths %q", paths)
	}
	for _, f := range []string{"windsurf/cascade/a.pb", "windsurf/cascade/notes.txt", "windsurf-next/cascade/b.pb"} {
		p := filepath.Join(home, ".codeium", f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte{0x8a, 0x17}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := s.Discover(paths)
	if err != nil || len(found) != 2 {
		t.Fatalf("found %q, %v", found, err)
	}
	msg := s.Unreadable(found)
	if !strings.HasPrefix(msg, "2 Cascade conversations in "+paths[1]+", "+paths[0]+", but Windsurf encrypts them") {
		t.Errorf("message %q", msg)
	}
	if m := s.Unreadable(found[:1]); !strings.HasPrefix(m, "1 Cascade conversation in ") {
		t.Errorf("one: %q", m)
	}
	if _, err := s.Import(t.Context(), it.Open(t), found[0]); !errors.Is(err, ErrEncrypted) {
		t.Errorf("import: %v", err)
	}
}
