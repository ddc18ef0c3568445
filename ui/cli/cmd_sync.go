package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall/syncer"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// syncJSON is `sync --json`: one result per host and direction.
type syncJSON struct {
	Results []syncer.Result `json:"results"`
}

func runSync(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	push := fs.Bool("push", false, "send each host what this machine has that it lacks, instead of pulling")
	both := fs.Bool("both", false, "pull from each host, then push to it")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	stateFor := fs.String("state-for", "", "print what this database holds of machine `ID` (the remote side of --push)")
	args, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *stateFor != "" {
		return syncState(env, *stateFor, args)
	}
	cfg, err := syncConfig()
	if err != nil {
		return err
	}
	hosts := args
	if len(hosts) == 0 {
		hosts = cfg.Hosts
	}
	if len(hosts) == 0 {
		return usageError(`name a HOST (recall sync HOST…), or list them in config.json: {"sync": {"hosts": ["devbox"]}}`)
	}
	for _, h := range hosts {
		if h == "" || strings.HasPrefix(h, "-") {
			return usageError("%q is not a host", h)
		}
	}
	st, err := env.openReceiving("sync")
	if err != nil {
		return err
	}
	defer st.Close()
	s := syncer.New(st, cfg, syncer.SSHCommand(os.Getenv))
	var results []syncer.Result
	var lastErr error
	failed := 0
	for _, h := range hosts {
		for _, dir := range directions(*push, *both) {
			if env.Ctx.Err() != nil {
				break
			}
			var r syncer.Result
			if dir {
				r = s.Push(env.Ctx, h)
			} else {
				r = s.Pull(env.Ctx, h)
			}
			results = append(results, r)
			if r.Err != nil {
				failed++
				// One line per host that failed; the others go on.
				if len(hosts) > 1 {
					fmt.Fprintln(env.Stderr, "recall sync: "+termtext.OneLine(termtext.Sanitize(r.Err.Error())))
				} else {
					lastErr = r.Err
				}
				break
			}
			if !*asJSON {
				printSyncResult(env.Stdout, r)
			}
		}
	}
	if *asJSON {
		if results == nil {
			results = []syncer.Result{}
		}
		if err := printJSON(env.Stdout, syncJSON{Results: results}); err != nil {
			return err
		}
	}
	if env.Ctx.Err() != nil {
		return errors.New("interrupted; what was applied is kept, and the next sync asks for the rest")
	}
	switch {
	case lastErr != nil:
		return lastErr
	case failed > 0:
		return exitQuietly(1) // each host said its own line
	}
	return nil
}

// exitQuietly is an error that ends the command with code and no line of
// its own (what went wrong was said already).
type exitQuietly int

func (e exitQuietly) Error() string { return "" }

// ExitCode is the process's exit status.
func (e exitQuietly) ExitCode() int { return int(e) }

// directions are the runs per host: false pulls, true pushes.
func directions(push, both bool) []bool {
	switch {
	case both:
		return []bool{false, true}
	case push:
		return []bool{true}
	}
	return []bool{false}
}

func printSyncResult(w io.Writer, r syncer.Result) {
	rep := r.Report
	verb, from := "pulled", "from"
	if r.Push {
		verb, from = "pushed", "to"
	}
	var parts []string
	if rep.Messages > 0 {
		word := "messages"
		if rep.Messages == 1 {
			word = "message"
		}
		parts = append(parts, fmt.Sprintf("%s %s %s in %s", verb, termtext.Thousands(int64(rep.Messages)), word, plural(rep.Sessions, "session", "sessions")))
	} else {
		parts = append(parts, "nothing new")
	}
	if rep.Rewritten > 0 {
		parts = append(parts, fmt.Sprintf("%d rewritten (earlier text kept)", rep.Rewritten))
	}
	if f := forgotten(rep); f != "" {
		parts = append(parts, f)
	}
	if rep.NewMachine {
		parts = append(parts, "first sync with this machine")
	}
	name := r.Machine.Name
	if name == "" || name == r.Host {
		name = ""
	} else {
		name = " (" + termtext.OneLine(termtext.Sanitize(name)) + ")"
	}
	fmt.Fprintf(w, "%s%s: %s · %s %s the host in %s\n", termtext.OneLine(termtext.Sanitize(r.Host)), name, strings.Join(parts, ", "),
		humanBytes(r.Bytes), from, fmtSeconds(r.Elapsed))
}

