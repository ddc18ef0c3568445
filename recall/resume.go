package recall

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/recall-dev/recall/store"
)

// ErrNoAgent is returned by ResumeCommand when the agent that wrote a
// session is not installed (or recall does not know how to resume it).
var ErrNoAgent = errors.New("agent not available")

// resumeArgv maps a session's source to the command line that resumes it in
// the agent that wrote it. Hermes' own sources (cli, telegram, discord, ...)
// resume in hermes.
func resumeArgv(sess store.Session) []string {
	id := nativeID(sess)
	switch sess.Source {
	case "claude-code", "claude":
		return []string{"claude", "--resume", id}
	case "codex":
		return []string{"codex", "resume", id}
	case "gemini-cli", "gemini":
		return []string{"gemini", "--resume", id}
	case "opencode":
		return []string{"opencode", "--session", id}
	}
	return []string{"hermes", "--resume", id}
}

// nativeID strips a "source:" prefix an importer may have put on the id.
func nativeID(sess store.Session) string {
	if p := sess.Source + ":"; strings.HasPrefix(sess.ID, p) {
		return sess.ID[len(p):]
	}
	return sess.ID
}

// ResumeCommand returns the command that resumes sess in its agent, in the
// session's working directory when that still exists. It wraps ErrNoAgent,
// naming the missing program, when the agent is not on $PATH.
func ResumeCommand(sess store.Session) (*exec.Cmd, error) {
	argv := resumeArgv(sess)
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("resume %s session: %q is not installed (%w); run: %s",
			sess.Source, argv[0], ErrNoAgent, strings.Join(argv, " "))
	}
	cmd := exec.Command(path, argv[1:]...)
	if sess.Cwd != "" {
		if fi, err := os.Stat(sess.Cwd); err == nil && fi.IsDir() {
			cmd.Dir = sess.Cwd
		}
	}
	return cmd, nil
}
