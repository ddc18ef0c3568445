package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

// pickCancelled is recall pick's exit status when no session was chosen
// (esc, ctrl-c): fzf's, so shell bindings treat both tools alike.
const pickCancelled = 130

func runPick(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	query := fs.String("query", "", "start with this query typed in the search box")
	resume := fs.Bool("resume", false, "print the command that resumes the session (cd DIR && AGENT --resume ID) instead of its id")
	height := fs.Int("height", 0, "draw inline in N lines under the prompt instead of the full screen")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 && *query == "" {
		*query = strings.Join(fs.Args(), " ")
	}
	if *height < 0 || *height > 0 && *height < 6 {
		return usageError("--height must be at least 6 lines, not %d", *height)
	}
	// The TUI draws on the terminal itself: stdout carries only the answer,
	// so $(recall pick) works.
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("recall pick needs a terminal: %w", err)
	}
	defer tty.Close()
	st, err := openWithNotice(tty, env.openForRead)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := openTUI(env, st, tuiOptions{query: *query, term: tty, pick: true, height: *height})
	if err != nil {
		return err
	}
	if id == "" {
		return exitStatus(pickCancelled)
	}
	answer := id
	if *resume {
		sess, err := secrets.Redacted(st).Session(env.Ctx, id)
		if err != nil {
			return err
		}
		if answer, err = resumeLine(sess); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintln(env.Stdout, answer)
	return err
}

// resumeLine is the command line that resumes sess (cd DIR && AGENT
// --resume ID), quoted as recall resume --print quotes it: what recall pick
// --resume prints and the TUI's Y copies. The agent need not be installed
// here (the line may be pasted elsewhere); a session no agent could resume
// is an error that says why.
func resumeLine(sess store.Session) (string, error) {
	plan, err := recall.PlanResume(sess)
	if err != nil {
		return "", err
	}
	line := shellJoin(plan.Args)
	if plan.Dir != "" {
		line = "cd " + shellQuote(plan.Dir) + " && " + line
	}
	return line, nil
}

// exitStatus ends a command with a status and no message.
type exitStatus int

func (e exitStatus) Error() string { return "" }

// ExitCode is the process exit status.
func (e exitStatus) ExitCode() int { return int(e) }
