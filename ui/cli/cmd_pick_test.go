package cli

import (
	"os"
	"testing"

	"github.com/recall-dev/recall/store"
)

// The line pick --resume prints and Y copies needs no agent installed, and
// quotes what a shell would split.
func TestResumeLine(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no agent anywhere
	dir := t.TempDir() + "/my project"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sess store.Session
		want string
	}{
		{store.Session{ID: "abc-123", Source: "claude-code"}, "claude --resume abc-123"},
		{store.Session{ID: "abc-123", Source: "claude-code", Cwd: dir}, "cd '" + dir + "' && claude --resume abc-123"},
	} {
		if got, err := resumeLine(tc.sess); err != nil || got != tc.want {
			t.Errorf("resumeLine(%+v) = %q, %v; want %q", tc.sess, got, err, tc.want)
		}
	}
}
