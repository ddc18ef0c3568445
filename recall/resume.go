package recall

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/recall-dev/recall/recall/syncer"
	"github.com/recall-dev/recall/store"
)

// ErrNoAgent is returned by ResumeCommand when the agent that wrote a
// session is not installed (or recall does not know how to resume it).
var ErrNoAgent = errors.New("agent not available")

// ErrCannotResume is returned by PlanResume when the agent could not find
// the session even if it were run (the error says why and what to do).
var ErrCannotResume = errors.New("cannot resume")

// Resume is how to reopen a session in the agent that wrote it.
type Resume struct {
	// Args is the command line; Args[0] is the agent's program name.
	Args []string
	// Dir is the directory to run it in: the session's working directory,
	// or "" (the current one) when the session has none or it is gone.
	Dir string
	// Notes are what the person should be told before the agent starts:
	// that a sub-agent run is resumed through its parent, that the
	// session's directory no longer exists.
	Notes []string
}

// resumeArgv maps a session's source to the command line that resumes id in
// the agent that wrote it. Hermes' own sources (cli, telegram, discord, ...)
// resume in hermes.
func resumeArgv(source, id string) []string {
	if argv, ok := moreResumeArgv(source, id); ok {
		return argv
	}
	switch source {
	case "claude-code", "claude":
		return []string{"claude", "--resume", id}
	case "codex":
		return []string{"codex", "resume", id}
	case "gemini-cli", "gemini":
		return []string{"gemini", "--resume", id}
	case "opencode":
		return []string{"opencode", "--session", id}
	case "kilo":
		return []string{"kilo", "--session", id}
	case "pi", "omp":
		// A branch (<id>@<entry>) lives in its session's file: Pi reopens
		// the file, where /tree switches to the branch.
		id, _, _ = strings.Cut(id, "@")
		return []string{source, "--session", id}
	case "continue-cli":
		// cn resumes only its last session (--resume); a chosen one is
		// continued as a fork of it.
		return []string{"cn", "--fork", id}
	case "qwen-code", "qwen":
		return []string{"qwen", "--resume", id} // qwen --help: -r, --resume  Resume a specific session by its ID
	case "copilot-cli", "copilot":
		return []string{"copilot", "--resume=" + id} // copilot --help: -r, --resume [<value>]; the form copilot itself prints at exit
	case "cline":
		return []string{"cline", "--id", id} // cline --help: --id <session-id>  Resume an existing session by ID
	}
	return []string{"hermes", "--resume", id}
}

// nativeID strips a "source:" prefix an importer may have put on id.
func nativeID(source, id string) string {
	if p := source + ":"; strings.HasPrefix(id, p) {
		return id[len(p):]
	}
	return id
}

func isClaude(source string) bool { return source == "claude-code" || source == "claude" }

// subAgentParents are the sources whose sub-agent runs recall imports as
// child sessions (marked _delegate_from) under ids the agent does not know,
// by the agent's name.
var subAgentParents = map[string]string{"qwen-code": "Qwen Code", "copilot-cli": "Copilot CLI", "cline": "Cline", "codebuddy": "CodeBuddy Code"}

// isQwen: Qwen Code, like Claude Code, keeps sessions in a folder named
// after the directory they ran in (projects/<sanitized cwd>/chats).
func isQwen(source string) bool { return source == "qwen-code" || source == "qwen" }

func agentName(source string) string {
	if isQwen(source) {
		return "Qwen Code"
	}
	return "Claude Code"
}

