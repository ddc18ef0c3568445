package cli

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

func runResume(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	printOnly := fs.Bool("print", false, "print the command (and its directory) instead of running it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("one session ID is required (a unique prefix will do)")
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	sess, err := resolveSession(env, st, fs.Arg(0))
	if err != nil {
		return err
	}
	cmd, err := recall.ResumeCommand(sess)
	if err != nil {
		return err
	}
	if *printOnly {
		dir := cmd.Dir
		if dir == "" {
			dir = "."
		}
		fmt.Fprintf(env.Stdout, "cd %s && %s\n", shellQuote(dir), shellJoin(cmd.Args))
		return nil
	}
	st.Close() // the agent may run for hours: do not hold the database open
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf("%s exited with status %d", cmd.Args[0], exit.ExitCode())
		}
		return fmt.Errorf("run %s: %w", cmd.Args[0], err)
	}
	return nil
}

// resolveSession finds a session by id or unique id prefix.
func resolveSession(env *Env, st *store.Store, idOrPrefix string) (store.Session, error) {
	id, err := st.ResolveSessionID(env.Ctx, idOrPrefix)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return store.Session{}, fmt.Errorf("no session %q", idOrPrefix)
		}
		return store.Session{}, err
	}
	return st.Session(env.Ctx, id)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '=' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
