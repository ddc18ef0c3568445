package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// flagSet is a command's flags. Every command makes one with newFlags and
// calls Parse first thing, so all of them share one set of rules:
//
//   - flags go anywhere among the arguments (`recall show ID --json`);
//   - -h, -help and --help print the command's help to stdout (exit 0);
//   - a bad flag or value is a one-line usage error (exit 2), printed once;
//   - "--" ends the flags, and a lone "-" is an argument (stdin);
//   - in a command whose words are a search query (Command.Query), a
//     single-dash word that is not one of its flags (`-rollback`) is the
//     query's NOT, not an unknown flag.
//
// Args, NArg and Arg return the words left after the flags, in order.
type flagSet struct {
	*flag.FlagSet
	c     *Command
	env   *Env
	words []string
}

// newFlags returns the flag set of command c.
func newFlags(c *Command, env *Env) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(c.Name, flag.ContinueOnError), c: c, env: env}
	// The flag package's own messages and usage dumps never reach the user:
	// Parse reports errors itself, in one line.
	fs.FlagSet.SetOutput(io.Discard)
	fs.FlagSet.Usage = func() {}
	if env.flagsOnly {
		env.seenFlags = fs
	}
	return fs
}

// errFlagsOnly stops a command at Parse when it was run only to learn its
// flags (commandFlags).
var errFlagsOnly = errors.New("flags only")

// helpWords ask for a command's help.
func isHelpWord(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

// Parse parses args by the rules above. It returns flag.ErrHelp after
// printing the help, and usage errors (ErrUsage) for anything malformed.
func (fs *flagSet) Parse(args []string) error {
	if fs.env.flagsOnly {
		return errFlagsOnly
	}
	fs.words = fs.words[:0]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			fs.words = append(fs.words, args[i+1:]...)
			break
		}
		if isHelpWord(a) {
			printCommandHelp(fs.env.Stdout, fs.c, fs)
			return flag.ErrHelp
		}
		name, value, hasValue := splitFlag(a)
		if name == "" {
			fs.words = append(fs.words, a)
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			if fs.c.Query && !strings.HasPrefix(a, "--") {
				fs.words = append(fs.words, a) // -rollback: the query's NOT
				continue
			}
			return usageError("unknown flag %s (see 'recall %s -h'; put -- before an argument that starts with -)", a, fs.c.Name)
		}
		if isBool(f) {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 >= len(args) {
				return usageError("%s needs a value (%s)", flagLabel(f), f.Usage)
			}
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			return usageError("invalid value %q for %s: want %s", value, flagLabel(f), valueKind(f))
		}
	}
	// Mark the set parsed (and let Parsed() say so) without re-reading args.
	return fs.FlagSet.Parse(nil)
}

// Args returns the words that are not flags.
func (fs *flagSet) Args() []string { return fs.words }

// NArg is len(Args()).
func (fs *flagSet) NArg() int { return len(fs.words) }

// Arg returns the i'th word, or "".
func (fs *flagSet) Arg(i int) string {
	if i < 0 || i >= len(fs.words) {
		return ""
	}
	return fs.words[i]
}

// parseArgs parses args with fs and returns the words that are not flags.
func parseArgs(fs *flagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return fs.words, nil
}

// splitFlag splits "-name", "--name" or "--name=value"; name is "" when a
// is not shaped like a flag ("-", "x", "---x").
func splitFlag(a string) (name, value string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", "", false
	}
	name = strings.TrimPrefix(a[1:], "-")
	if name == "" || name[0] == '-' || name[0] == '=' {
		return "", "", false
	}
	if i := strings.IndexByte(name, '='); i >= 0 {
		return name[:i], name[i+1:], true
	}
	return name, "", false
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagLabel is how help and errors spell a flag: -o for one letter, --name else.
func flagLabel(f *flag.Flag) string {
	if len(f.Name) == 1 {
		return "-" + f.Name
	}
	return "--" + f.Name
}

// valueKind names what a flag's value must look like, for an error.
func valueKind(f *flag.Flag) string {
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "int", "uint":
		return "a whole number"
	case "float":
		return "a number"
	case "duration":
		return "a duration such as 2s or 500ms"
	case "":
		return "true or false"
	default:
		return kind
	}
}

// commandFlags returns c's flags: it runs c only up to its Parse call (no
// database is opened, nothing is printed), so help, completion and the usage
// test all read the flags the command really has.
func commandFlags(c *Command) *flagSet {
	env := &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, flagsOnly: true}
	func() {
		defer func() { _ = recover() }() // a command that misbehaves here simply has no flags to show
		_ = c.Run(env, c, nil)
	}()
	return env.seenFlags
}

// printCommandHelp prints c's usage, summary and flags.
func printCommandHelp(w io.Writer, c *Command, fs *flagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.Usage, c.Summary)
	if fs != nil {
		var rows [][2]string
		fs.VisitAll(func(f *flag.Flag) {
			kind, usage := flag.UnquoteUsage(f)
			left := flagLabel(f)
			if kind != "" {
				left += " " + strings.ToUpper(kind)
			}
			if d := f.DefValue; d != "" && d != "false" && d != "0" {
				usage += fmt.Sprintf(" (default %s)", d)
			}
			rows = append(rows, [2]string{left, usage})
		})
		if len(rows) > 0 {
			fmt.Fprintln(w, "\nflags:")
			printRows(w, rows)
		}
	}
	fmt.Fprintln(w, "\nglobal flags:")
	printRows(w, [][2]string{
		{"--db PATH", "the database (default $RECALL_DB, else $XDG_DATA_HOME/recall/state.db)"},
		{"-h, --help", "show this help"},
	})
}

func printRows(w io.Writer, rows [][2]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
}