// syncState is the remote side of --push: what this database holds of the
// pusher, as JSON.
func syncState(env *Env, id string, args []string) error {
	if len(args) > 0 {
		return usageError("--state-for takes no HOST")
	}
	st, err := env.Open(store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	state, err := syncer.StateFor(env.Ctx, st, id)
	if err != nil {
		return err
	}
	return printJSON(env.Stdout, state)
}

// importBatch is `recall import batch FILE|-`: a batch checked whole, then
// applied (the remote side of --push too).
func importBatch(env *Env, paths []string, asJSON bool) error {
	if len(paths) != 1 {
		return usageError("batch needs one FILE (or - for standard input)")
	}
	st, err := env.openReceiving("import")
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := syncConfig()
	if err != nil {
		return err
	}
	s := syncer.New(st, cfg, nil)
	start := time.Now()
	var in io.Reader = env.Stdin
	name := "standard input"
	if paths[0] != "-" {
		f, err := os.Open(paths[0])
		if err != nil {
			return pathError(err, paths[0])
		}
		defer f.Close()
		in, name = f, paths[0]
	}
	h, rep, err := s.ApplyStream(env.Ctx, in)
	if err != nil {
		return fmt.Errorf("batch %s: %w", name, err)
	}
	if asJSON {
		return printJSON(env.Stdout, struct {
			Machine string            `json:"machine"`
			Name    string            `json:"machine_name"`
			Report  store.ApplyReport `json:"report"`
			Seconds float64           `json:"seconds"`
		}{h.Machine, h.MachineName, rep, round3(time.Since(start).Seconds())})
	}
	who := termtext.OneLine(termtext.Sanitize(h.MachineName))
	switch {
	case rep.Own:
		who += " (this database's own batch)"
	case rep.NewMachine:
		who += " (a machine not seen before: its sessions keep its name)"
	}
	fmt.Fprintf(env.Stdout, "batch from %s: %s, %s added, %d already here", who, plural(rep.Sessions, "session", "sessions"),
		plural(rep.Messages, "message", "messages"), rep.Present)
	if rep.Rewritten > 0 {
		fmt.Fprintf(env.Stdout, ", %d rewritten (earlier text kept)", rep.Rewritten)
	}
	if f := forgotten(rep); f != "" {
		fmt.Fprintf(env.Stdout, ", %s", f)
	}
	fmt.Fprintf(env.Stdout, " in %s\n", fmtSeconds(time.Since(start)))
	return nil
}

// batchFlags are export's --batch options; the ones besides --batch and
// --since are what `recall sync` asks a host for.
type batchFlags struct {
	batch           bool
	since           string
	afterID         int64
	tombstonesAfter float64
	exclude         string
	format          int
}

func (b *batchFlags) define(fs *flagSet) {
	fs.BoolVar(&b.batch, "batch", false, "write a sync batch (compressed) of the whole database for `recall import batch` on another machine")
	fs.StringVar(&b.since, "since", "", "with --batch: only what was written since `TIME` (RFC 3339, a date, or a duration such as 168h)")
	fs.Int64Var(&b.afterID, "after-id", 0, "with --batch: only messages after this database's message `ID` (what recall sync asks for)")
	fs.Float64Var(&b.tombstonesAfter, "tombstones-after", 0, "with --batch: only tombstones forgotten after `T` (Unix seconds)")
	fs.StringVar(&b.exclude, "exclude-machine", "", "with --batch: leave out the sessions of machine `ID` (the receiver's own)")
	fs.IntVar(&b.format, "batch-format", 0, "with --batch: the batch format `N` the receiver reads")
}

// exportBatch writes the database's batch to out ("-" is stdout, never a
// terminal: it is compressed).
func exportBatch(env *Env, o batchFlags, out string) error {
	if out == "" {
		return usageError("--batch needs -o FILE (or -o - for standard output)")
	}
	if out == "-" && env.StdoutIsTerminal {
		return usageError("a batch is compressed, not for a terminal: write it with -o FILE, or pipe it")
	}
	var since time.Time
	if o.since != "" {
		var err error
		if since, err = parseSinceTime(o.since, time.Now()); err != nil {
			return usageError("--since: %v", err)
		}
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := syncConfig()
	if err != nil {
		return err
	}
	var w io.Writer = env.Stdout
	if out != "-" {
		f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fmt.Errorf("create batch file: %w", err)
		}
		defer f.Close()
		w = f
	}
	s := syncer.New(st, cfg, nil)
	h, err := s.WriteBatch(env.Ctx, w, syncer.ExportOptions{After: store.Watermark{MessageID: o.afterID, TombstoneAt: o.tombstonesAfter},
		Since: since, Exclude: o.exclude, Format: o.format})
	if err != nil {
		return err
	}
	if out != "-" {
		fmt.Fprintf(env.Stderr, "recall export: batch of %s (messages up to #%d) written to %s\n", termtext.OneLine(h.MachineName), h.UpTo, out)
	}
	return nil
}

// parseSinceTime reads an RFC 3339 time, a date (2006-01-02) or a duration
// back from now (168h).
func parseSinceTime(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a time (2026-05-01, 2026-05-01T09:00:00Z, or 168h)", s)
}

// forgotten says what a batch's tombstones deleted here ("" for nothing).
func forgotten(rep store.ApplyReport) string {
	switch {
	case rep.ForgottenSessions > 0:
		return fmt.Sprintf("forgot %s (%s) as the other machine did", plural(rep.ForgottenSessions, "session", "sessions"), plural(rep.ForgottenMessages, "message", "messages"))
	case rep.ForgottenMessages > 0:
		return fmt.Sprintf("forgot %s as the other machine did", plural(rep.ForgottenMessages, "message", "messages"))
	}
	return ""
}

// openWritable opens (creating) the database for a command that writes
// into it; one open read-only (a Hermes database, a newer schema) is
// refused in one line saying what to do.
func (env *Env) openWritable(verb string) (*store.Store, error) {
	st, err := env.Open(store.Options{Create: true})
	if err != nil {
		return nil, err
	}
	if st.ReadOnly() {
		st.Close()
		return nil, fmt.Errorf("the database is read-only (a Hermes database or a newer schema); %s into a recall database with --db", verb)
	}
	return st, nil
}

// syncConfig is config.json's sync settings, with redact_at_import: what
// this machine redacts before storing, it redacts before sending too.
func syncConfig() (syncer.Config, error) {
	cfg, err := syncer.LoadConfig(os.Getenv)
	if err != nil {
		return cfg, err
	}
	cfg.RedactAtImport, err = redactAtImport(os.Getenv)
	return cfg, err
}

// openReceiving is openWritable for a command that stores what comes in
// (an import, a sync): with redact_at_import, redacted as it is stored.
func (env *Env) openReceiving(verb string) (*store.Store, error) {
	st, err := env.openWritable(verb)
	if err != nil {
		return nil, err
	}
	if err := applyRedactAtImport(st); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}
