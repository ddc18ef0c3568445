package cli

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/ui/mcpserver"
)

// `recall mcp` serves the session_search tool to an agent over stdio. The
// agent starts it and talks to it on stdin/stdout; logs go to stderr only.
// It opens the database the TUI opens (a Hermes file read-only) once and
// answers every call from that one store, and exits when the agent closes
// stdin.
func runMCP(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	printConfig := fs.String("print-config", "", "print the config snippet for one agent ("+joinAgents()+") with this binary's absolute path, and exit")
	maxChars := fs.Int("max-chars", sessionsearch.DefaultMaxChars, "answer budget in characters for calls that pass no max_chars")
	timeout := fs.Duration("summary-timeout", sessionsearch.DefaultSummaryTimeout, "longest a summarize: true call waits for the model before it answers with offline summaries")
	verbose := fs.Bool("verbose", false, "log every call to stderr")
	words, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError("%v", err)
	}
	if len(words) > 0 {
		return usageError("unexpected argument %q", words[0])
	}
	if *maxChars < sessionsearch.MinMaxChars || *maxChars > sessionsearch.MaxMaxChars {
		return usageError("--max-chars must be between %d and %d, not %d", sessionsearch.MinMaxChars, sessionsearch.MaxMaxChars, *maxChars)
	}
	if *timeout <= 0 {
		return usageError("--summary-timeout must be positive, not %s", *timeout)
	}
	if *printConfig != "" {
		return printMCPConfig(env, *printConfig)
	}

	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	defer warmInBackground(env, st)() // the first call then reads no cache
	st.FinishDeferredTrigram(env.Ctx) // rows a stopped import left out of the trigram index
	cfg, cfgErr := llm.Load(os.Getenv)
	if cfgErr != nil {
		fmt.Fprintf(env.Stderr, "recall mcp: %v; summaries will be offline\n", cfgErr)
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
	if f, ok := env.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintln(env.Stderr, "recall mcp speaks the Model Context Protocol on stdin/stdout for an agent to start; "+
			"to set one up, run: recall mcp --print-config claude|codex|gemini|hermes (Ctrl-D ends it)")
	}
	tool := sessionsearch.New(st, sessionsearch.Options{LLM: cfg, SummaryTimeout: *timeout})
	srv := mcpserver.New(tool, mcpserver.Options{MaxChars: *maxChars, Logger: logger})
	return mcpserver.Serve(env.Ctx, srv, env.Stdin, env.Stdout, logger)
}

// printMCPConfig prints the agent's snippet on stdout (so it can be
// redirected into the file) and where it goes on stderr.
func printMCPConfig(env *Env, agent string) error {
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	args := []string{"mcp"}
	if env.DBExplicit {
		// The agent starts recall with its own environment (Codex passes
		// only a few variables on), so the database is named on the command line.
		db, err := filepath.Abs(env.DBPath)
		if err != nil {
			return err
		}
		args = append(args, "--db", db)
	}
	snippet, where, err := mcpserver.ConfigSnippet(agent, bin, args)
	if err != nil {
		return usageError("--print-config: %v", err)
	}
	fmt.Fprint(env.Stdout, snippet)
	fmt.Fprintln(env.Stderr, "recall: "+where)
	return nil
}

func joinAgents() string { return strings.Join(mcpserver.Agents, "|") }
