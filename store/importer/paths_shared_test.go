package importer

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDataHome follows XDG_DATA_HOME when set, else ~/.local/share.
func TestDataHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct {
		xdg  string
		want string
	}{
		{"", filepath.Join(home, ".local", "share", "goose", "sessions")},
		{"/x/data", filepath.Join("/x/data", "goose", "sessions")},
	} {
		t.Setenv("XDG_DATA_HOME", c.xdg)
		if got := DataHome("goose", "sessions"); got != c.want {
			t.Errorf("XDG_DATA_HOME=%q: DataHome = %q, want %q", c.xdg, got, c.want)
		}
	}
}

// TestFindMatching keeps named files first, then the walked files that
// match, and the walked files that do not match are left out.
func TestFindMatching(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"sessions/a.jsonl", "sessions/b.txt", "named.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	named := filepath.Join(dir, "named.txt")
	got, err := FindMatching([]string{named, dir}, Subfolder("sessions"), nil, func(name string) bool {
		return filepath.Ext(name) == ".jsonl"
	})
	want := []string{named, filepath.Join(dir, "sessions", "a.jsonl")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("FindMatching = %q, %v; want %q", got, err, want)
	}
	if !IsFile(named) || IsFile(dir) || IsFile(filepath.Join(dir, "none")) {
		t.Error("IsFile: want true for a file only")
	}
	if PathIf("") != nil || !reflect.DeepEqual(PathIf(dir), []string{dir}) {
		t.Error("PathIf: want no path for \"\", else the one path")
	}
}
