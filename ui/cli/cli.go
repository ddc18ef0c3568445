// Package cli is recall's command line: one table of commands (commands.go),
// one file per subcommand. main calls Run; every command that prints
// data has --json, and every command opens the store through Env.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/store"
)

// Env is what a command runs with: the parsed global flags, the streams, and a
// way to open the store that the command decides when (and how) to call.
type Env struct {
	Ctx    context.Context
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// DBPath is --db, else $RECALL_DB, else recall's own database in the XDG data dir.
	DBPath string
	// DBExplicit is true when the path came from --db or $RECALL_DB.
	DBExplicit bool
	// StdoutIsTerminal is true when stdout is a terminal (progress bars, colour, streaming markdown).
	StdoutIsTerminal bool
}

// Open opens the database at env.DBPath. recall's own databases are created
// and migrated; foreign (Hermes) databases open read-only. A one-line notice
// (such as "newer schema, opened read-only") goes to stderr.
func (env *Env) Open(opts store.Options) (*store.Store, error) {
	if !opts.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(env.DBPath), 0o755); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
	}
	st, err := store.Open(env.Ctx, env.DBPath, opts)
	if err != nil {
		return nil, err
	}
	if n := st.Notice(); n != "" {
		fmt.Fprintln(env.Stderr, "recall: "+n)
	}
	return st, nil
}

// Command is one subcommand.
type Command struct {
	Name    string
	Usage   string // e.g. "recall messages [flags] QUERY"
	Summary string // one line for the command list
	// Run executes the command; args are what follows the command name.
	Run func(env *Env, c *Command, args []string) error
}

// ErrUsage marks an error whose message is a usage problem (exit code 2).
var ErrUsage = errors.New("usage")

// usageError returns a one-line usage error naming what was wrong.
func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, a...))
}

// newFlags returns a FlagSet for a command that reports errors instead of exiting.
func newFlags(c *Command, env *Env) *flag.FlagSet {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: %s\n", c.Usage)
		fs.PrintDefaults()
	}
	return fs
}

// DefaultDBPath is $RECALL_DB, else $XDG_DATA_HOME/recall/state.db, else ~/.local/share/recall/state.db.
func DefaultDBPath() (string, bool) {
	if p := os.Getenv("RECALL_DB"); p != "" {
		return p, true
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "recall", "state.db"), false
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".", "recall-state.db"), false
	}
	return filepath.Join(home, ".local", "share", "recall", "state.db"), false
}

// Run parses global flags and runs a subcommand. With no subcommand it opens the TUI.
// It returns the process exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, stdoutIsTerminal bool) int {
	env := &Env{Ctx: ctx, Stdin: stdin, Stdout: stdout, Stderr: stderr, StdoutIsTerminal: stdoutIsTerminal}
	env.DBPath, env.DBExplicit = DefaultDBPath()
	// Global flags may come before the subcommand: recall --db X search foo.
	rest, err := parseGlobal(env, args)
	if err != nil {
		fmt.Fprintln(stderr, "recall: "+err.Error())
		return 2
	}
	name := "tui"
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		printHelp(stdout)
		return 0
	}
	c, ok := lookup(name)
	if !ok {
		fmt.Fprintf(stderr, "recall: unknown command %q (run 'recall help')\n", name)
		return 2
	}
	// ...and after it: recall search --db X foo.
	rest, err = extractGlobal(env, rest)
	if err != nil {
		fmt.Fprintln(stderr, "recall: "+err.Error())
		return 2
	}
	if err := c.Run(env, c, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		// An error that carries its own exit status and no message (recall
		// pick cancelled) ends the process quietly with that status.
		var coded interface{ ExitCode() int }
		if errors.As(err, &coded) && err.Error() == "" {
			return coded.ExitCode()
		}
		msg := strings.TrimPrefix(err.Error(), ErrUsage.Error()+": ")
		fmt.Fprintf(stderr, "recall %s: %s\n", name, msg)
		if errors.Is(err, ErrUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// parseGlobal consumes leading global flags (--db PATH) and returns the rest.
func parseGlobal(env *Env, args []string) ([]string, error) {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--db" || a == "-db":
			if len(args) < 2 {
				return nil, errors.New("--db needs a path")
			}
			env.DBPath, env.DBExplicit = args[1], true
			args = args[2:]
		case strings.HasPrefix(a, "--db=") || strings.HasPrefix(a, "-db="):
			env.DBPath, env.DBExplicit = a[strings.IndexByte(a, '=')+1:], true
			args = args[1:]
		default:
			return args, nil
		}
	}
	return args, nil
}

// extractGlobal removes --db wherever it appears among a command's arguments
// (before a "--" terminator), so the global flag works in any position.
func extractGlobal(env *Env, args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...), nil
		case a == "--db" || a == "-db":
			if i+1 >= len(args) {
				return nil, errors.New("--db needs a path")
			}
			env.DBPath, env.DBExplicit = args[i+1], true
			i++
		case strings.HasPrefix(a, "--db=") || strings.HasPrefix(a, "-db="):
			env.DBPath, env.DBExplicit = a[strings.IndexByte(a, '=')+1:], true
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "recall: search every conversation you had with your AI agents.")
	fmt.Fprintln(w, "\nusage: recall [--db PATH] [COMMAND] [flags]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintln(w, "\nWith no command, recall opens the terminal UI. 'recall demo' tries it on an embedded demo history.")
	fmt.Fprintln(w, "The database is --db, else $RECALL_DB, else $XDG_DATA_HOME/recall/state.db.")
}

// openForRead opens the database for a read-only command: recall's own
// default database is created (empty) on first use so that a fresh install
// answers with "no results" rather than an error; an explicit --db path must exist.
func (env *Env) openForRead() (*store.Store, error) {
	return env.Open(store.Options{Create: !env.DBExplicit})
}
