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
