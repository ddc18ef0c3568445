package cli

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestSignalGraceChild is the child of TestSignalGrace: a command stuck
// where no check of its context comes (a read blocked in the kernel).
func TestSignalGraceChild(t *testing.T) {
	if os.Getenv("RECALL_TEST_STUCK") == "" {
		t.Skip("the child of TestSignalGrace")
	}
	SignalGrace = 750 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer exitAfterSignal(ctx, "import", os.Stderr)()
	cancel() // the signal
	time.Sleep(time.Minute)
}

// TestSignalGrace: a command that does not return after its signal is
// ended with status 130 and a line saying so, within SignalGrace.
func TestSignalGrace(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalGraceChild$")
	cmd.Env = append(os.Environ(), "RECALL_TEST_STUCK=1")
	t0 := time.Now()
	out, _ := cmd.CombinedOutput()
	took := time.Since(t0)
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(string(out), "recall import: stopped by a signal; what was committed is kept") {
		t.Fatalf("exit %d after %s: %s", code, took, out)
	}
	if took > 30*time.Second {
		t.Errorf("took %s: the stuck command was not ended", took)
	}
	t.Logf("ended after %s (grace 750 ms, process start included)", took.Round(time.Millisecond))
}
