package ui

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"

	tea "github.com/charmbracelet/bubbletea"
)

// execRequestMsg asks the model to suspend and run an external program.
type execRequestMsg struct {
	what    string
	cmd     *exec.Cmd
	cleanup func()
}

// resume (r) suspends the TUI and resumes the selected session in its agent.
func (m *Model) resume() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	ctx, backend := m.ctx, m.backend
	return func() tea.Msg {
		sess, _, err := backend.Transcript(ctx, it.SessionID)
		if err != nil {
			return statusMsg{text: "resume: " + err.Error(), err: true}
		}
		cmd, err := recall.ResumeCommand(sess)
		if err != nil {
			return statusMsg{text: err.Error(), err: true}
		}
		return execRequestMsg{what: "resume", cmd: cmd}
	}
}

// export (e) writes the selected session as markdown into the working directory.
func (m *Model) export() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	ctx, backend := m.ctx, m.backend
	return func() tea.Msg {
		sess, msgs, err := backend.Transcript(ctx, it.SessionID)
		if err != nil {
			return statusMsg{text: "export: " + err.Error(), err: true}
		}
		name := recall.ExportFileName(sess)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return statusMsg{text: "export: " + err.Error(), err: true}
		}
		err = exportMarkdown(f, sess, msgs)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return statusMsg{text: "export: " + err.Error(), err: true}
		}
		abs, _ := filepath.Abs(name)
		return statusMsg{text: "exported to " + abs}
	}
}

// pager (o) opens the selected session as markdown in $PAGER (less by default).
func (m *Model) pager() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	ctx, backend := m.ctx, m.backend
	hitID, pattern := m.pagerTarget()
	return func() tea.Msg {
		sess, msgs, err := backend.Transcript(ctx, it.SessionID)
		if err != nil {
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		f, err := os.CreateTemp("", "recall-*.md")
		if err != nil {
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		err = exportMarkdown(f, sess, msgs)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		cleanup := func() { os.Remove(f.Name()) }
		if err != nil {
			cleanup()
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		cmd, err := pagerCommand(f.Name(), func(pager string) []string {
			return pagerStart(pager, sess, msgs, hitID, pattern) // less opens at the current hit
		})
		if err != nil {
			cleanup()
			return statusMsg{text: err.Error(), err: true}
		}
		return execRequestMsg{what: "pager", cmd: cmd, cleanup: cleanup}
	}
}

// pagerCommand builds $PAGER (split on spaces, as git does for simple
// values), else less, else more; start gives the arguments that open that
// pager at a position (nil for none).
func pagerCommand(file string, start func(pager string) []string) (*exec.Cmd, error) {
	argv := strings.Fields(os.Getenv("PAGER"))
	if len(argv) == 0 {
		argv = []string{"less"}
		if _, err := exec.LookPath("less"); err != nil {
			argv = []string{"more"}
		}
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("pager %q is not installed; set $PAGER", argv[0])
	}
	args := argv[1:]
	if start != nil {
		args = append(args, start(argv[0])...)
	}
	return exec.Command(path, append(args, file)...), nil
}

// runExec suspends the TUI while an external program runs.
func (m *Model) runExec(msg execRequestMsg) tea.Cmd {
	what, cleanup := msg.what, msg.cleanup
	return tea.ExecProcess(msg.cmd, func(err error) tea.Msg {
		if cleanup != nil {
			cleanup()
		}
		return execDoneMsg{what: what, err: err}
	})
}

// execDone reports how the program ended and refreshes the list, which the
// agent may have changed.
func (m *Model) execDone(msg execDoneMsg) tea.Cmd {
	var status tea.Cmd
	if msg.err != nil {
		status = m.status.set(msg.what+": "+msg.err.Error(), true)
	}
	if msg.what == "resume" {
		return tea.Batch(status, m.queryChanged())
	}
	return status
}

// yank (y) copies the summary when the panel is open, else the session id,
// to the clipboard with OSC 52 (works over ssh and in tmux with
// set-clipboard on).
func (m *Model) yank() tea.Cmd {
	text, what := "", ""
	switch {
	case m.summary.open && m.summary.stream != nil:
		text, what = m.summary.stream.text(), "summary"
	default:
		it, ok := m.list.Selected()
		if !ok {
			return nil
		}
		text, what = it.SessionID, "session id "+shortID(it.SessionID)
	}
	w := m.opts.Clipboard
	return func() tea.Msg {
		if err := writeOSC52(w, text); err != nil {
			return statusMsg{text: "copy: " + err.Error(), err: true}
		}
		return statusMsg{text: "copied " + what}
	}
}

// writeOSC52 writes the clipboard escape for text; inside tmux it is wrapped
// in tmux's passthrough so the outer terminal receives it.
func writeOSC52(w io.Writer, text string) error {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	if os.Getenv("TMUX") != "" {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	_, err := io.WriteString(w, seq)
	return err
}

// exportMarkdown is recall.ExportMarkdown sanitised: what the TUI writes is
// read in pagers and terminals, where stored escape sequences would run.
func exportMarkdown(w io.Writer, sess store.Session, msgs []store.Message) error {
	var b strings.Builder
	if err := recall.ExportMarkdown(&b, sess, msgs); err != nil {
		return err
	}
	_, err := io.WriteString(w, termtext.Sanitize(b.String()))
	return err
}