// PlanResume works out how to resume sess without running anything (the
// agent need not be installed: `recall resume --print` shows the plan).
//
// A Claude Code sub-agent run has no id of its own that Claude knows (recall
// names it <parent>-agent-<id>): the parent session, which holds the
// sub-agent's result, is resumed instead, and a note says so. A working
// directory that no longer exists is said in a note and the agent runs in
// the current directory, except for Claude Code, which finds a session by
// the directory it ran in: that is refused with ErrCannotResume and what to
// do instead (and the plan, whose Dir is that directory, for a caller that
// only prints it).
func PlanResume(sess store.Session) (Resume, error) {
	var r Resume
	// The agent knows the session by its own id, not the one recall
	// stores it under when another source's session had that id first.
	own := sess.NativeID
	if own == "" {
		own = store.OwnID(sess.ID, sess.Source)
	}
	id := nativeID(sess.Source, own)
	if isClaude(sess.Source) && sess.ParentID != "" {
		parent := nativeID(sess.Source, store.OwnID(sess.ParentID, sess.Source))
		r.Notes = append(r.Notes, fmt.Sprintf("%s is a Claude Code sub-agent run, which Claude cannot resume on its own: resuming its parent session %s", sess.ID, parent))
		id = parent
	}
	if name, ok := subAgentParents[sess.Source]; ok && sess.ParentID != "" && strings.Contains(sess.ModelConfig, "_delegate_from") {
		// A forked session (Qwen's parent_session) is a session of its
		// own; a sub-agent run, whose id recall made, is not.
		parent := nativeID(sess.Source, store.OwnID(sess.ParentID, sess.Source))
		r.Notes = append(r.Notes, fmt.Sprintf("%s is a %s sub-agent run, which it cannot resume on its own: resuming its parent session %s", sess.ID, name, parent))
		id = parent
	}
	r.Args = resumeArgv(sess.Source, id)
	if fn, ok := sessionResume[sess.Source]; ok {
		r.Args = fn(sess) // the command needs more of the session than its id
	}
	if len(r.Args) == 0 {
		return r, noResume(sess.ID, sess.Source)
	}
	if sess.Machine != "" {
		return remoteResume(sess, r), nil
	}
	if sess.Cwd == "" {
		return r, nil
	}
	fi, err := os.Stat(sess.Cwd)
	switch {
	case err == nil && fi.IsDir():
		r.Dir = sess.Cwd
	case isClaude(sess.Source) || isQwen(sess.Source):
		r.Dir = sess.Cwd // the only directory it would work in, once it exists again
		return r, fmt.Errorf("%w: %s finds a session by the directory it ran in, and %s no longer exists: recreate it (mkdir -p %s) and run again",
			ErrCannotResume, agentName(sess.Source), sess.Cwd, sess.Cwd)
	case err == nil:
		r.Notes = append(r.Notes, fmt.Sprintf("the session's working directory %s is not a directory: running in the current directory", sess.Cwd))
	default:
		r.Notes = append(r.Notes, fmt.Sprintf("the session's working directory %s no longer exists: running in the current directory", sess.Cwd))
	}
	return r, nil
}

// Command returns r as a command to run, or an error wrapping ErrNoAgent,
// naming the missing program and the command line, when the agent is not on
// $PATH.
func (r Resume) Command() (*exec.Cmd, error) {
	path, err := exec.LookPath(r.Args[0])
	if err != nil {
		return nil, fmt.Errorf("%q is not installed (%w); the command would be: %s", r.Args[0], ErrNoAgent, strings.Join(r.Args, " "))
	}
	cmd := exec.Command(path, r.Args[1:]...)
	cmd.Dir = r.Dir
	return cmd, nil
}

// ResumeCommand returns the command that resumes sess in its agent (see
// PlanResume, whose notes it drops), in the session's working directory
// when that still exists.
func ResumeCommand(sess store.Session) (*exec.Cmd, error) {
	r, err := PlanResume(sess)
	if err != nil {
		return nil, err
	}
	return r.Command()
}

// remoteResume runs r on the machine sess came from (recall sync): `ssh -t
// HOST 'cd CWD && <agent's resume command>'`, through the same transport as
// sync ($RECALL_SSH), so the agent runs where its files are.
func remoteResume(sess store.Session, r Resume) Resume {
	host := sess.Host
	if host == "" {
		host = sess.Machine
	}
	line := syncer.Quote(r.Args...)
	if sess.Cwd != "" {
		line = "cd " + syncer.Quote(sess.Cwd) + " && " + line
	}
	out := Resume{Notes: append(r.Notes, fmt.Sprintf("the session ran on %s: it is resumed there, over ssh", host))}
	out.Args = append(append(syncer.SSHCommand(os.Getenv), "-t", "--", host), line)
	return out
}
