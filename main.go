// Command recall searches every conversation you had with your AI agents:
// an as-you-type terminal UI and a scriptable CLI over one local SQLite file.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/recall-dev/recall/ui/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, term.IsTerminal(int(os.Stdout.Fd())))
	stop()
	os.Exit(code)
}
