package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/recall-dev/recall/ui/termtext"
)

// ErrUsage marks a usage problem (exit code 2): errors.Is(err, ErrUsage).
var ErrUsage = errors.New("usage")

// usageErr is a usage error. Its message is only what was wrong (no
// "usage:" prefix), so wrapping one in another never doubles a prefix.
type usageErr struct{ msg string }

func (e *usageErr) Error() string        { return e.msg }
func (e *usageErr) Is(target error) bool { return target == ErrUsage }

// usageError returns a one-line usage error naming what was wrong.
func usageError(format string, a ...any) error {
	return &usageErr{msg: fmt.Sprintf(format, a...)}
}

// panicError is a panic caught at the command boundary.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string {
	return fmt.Sprintf("internal error: %v (this is a bug in recall; RECALL_TRACE=1 prints where it happened)", e.value)
}

// Run parses global flags and runs a subcommand. With no subcommand it opens
// the TUI. It returns the process exit code: 0 on success (and for help), 2
// for a usage error, 130 when interrupted, 1 for any other failure. Every
// failure, a panic included, is one line on stderr.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, stdoutIsTerminal bool) int {
	env := &Env{Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, StdoutIsTerminal: stdoutIsTerminal, table: commands}
	env.DBPath, env.DBExplicit = DefaultDBPath()
	// Global flags may come before the command (recall --db X search foo)...
	rest, err := takeGlobal(env, args, true)
	if err != nil {
		return report(env, nil, err)
	}
	name := "tui"
	env.implicitTUI = true
	switch a := first(rest); {
	case len(rest) == 0:
	case a == "--version" || a == "-version":
		name, rest = "version", rest[1:]
	case isHelpWord(a):
		name, rest = "help", rest[1:]
	case strings.HasPrefix(a, "-") && a != "-":
		// A flag of the default command: recall --query docker.
	default:
		if _, ok := lookup(env.table, a); ok {
			name, rest, env.implicitTUI = a, rest[1:], false
		} else {
			// A word that is no command is the query, as rg's and fzf's
			// first word is: recall docker network (recall tui NAME
			// searches for a command's name). A word one slip away from a
			// command may be that command mistyped: said, not guessed.
			env.didYouMean = nearCommand(env.table, a)
		}
	}
	c, ok := lookup(env.table, name)
	if !ok {
		return report(env, nil, usageError("unknown command %q (run 'recall help')", name))
	}
	// ...and after it (recall search --db X foo).
	if rest, err = takeGlobal(env, rest, false); err != nil {
		return report(env, c, err)
	}
	defer exitAfterSignal(ctx, c.Name, stderr)()
	return report(env, c, runCommand(env, c, rest))
}

func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// runCommand runs c, turning a panic into an error: the one place recall
// recovers, so that no stack trace ever reaches a user.
func runCommand(env *Env, c *Command, args []string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{value: r, stack: debug.Stack()}
		}
	}()
	return c.Run(env, c, args)
}

// report prints err (once, on one line) and returns the exit code.
func report(env *Env, c *Command, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	// An error that carries its own exit status and no message (recall
	// pick cancelled) ends the process quietly with that status.
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) && err.Error() == "" {
		return coded.ExitCode()
	}
	prefix := "recall"
	if c != nil {
		prefix += " " + c.Name
	}
	fmt.Fprintf(env.Stderr, "%s: %s\n", prefix, errorLine(err, c))
	var p *panicError
	if errors.As(err, &p) && os.Getenv("RECALL_TRACE") != "" {
		env.Stderr.Write(p.stack)
	}
	switch {
	case errors.Is(err, ErrUsage):
		return 2
	case errors.Is(err, context.Canceled) && env.Ctx != nil && env.Ctx.Err() != nil:
		return 130
	}
	return 1
}

// errorLine is err as one line a person can act on: store failures in
// words (humanError), safe for a terminal (an error may quote a session id
// or content), on one line, and without a prefix said twice ("gen: gen:").
func errorLine(err error, c *Command) string {
	msg := termtext.OneLine(termtext.Sanitize(humanError(err)))
	parts := strings.Split(msg, ": ")
	out := parts[:0]
	for i, p := range parts {
		if (i > 0 && p == parts[i-1]) || (len(out) == 0 && c != nil && p == c.Name && i+1 < len(parts)) {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ": ")
}

// takeGlobal removes the global --db flag from args and sets env.DBPath. With
// leading it stops at the first other word (the command name); otherwise it
// takes --db anywhere before a "--" terminator.
func takeGlobal(env *Env, args []string, leading bool) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := splitFlag(a)
		switch {
		case a == "--":
			return append(out, args[i:]...), nil
		case name == "db" && hasValue:
			env.DBPath, env.DBExplicit = value, true
		case name == "db":
			if i+1 >= len(args) {
				return nil, usageError("--db needs a PATH")
			}
			env.DBPath, env.DBExplicit = args[i+1], true
			i++
		case leading:
			return append(out, args[i:]...), nil
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

// nearCommand is the command whose name word is one edit (a letter
// dropped, added, changed or two swapped) away from, "" for none; short
// words are left alone (they are queries: "go", "tui" is a command).
func nearCommand(table []*Command, word string) string {
	if len(word) < 4 {
		return ""
	}
	for _, c := range table {
		if !c.Hidden && oneEdit(strings.ToLower(word), c.Name) {
			return c.Name
		}
	}
	return ""
}

// oneEdit reports whether a and b differ by exactly one insertion,
// deletion, substitution or transposition of adjacent letters.
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	switch len(rb) - len(ra) {
	case 0:
		diff := []int{}
		for i := range ra {
			if ra[i] != rb[i] {
				diff = append(diff, i)
			}
		}
		return len(diff) == 1 || len(diff) == 2 && diff[1] == diff[0]+1 && ra[diff[0]] == rb[diff[1]] && ra[diff[1]] == rb[diff[0]]
	case 1:
		i := 0
		for i < len(ra) && ra[i] == rb[i] {
			i++
		}
		return string(ra[i:]) == string(rb[i+1:])
	}
	return false
}
