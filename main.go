// Command recall searches every conversation you had with your AI agents:
// an as-you-type terminal UI and a scriptable CLI over one local SQLite file.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/recall-dev/recall/ui/cli"
)

func main() {
	// SIGHUP is the terminal going away (its window closed, ssh dropped): a
	// normal way out like the others, so cleanups run (recall demo's
	// temporary database) instead of the process dying where it stands.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// A signal ends a command within this bound, whatever it is doing.
	cli.SignalGrace = 750 * time.Millisecond
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, term.IsTerminal(int(os.Stdout.Fd())))
	stop()
	os.Exit(code)
}
