package cli

import (
	"flag"
	"strings"
)

// parseArgs parses a command's flags wherever they appear among its
// arguments (`recall messages docker --json`, `recall import claude DIR
// --json`) and returns the rest, in order.
// A single-dash word that is not one of the command's flags (`-rollback`,
// a query's NOT) is an argument; an unknown double-dash word
// (`--bogus`) is a usage error; "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			words = append(words, args[i+1:]...)
			break
		}
		name, hasValue := flagName(a)
		f := fs.Lookup(name)
		if name == "" || (f == nil && !strings.HasPrefix(a, "--")) {
			words = append(words, a)
			continue
		}
		if f == nil {
			flags = append(flags, a) // fs.Parse names it in its error
			continue
		}
		flags = append(flags, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	return words, nil
}

// flagName is the name in "-name", "--name" or "--name=value", or "" when a
// is not shaped like a flag.
func flagName(a string) (name string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", false
	}
	name = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		return name[:i], true
	}
	return name, false
}
