package cli

// commands is every subcommand, in the order `recall help` lists them.
// Each command's Run lives in its own cmd_NAME.go.
var commands = []*Command{
	{Name: "tui", Usage: "recall [tui] [--query Q]",
		Summary: "the interactive terminal UI (the default command)",
		Run:     runTUI},
	{Name: "pick", Usage: "recall pick [--resume] [--height N] [--query Q]",
		Summary: "choose a session in the TUI and print its id (or --resume: the command that resumes it), for shell key bindings",
		Run:     runPick},
	{Name: "search", Usage: "recall search [--json [--max-chars N] [--fields K,..]] [--sessions N] [--no-summary] [--exclude-session ID] [--role R,..] [--schema] [QUERY]",
		Summary: "find the sessions that matter for a query, with evidence and summaries",
		Run:     runSearch},
	{Name: "mcp", Usage: "recall mcp [--print-config claude|codex|gemini|hermes] [--max-chars N] [--summary-timeout D] [--verbose]",
		Summary: "serve session_search to an agent over MCP (stdio); --print-config prints the agent's setup",
		Run:     runMCP},
	{Name: "messages", Usage: "recall messages [--role R,..] [--exclude-source S,..] [--source S,..] [--limit N] [--offset N] [--newest] [--json] QUERY",
		Summary: "message-level full-text hits (bm25-ranked), with highlighted snippets",
		Run:     runMessages},
	{Name: "recent", Usage: "recall recent [--limit N] [--source S,..] [--json]",
		Summary: "newest sessions: title, source, model, times, message count, preview (no model call)",
		Run:     runRecent},
	{Name: "show", Usage: "recall show [--json] SESSION_ID",
		Summary: "a whole session (id or unique id prefix)",
		Run:     runShow},
	{Name: "export", Usage: "recall export [--format md|json] [-o FILE] ID",
		Summary: "export a session as markdown or JSON",
		Run:     runExport},
	{Name: "resume", Usage: "recall resume [--print] ID",
		Summary: "resume a session in the agent that wrote it, in its working directory",
		Run:     runResume},
	{Name: "import", Usage: "recall import [--json] SOURCE [PATH...] | all | jsonl FILE|-",
		Summary: "import agent histories (hermes, claude, codex, gemini, jsonl; 'all' = every one found here)",
		Run:     runImport},
	{Name: "watch", Usage: "recall watch [--interval D] [--once] [SOURCE...]",
		Summary: "keep importing as agents write (every source found here, or the ones named); Ctrl-C stops",
		Run:     runWatch},
	{Name: "stats", Usage: "recall stats [--json]",
		Summary: "schema version, counts, database and index sizes, SQLite version and backend",
		Run:     runStats},
	{Name: "bench", Usage: "recall bench [--reps N] [--json] QUERY...",
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
}

// lookup returns the command called name.
func lookup(name string) (*Command, bool) {
	for _, c := range commands {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}
