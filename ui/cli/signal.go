package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"
)

// SignalGrace, when positive, bounds how long a command goes on after its
// context is cancelled (SIGINT, SIGTERM: main sets it): a command still
// running then is ended with exit status 130. Each command stops at its next
// check of the context and keeps every transaction it committed, and SQLite
// rolls back the one open at exit, so nothing committed is lost; the bound
// only matters where a check is far away (a read blocked in the kernel).
// The terminal UIs are left out: they restore the terminal as they quit.
var SignalGrace time.Duration

// interactive commands own the terminal and quit on their own.
var interactive = map[string]bool{"tui": true, "pick": true, "demo": true}

// exitAfterSignal starts the bound for command name; the returned function
// ends it when the command returns.
func exitAfterSignal(ctx context.Context, name string, stderr io.Writer) func() {
	if SignalGrace <= 0 || interactive[name] {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		select {
		case <-done:
		case <-time.After(SignalGrace):
			fmt.Fprintf(stderr, "recall %s: stopped by a signal; what was committed is kept\n", name)
			os.Exit(130)
		}
	}()
	return func() { close(done) }
}
