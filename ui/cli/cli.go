// Package cli is recall's command line: one table of commands (commands.go),
// one file per subcommand, one way to parse their flags (args.go) and one
// boundary where errors and panics become a line on stderr and an exit code
// (run.go). main calls Run; every command that prints data has --json, and
// every command opens the store through Env.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

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

	// implicitTUI: no command was named (recall, recall docker, recall
	// --here): without a terminal the words are answered as `recall
	// search` (or `recall recent`) answers them. didYouMean names a
	// command the first word may be a slip of ("serach").
	implicitTUI bool
	didYouMean  string

	// flagsOnly runs a command only up to its flag parsing, which records
	// the flag set in seenFlags (see commandFlags).
	flagsOnly bool
	seenFlags *flagSet
	// table is the command table (commands), for the commands that list commands.
	table []*Command
}

// Open opens the database at env.DBPath. recall's own databases are created
// (the directory 0700, the files 0600) and migrated; foreign (Hermes)
// databases open read-only. A one-line notice (such as "newer schema,
// opened read-only") goes to stderr. Errors are the store's one-line
// *store.Error, which names the file and what to do.
func (env *Env) Open(opts store.Options) (*store.Store, error) {
	st, err := store.Open(env.Ctx, env.DBPath, opts)
	if err != nil {
		return nil, err
	}
	if n := st.Notice(); n != "" {
		fmt.Fprintln(env.Stderr, "recall: "+n)
	}
	return st, nil
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

// openForRead opens the database for a read-only command: recall's own
// default database is created (empty) on first use so that a fresh install
// answers with "no results" rather than an error; an explicit --db path must exist.
func (env *Env) openForRead() (*store.Store, error) {
	return env.Open(store.Options{Create: !env.DBExplicit})
}
