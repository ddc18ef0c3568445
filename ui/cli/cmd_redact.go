package cli

import (
	"errors"
	"fmt"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// runRedact is `recall redact --all`: every stored text rewritten with its
// secrets replaced by [REDACTED:rule], for good (rows, every full-text
// index, secure_delete, the WAL truncated), after a confirmation. With
// "redact_at_import": true in config.json, imports after it store none.
func runRedact(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	all := fs.Bool("all", false, "rewrite every stored message and session (the only scope there is)")
	yes := fs.Bool("yes", false, "do not ask for confirmation (scripts)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q (recall redact --all rewrites the whole history)", fs.Arg(0))
	}
	if !*all {
		return usageError("say --all: recall redact rewrites every stored text, for good")
	}
	if err := secrets.Load(); err != nil {
		return err
	}
	st, err := env.Open(store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if st.ReadOnly() {
		return errors.New("the database is read-only (a Hermes database or a newer schema): recall never alters it; redaction still applies to everything recall shows")
	}
	if !*yes {
		ok, err := confirm(env, "redact rewrites the history for good", "Rewrite every stored message and title of "+st.Path()+" with its API keys, tokens and passwords replaced by [REDACTED:rule]? This cannot be undone. [y/N] ")
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(env.Stderr, "recall: nothing rewritten")
			return nil
		}
	}
	var progress func(done, total int64)
	if isTerminal(env.Stderr) {
		progress = func(done, total int64) {
			fmt.Fprintf(env.Stderr, "\rrecall redact: %d of %d messages read", done, total)
		}
	}
	res, err := st.RedactStored(env.Ctx, secrets.AtRest{}, progress)
	if progress != nil {
		fmt.Fprint(env.Stderr, "\r\x1b[2K")
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "redacted %s and %s (%d messages read); every full-text index rewritten\n",
		plural(res.Messages, "message", "messages"), plural(res.Sessions, "session", "sessions"), res.Scanned)
	if res.Left > 0 {
		return fmt.Errorf("the database file still holds %s of the text that was replaced (another recall process may hold an old snapshot: close it and run recall redact --all again)", plural(res.Left, "copy", "copies"))
	}
	if res.Messages+res.Sessions > 0 {
		fmt.Fprintln(env.Stdout, "checked the database file: none of the replaced text is left in it")
	}
	return nil
}
