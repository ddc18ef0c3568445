package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/ui/termtext"
)

// completeCommand is the hidden command the completion scripts call with
// the words of the command line; the candidates are worked out here, in Go,
// once for every shell.
const completeCommand = "__complete"

// filesDirective, printed alone, tells a completion script to complete
// file names itself.
const filesDirective = ":files"

// sessionCandidates is how many session ids are offered at most.
const sessionCandidates = 200

// candidate is one completion: the word and a short description.
type candidate struct{ word, desc string }

func runComplete(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	// Everything after the command name is the command line being completed
	// (flags included), so only "--" is read here: the scripts always pass it.
	if env.flagsOnly {
		return fs.Parse(nil)
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		args = []string{""}
	}
	cands, files := completions(env, args[:len(args)-1], args[len(args)-1])
	if files {
		fmt.Fprintln(env.Stdout, filesDirective)
		return nil
	}
	for _, cd := range cands {
		if cd.desc != "" {
			fmt.Fprintf(env.Stdout, "%s\t%s\n", cd.word, cd.desc)
		} else {
			fmt.Fprintln(env.Stdout, cd.word)
		}
	}
	return nil
}

// completions returns the candidates for cur, the word being typed, after
// the words done (the command line without "recall"), or files when the
// shell should complete a file name.
func completions(env *Env, done []string, cur string) (cands []candidate, files bool) {
	// Find the command and the positional words typed after it, skipping
	// --db PATH (global) and each flag's value.
	var cmd *Command
	var fs *flagSet
	npos := 0
	expectValue := "" // the flag whose value the next word is
	for _, w := range done {
		if expectValue == "db" {
			env.DBPath = w
		}
		if expectValue != "" {
			expectValue = ""
			continue
		}
		name, value, hasValue := splitFlag(w)
		if name == "db" && hasValue {
			env.DBPath = value
			continue
		}
		if name == "db" {
			expectValue = "db"
			continue
		}
		if name != "" {
			if cmd == nil { // a flag before any command is the TUI's
				cmd, _ = lookup(env.table, "tui")
				fs = commandFlags(cmd)
			}
			if f := fs.Lookup(name); f != nil && !isBool(f) && !hasValue {
				expectValue = name
			}
			continue
		}
		if cmd == nil {
			c, ok := lookup(env.table, w)
			if !ok || c.Hidden {
				return nil, false
			}
			cmd, fs = c, commandFlags(c)
			continue
		}
		npos++
	}
	if expectValue != "" {
		return valueCandidates(env, expectValue, cur)
	}
	if cmd == nil && strings.HasPrefix(cur, "-") {
		cmd, _ = lookup(env.table, "tui")
		fs = commandFlags(cmd)
		cands = append(cands, candidate{"--version", "print the version"})
	}
	if name, value, hasValue := splitFlag(cur); hasValue {
		// --flag=partial: complete the value, keeping the flag in front.
		vals, files := valueCandidates(env, name, value)
		for i := range vals {
			vals[i].word = cur[:len(cur)-len(value)] + vals[i].word
		}
		return vals, files
	}
	if strings.HasPrefix(cur, "-") {
		return matching(append(cands, flagCandidates(fs)...), cur), false
	}
	if cmd == nil {
		var out []candidate
		for _, c := range env.table {
			if !c.Hidden {
				out = append(out, candidate{c.Name, c.Summary})
			}
		}
		return matching(out, cur), false
	}
	switch cmd.Name {
	case "show", "export", "resume":
		if npos == 0 {
			return sessionIDCandidates(env, cur), false
		}
	case "import":
		if npos == 0 {
			return matching(sourceCandidates(true), cur), false
		}
		return nil, true
	case "watch":
		return matching(sourceCandidates(false), cur), false
	case "help":
		if npos == 0 {
			return completions(env, nil, cur)
		}
	case "completion":
		if npos == 0 {
			return matching([]candidate{{"bash", ""}, {"zsh", ""}, {"fish", ""}}, cur), false
		}
	}
	return nil, false
}

// flagCandidates are a command's flags and the global ones.
func flagCandidates(fs *flagSet) []candidate {
	var out []candidate
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			_, usage := flag.UnquoteUsage(f)
			out = append(out, candidate{flagLabel(f), usage})
		})
	}
	return append(out, candidate{"--db", "the database file"}, candidate{"--help", "show help"})
}

// valueCandidates completes the value of flag name.
func valueCandidates(env *Env, name, cur string) ([]candidate, bool) {
	switch name {
	case "db", "o":
		return nil, true
	case "format":
		return matching(exportFormats, cur), false
	case "role":
		var out []candidate
		for _, r := range sessionsearch.Roles {
			out = append(out, candidate{r, ""})
		}
		return matching(out, cur), false
	case "source", "exclude-source":
		return matching(sourceCandidates(false), cur), false
	case "exclude-session":
		return sessionIDCandidates(env, cur), false
	case "print-config":
		var out []candidate
		for _, a := range []string{"claude", "codex", "gemini", "hermes"} {
			out = append(out, candidate{a, ""})
		}
		return matching(out, cur), false
	}
	return nil, false
}

// sourceCandidates are the importers' names and aliases (and "all").
func sourceCandidates(withAll bool) []candidate {
	seen := map[string]bool{}
	var out []candidate
	for _, s := range importer.Sources() {
		seen[s.Name()] = true
		out = append(out, candidate{s.Name(), ""})
	}
	for _, a := range []string{"claude", "gemini", "qwen", "copilot"} {
		if s, ok := importer.Lookup(a); ok && !seen[a] {
			out = append(out, candidate{a, "= " + s.Name()})
		}
	}
	if withAll {
		out = append(out, candidate{"all", "every source found on this machine"},
			candidate{"batch", "a sync batch file another machine's recall export --batch wrote"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].word < out[j].word })
	return out
}

// sessionIDCandidates are the ids starting with cur in the database, newest
// first, described by their titles. The database is opened read-only and
// only if it exists: completing never creates or migrates one.
func sessionIDCandidates(env *Env, cur string) []candidate {
	if _, err := os.Stat(env.DBPath); err != nil {
		return nil
	}
	quiet := *env
	quiet.Stderr = io.Discard
	st, err := quiet.Open(store.Options{ReadOnly: true})
	if err != nil {
		return nil
	}
	defer st.Close()
	prefix := cur
	if un, ok := unescapeID(cur); ok {
		prefix = un
	}
	sessions, err := secrets.Redacted(st).SessionsByPrefix(env.Ctx, prefix, sessionCandidates)
	if err != nil {
		return nil
	}
	out := make([]candidate, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, candidate{displayID(s.ID), termtext.Clip(field(s.Title), 60)})
	}
	return out
}

// matching keeps the candidates that start with cur.
func matching(cands []candidate, cur string) []candidate {
	out := cands[:0:0]
	for _, c := range cands {
		if strings.HasPrefix(c.word, cur) {
			out = append(out, c)
		}
	}
	return out
}
