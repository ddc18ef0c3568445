package cli

import (
	"fmt"
	"io"
)

func runHelp(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		printHelp(env.Stdout, env.table)
		return nil
	case 1:
		cmd, ok := lookup(env.table, fs.Arg(0))
		if !ok || cmd.Hidden {
			return usageError("unknown command %q (run 'recall help')", fs.Arg(0))
		}
		printCommandHelp(env.Stdout, cmd, commandFlags(cmd))
		return nil
	}
	return usageError("help takes one COMMAND, got %d words", fs.NArg())
}

// printHelp prints the command list.
func printHelp(w io.Writer, table []*Command) {
	fmt.Fprintln(w, "recall: search every conversation you had with your AI agents.")
	fmt.Fprintln(w, "\nusage: recall [--db PATH] [COMMAND] [flags]\n\ncommands:")
	for _, c := range table {
		if !c.Hidden {
			fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
		}
	}
	fmt.Fprintln(w, "\nWith no command, recall opens the terminal UI. 'recall demo' tries it on an embedded demo history.")
	fmt.Fprintln(w, "'recall help COMMAND' (or 'recall COMMAND -h') shows a command's flags; 'recall --version' the version.")
	fmt.Fprintln(w, "The database is --db, else $RECALL_DB, else $XDG_DATA_HOME/recall/state.db.")
}
