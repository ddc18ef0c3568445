package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tests that drive the real program (tmux, a pty) share one build of it.
var testBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// recallBinary builds recall once per test process and returns its path.
func recallBinary(t testing.TB) string {
	t.Helper()
	b := &testBinary
	b.once.Do(func() {
		// RECALL_TEST_BINARY runs these tests against another build (an
		// older commit's, to see a test fail without its fix).
		if p := os.Getenv("RECALL_TEST_BINARY"); p != "" {
			b.path = p
			return
		}
		if b.dir, b.err = os.MkdirTemp("", "recall-ui-test-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "recall")
		build := exec.Command("go", "build", "-o", b.path, ".")
		build.Dir = ".."
		b.out, b.err = build.CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("go build: %v\n%s", b.err, b.out)
	}
	return b.path
}

// removeTestBinary deletes the shared build (TestMain calls it).
func removeTestBinary() {
	if testBinary.dir != "" {
		os.RemoveAll(testBinary.dir)
	}
}
