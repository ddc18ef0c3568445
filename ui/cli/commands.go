package cli

// Command is one subcommand.
type Command struct {
	Name string
	// Usage is the synopsis, e.g. "recall show SESSION_ID [--json]". It names
	// only flags the command has (TestUsageLinesMatchFlags); "[flags]" stands
	// for the list its help prints.
	Usage   string
	Summary string // one line for the command list
	// Query is true when the command's words are a search query: a
	// single-dash word that is not one of its flags (`-rollback`) is then
	// the query's NOT instead of an unknown flag.
	Query bool
	// Hidden commands (the completion helper) are left out of help and completion.
	Hidden bool
	// Run executes the command; args are what follows the command name. It
	// parses them with newFlags(c, env).Parse before doing anything else.
	Run func(env *Env, c *Command, args []string) error
}

// commands is every subcommand, in the order `recall help` lists them.
// Each command's Run lives in its own cmd_NAME.go.
var commands = []*Command{
	{Name: "tui", Usage: "recall [tui] [--here] [--theme auto|light|dark] [--query Q] [QUERY]", Query: true,
		Summary: "the interactive terminal UI (the default command)",
		Run:     runTUI},
	{Name: "pick", Usage: "recall pick [--resume] [--height N] [--query Q]",
		Summary: "choose a session in the TUI and print its id (or --resume: the command that resumes it), for shell key bindings",
		Run:     runPick},
	{Name: "search", Usage: "recall search [--json [--max-chars N] [--fields K,..]] [--show-secrets] [--sessions N | --limit N] [--no-summary] [--exclude-session ID] [--role R,..] [--here] [--schema] [QUERY | --session ID [--around N]]",
		Query:   true,
		Summary: "find the sessions that matter for a query, with evidence and summaries",
		Run:     runSearch},
	{Name: "mcp", Usage: "recall mcp [--print-config claude|codex|gemini|hermes] [--max-chars N] [--summary-timeout D] [--verbose]",
		Summary: "serve session_search to an agent over MCP (stdio); --print-config prints the agent's setup",
		Run:     runMCP},
	{Name: "messages", Usage: "recall messages [--role R,..] [--source S,..] [--exclude-source S,..] [--machine M,..] [--limit N] [--offset N] [--newest] [--json] [--show-secrets] QUERY",
		Query:   true,
		Summary: "message-level full-text hits (bm25-ranked), with highlighted snippets",
		Run:     runMessages},
	{Name: "recent", Usage: "recall recent [--limit N] [--source S,..] [--machine M,..] [--here] [--json] [--show-secrets]",
		Summary: "newest sessions: title, source, model, times, message count, preview (no model call)",
		Run:     runRecent},
	{Name: "show", Usage: "recall show SESSION_ID [--json] [--show-secrets]",
		Summary: "a whole session (id or unique id prefix)",
		Run:     runShow},
	{Name: "export", Usage: "recall export SESSION_ID [--format md|json|html] [-o FILE|-] [--show-secrets] | --batch [--since TIME] [--after-id N] [--tombstones-after T] [--exclude-machine ID] [--batch-format N] -o FILE|-",
		Summary: "export a session as markdown, JSON or one HTML page (secrets redacted), or (--batch) everything as a compressed sync batch for `import batch`",
		Run:     runExport},
	{Name: "forget", Usage: "recall forget SESSION_ID... | --match QUERY [--yes]",
		Summary: "delete sessions, or the messages matching a query, for good (asks first; a re-import does not bring them back)",
		Run:     runForget},
	{Name: "redact", Usage: "recall redact --all [--yes]",
		Summary: "rewrite the stored history with every API key, token and password replaced (for good; see redact_at_import)",
		Run:     runRedact},
	{Name: "resume", Usage: "recall resume SESSION_ID [--print]",
		Summary: "resume a session in the agent that wrote it, in its working directory",
		Run:     runResume},
	{Name: "import", Usage: "recall import [--json] [--lock-timeout D] SOURCE [PATH...] | all | jsonl FILE|- | batch FILE|-",
		Summary: importSummary(),
		Run:     runImport},
	{Name: "watch", Usage: "recall watch [--interval D] [--once] [--lock-timeout D] [SOURCE...]",
		Summary: "keep importing as agents write (every source found here, or the ones named); Ctrl-C stops",
		Run:     runWatch},
	{Name: "sync", Usage: "recall sync [--push | --both] [--json] [HOST...] | --state-for ID",
		Summary: "pull from each host (ssh HOST recall …; config.json's hosts when none is named) what it has that this machine lacks; --push sends the other way",
		Run:     runSync},
	{Name: "service", Usage: "recall service install|uninstall|status [--sync [--every D]]",
		Summary: "run `recall watch` as a user service (systemd on Linux, launchd on macOS), so nothing an agent deletes is missed; --sync adds a `recall sync` timer",
		Run:     runService},
	{Name: "stats", Usage: "recall stats [--json]",
		Summary: "schema version, counts, database and index sizes, SQLite version and backend",
		Run:     runStats},
	{Name: "bench", Usage: "recall bench [--reps N] [--json] QUERY...", Query: true,
		Summary: "time queries through the as-you-type search path (first results and final ranking)",
		Run:     runBench},
	{Name: "gen", Usage: "recall gen --messages N [--seed S] [--json]",
		Summary: "write a deterministic synthetic corpus (benchmarks, demos) into a new database",
		Run:     runGen},
	{Name: "migrate", Usage: "recall migrate --db PATH",
		Summary: "upgrade any state.db (e.g. a copy of a Hermes v1 database) to recall's schema, keeping every row",
		Run:     runMigrate},
	{Name: "demo", Usage: "recall demo [--query Q]",
		Summary: "try the terminal UI on an embedded demo history (temporary database, no network)",
		Run:     runDemo},
	{Name: "completion", Usage: "recall completion bash|zsh|fish",
		Summary: "print a shell completion script (commands, flags, sources, session ids)",
		Run:     runCompletion},
	{Name: "version", Usage: "recall version [--json]",
		Summary: "recall's version and the VCS revision it was built from",
		Run:     runVersion},
	{Name: "help", Usage: "recall help [COMMAND]",
		Summary: "the command list, or one command's usage and flags",
		Run:     runHelp},
	{Name: completeCommand, Usage: "recall " + completeCommand + " WORD... (used by the completion scripts)", Hidden: true,
		Summary: "print completion candidates for the words of a command line",
		Run:     runComplete},
}

// lookup returns the command called name in table. (The help, completion
// and version commands get the table through Env.table rather than naming
// the variable: the table holds them, so naming it would be an
// initialisation cycle.)
func lookup(table []*Command, name string) (*Command, bool) {
	for _, c := range table {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}
