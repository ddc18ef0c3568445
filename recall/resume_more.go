package recall

import "fmt"

// moreResume holds the sources imported from other agents' on-disk
// formats: the command line that resumes a session in the agent that wrote
// it, or nil when there is none (a web chat's export, an editor's chat
// panel, an agent without a per-session resume).
var moreResume = map[string]func(id string) []string{
	"crush":        func(id string) []string { return []string{"crush", "--session", id} },
	"chatgpt":      nil,
	"claude-ai":    nil,
	"cursor":       nil,
	"aider":        nil,
	"jsonl":        nil, // a file of messages (recall import jsonl) that named no agent
	"droid":        func(id string) []string { return []string{"droid", "--resume", id} },
	"amp":          func(id string) []string { return []string{"amp", "threads", "continue", id} },
	"goose":        func(id string) []string { return []string{"goose", "session", "--resume", "--session-id", id} },
	"cursor-agent": func(id string) []string { return []string{"cursor-agent", "--resume", id} },
	// Roo Code's CLI (apps/cli/src/index.ts: --session-id <session-id>
	// "Resume a specific task by session ID"), in the task's workspace; a
	// task of the VS Code extension reopens from its history view.
	"roo-code": func(id string) []string { return []string{"roo", "--session-id", id} },
	"zed":      nil, // an editor's agent panel: a thread reopens from its history
	// TRAE CLI keeps codex's resume subcommand (a fork of codex-rs; its
	// binary is traecli, docs.trae.cn "TRAE CLI 命令行参数").
	"trae-cli":     func(id string) []string { return []string{"traecli", "resume", id} },
	"windsurf":     nil, // never imported: its chats cannot be read
	"gemini-apps":  nil, // a Takeout export: the conversation is at gemini.google.com
	"copilot-chat": nil, // VS Code's chat view: a session reopens from its history
	// CodeBuddy Code's cli-reference.md: --resume "Resume a specific session
	// by ID", in the session's directory (its transcripts are filed by it).
	"codebuddy": func(id string) []string { return []string{"codebuddy", "--resume", id} },
	// Warp reopens a conversation from its conversation list; its CLI's
	// hidden `agent run --conversation ID` continues a cloud conversation
	// by its server id, not the local one recall has.
	"warp": nil,
	// dsh resumes a persisted session with --resume <session-id>, in the
	// session's cwd (it refuses another: apps/cli's README and TUI).
	"deepseek-harness": func(id string) []string { return []string{"dsh", "--resume", id} },
	// Devin CLI: --resume (-r) <id> (docs.devin.ai/cli), in the session's
	// working directory.
	"devin": func(id string) []string { return []string{"devin", "--resume", id} },
}

// moreResumeArgv is resumeArgv for the sources in moreResume; known is
// false for any other source.
func moreResumeArgv(source, id string) (argv []string, known bool) {
	fn, known := moreResume[source]
	if fn == nil {
		return nil, known
	}
	return fn(id), true
}

// noResume is the error for a session whose agent has no resume command.
func noResume(sess string, source string) error {
	return fmt.Errorf("%w: %s came from %s, which has no command to resume a session from a terminal: read it with recall show %s", ErrCannotResume, sess, source, sess)
}
