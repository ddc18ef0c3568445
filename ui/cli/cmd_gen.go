package cli

import (
	"fmt"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// genReport is what `recall gen --json` prints.
type genReport struct {
	Path              string  `json:"path"`
	Messages          int     `json:"messages"`
	Sessions          int     `json:"sessions"`
	Seed              uint64  `json:"seed"`
	Seconds           float64 `json:"seconds"`
	MessagesPerSecond float64 `json:"messages_per_second"`
}

func runGen(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	n := fs.Int("messages", 0, "number of messages to generate (required)")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same corpus")
	asJSON := fs.Bool("json", false, "print a JSON report")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *n <= 0 {
		return usageError("--messages must be a positive number of messages, got %d", *n)
	}
	st, err := env.Open(store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	start := time.Now()
	progress := func(done int) {
		if env.StdoutIsTerminal && !*asJSON {
			el := time.Since(start).Seconds()
			fmt.Fprintf(env.Stderr, "\r%d/%d messages · %.0f msg/s ", done, *n, float64(done)/max(el, 1e-9))
		}
	}
	sessions, err := synth.Load(env.Ctx, st, synth.Options{Messages: *n, Seed: *seed}, progress)
	if err != nil {
		return err
	}
	el := time.Since(start).Seconds()
	rep := genReport{Path: st.Path(), Messages: *n, Sessions: sessions, Seed: *seed, Seconds: el, MessagesPerSecond: float64(*n) / max(el, 1e-9)}
	if *asJSON {
		return printJSON(env.Stdout, rep)
	}
	if env.StdoutIsTerminal {
		fmt.Fprintln(env.Stderr)
	}
	fmt.Fprintf(env.Stdout, "generated %d messages in %d sessions into %s in %.1fs (%.0f msg/s)\n",
		rep.Messages, rep.Sessions, rep.Path, el, rep.MessagesPerSecond)
	return nil
}
