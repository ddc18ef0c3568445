package cli

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
)

func runResume(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	printOnly := fs.Bool("print", false, "print the command (and its directory) instead of running it; works without the agent installed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("one SESSION_ID is required (a unique prefix will do), got %d", fs.NArg())
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	sess, err := resolveSession(env, secrets.Redacted(st), fs.Arg(0))
	if err != nil {
		return err
	}
	plan, err := recall.PlanResume(sess)
	switch {
	case err != nil && (!*printOnly || len(plan.Args) == 0):
		// No command at all (a session of a file, a web chat's export):
		// --print has nothing true to print either.
		return err
	case err != nil:
		plan.Notes = append(plan.Notes, err.Error())
	}
	for _, n := range plan.Notes {
		fmt.Fprintln(env.Stderr, "recall resume: "+field(n))
	}
	if *printOnly {
		line := shellJoin(plan.Args)
		if plan.Dir != "" {
			line = "cd " + shellQuote(plan.Dir) + " && " + line
		}
		fmt.Fprintln(env.Stdout, line)
		return nil
	}
	cmd, err := plan.Command()
	if err != nil {
		return err
	}
	st.Close() // the agent may run for hours: do not hold the database open
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf("%s exited with status %d", plan.Args[0], exit.ExitCode())
		}
		return fmt.Errorf("run %s: %w", plan.Args[0], err)
	}
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it: single quotes,
// or, when s holds bytes that must not reach a terminal raw (control
// characters, bidi controls, invalid UTF-8), "$(printf '...')" with octal
// escapes, so a printed command is both safe to show and exact when pasted
// into any POSIX shell (dash has no $'...').
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '=' || r == '@' || r == '+' || r == ',' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return s
	}
	if field(s) == s && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString(`"$(printf '`)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%':
			b.WriteString("%%")
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\'' || c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(`')"`)
	return b.String()
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
