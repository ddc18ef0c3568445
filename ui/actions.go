package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
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

// exportTo writes the session as markdown to path, readable by its owner
// only (transcripts are private). It never replaces a file unless
// overwrite: an existing file is reported back to the popup, which asks.
func (m *Model) exportTo(sessionID, path string, overwrite bool) tea.Cmd {
	ctx, backend, reveal := m.ctx, m.backend, m.detail.reveal
	return func() tea.Msg {
		res := exportResultMsg{sessionID: sessionID, path: path}
		sess, msgs, err := backend.Transcript(ctx, sessionID)
		if err != nil {
			res.err = err
			return res
		}
		sess, msgs = shownMessages(sess, msgs, reveal)
		if res.path, err = filepath.Abs(path); err != nil {
			res.err = err
			return res
		}
		var doc strings.Builder
		if err := exportMarkdown(&doc, sess, msgs); err != nil {
			res.err = err
			return res
		}
		switch err := writePrivate(res.path, doc.String(), overwrite); {
		case errors.Is(err, fs.ErrExist):
			res.exists = true
		case err != nil:
			res.err = err
		}
		return res
	}
}

// writePrivate writes text to path with mode 0600. Unless overwrite, an
// existing file is left alone and the error wraps fs.ErrExist; with
// overwrite the file is replaced whole (written beside it, then renamed), so
// it is 0600 even if the old one was not and is never seen half-written.
func writePrivate(path, text string, overwrite bool) error {
	if !overwrite {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".recall-export-*.md")
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// pager (o) opens the selected session in $PAGER (less by default),
// rendered as the detail pane renders it (glow's pager mode), not as raw
// markdown: headings, code blocks and lists styled, prose wrapped at a
// readable width; less gets -R for the colours and opens at the current hit.
func (m *Model) pager() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return nil
	}
	ctx, backend, md, reveal := m.ctx, m.backend, m.md, m.detail.reveal
	width := max(20, min(m.width-1, readableWidth))
	hitID, terms := m.pagerTarget()
	return func() tea.Msg {
		sess, msgs, err := backend.Transcript(ctx, it.SessionID)
		if err != nil {
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		sess, msgs = shownMessages(sess, msgs, reveal)
		var raw strings.Builder
		if err := exportMarkdown(&raw, sess, msgs); err != nil {
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		// Named after the session: less shows the file's name in its prompt.
		f, err := os.CreateTemp("", strings.TrimSuffix(recall.ExportFileName(sess), ".md")+"-*.txt")
		if err != nil {
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		lines := md.RenderLines(raw.String(), width)
		_, err = io.WriteString(f, strings.Join(lines, "\n")+"\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		cleanup := func() { os.Remove(f.Name()) }
		if err != nil {
			cleanup()
			return statusMsg{text: "pager: " + err.Error(), err: true}
		}
		cmd, err := pagerCommand(f.Name(), func(pager string) []string {
			return renderedPagerStart(pager, md, width, lines, sess, msgs, hitID, terms) // less opens at the current hit
		})
		if err != nil {
			cleanup()
			return statusMsg{text: err.Error(), err: true}
		}
		return execRequestMsg{what: "pager", cmd: cmd, cleanup: cleanup}
	}
}

// renderedPagerStart is less's arguments for the rendered transcript
// (lines): -R (its colours), -i (case-insensitive search, as the TUI's
// highlights), a search for every term (so less highlights them all, not one
// word), then a jump to the hit's first line showing a term, put on the
// screen's fourth line (-j4) below its message's heading: the search first,
// so that it cannot move past the hit. Without a hit, the search alone.
func renderedPagerStart(pager string, md *markdown, width int, lines []string, sess store.Session, msgs []store.Message, msgID int64, terms []hlTerm) []string {
	if filepath.Base(pager) != "less" {
		return nil
	}
	args := []string{"-R", "-i", "-j4"}
	if re := lessPattern(terms); re != "" {
		args = append(args, "+/"+re)
	}
	k := slices.IndexFunc(msgs, func(m store.Message) bool { return m.ID == msgID })
	if msgID == 0 || k < 0 {
		return args
	}
	var b strings.Builder
	if exportMarkdown(&b, sess, msgs[:k]) != nil {
		return args
	}
	at := len(md.RenderLines(b.String(), width))
	for at < len(lines) && !isHeading(lines[at]) {
		at++
	}
	hit := at
	for i := at + 1; i < len(lines) && !isHeading(lines[i]); i++ {
		if strings.ContainsRune(highlightTerms(ansi.Strip(lines[i]), terms), termtext.MarkStart) {
			hit = i
			break
		}
	}
	return append(args, fmt.Sprintf("+%dg", min(hit, len(lines)-1)+1))
}

// isHeading reports whether a rendered line is a message's "## " heading.
func isHeading(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(ansi.Strip(line), " "), "## ")
}

// lessPattern is a search for less that matches any of terms: each term's
// text with the regular expression characters escaped, joined with |, as
// less's regular expressions (POSIX extended, GNU or PCRE2) all read it.
func lessPattern(terms []hlTerm) string {
	var alts []string
	for _, t := range terms {
		text := termtext.OneLine(termtext.Sanitize(t.text))
		if text == "" || slices.Contains(alts, text) {
			continue
		}
		alts = append(alts, regexp.QuoteMeta(text))
	}
	return strings.Join(alts, "|")
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
		return tea.Batch(status, m.refresh())
	}
	return status
}

// yank (y) copies the summary when the panel is open, else the message at
// the reading position of the detail pane (the current hit after n/N), as
// the pane shows it: secrets redacted unless revealed (V).
func (m *Model) yank() tea.Cmd {
	var text, what string
	switch {
	case m.summary.open && m.summary.stream != nil:
		text, what = m.summary.stream.text(), "the summary"
	default:
		msg, i, ok := m.detail.currentMessage()
		if !ok && m.detail.loading && m.detail.sessionID != "" {
			// The key came while the selected session loads (right after
			// the list moved): it copies once the transcript is in.
			m.detail.yankPending = true
			return m.status.set("copying once the session has loaded…", false)
		}
		if !ok {
			return m.status.set("nothing to copy: no session is open", false)
		}
		// Copy what the pane shows: secrets redacted unless V revealed them.
		_, shown := shownMessages(store.Session{}, []store.Message{msg}, m.detail.reveal)
		if len(shown) != 1 {
			return m.status.set("nothing copied: the message could not be redacted", true)
		}
		msg = shown[0]
		text = msg.Content
		if strings.TrimSpace(text) == "" {
			text = msg.ToolCalls
		}
		what = fmt.Sprintf("message %d of %d (%s, %s)", i+1, len(m.detail.msgs), msg.Role, byteSize(len(text)))
	}
	text = termtext.Sanitize(text)
	if strings.TrimSpace(text) == "" {
		return m.status.set("nothing to copy: "+what+" is empty", false)
	}
	return m.copyCmd(text, what)
}

// yankResume (Y) copies the shell command that resumes the selected session.
func (m *Model) yankResume() tea.Cmd {
	it, ok := m.list.Selected()
	if !ok {
		return m.status.set("nothing to copy: no session selected", false)
	}
	if m.opts.ResumeLine == nil {
		return m.status.set("nothing to copy: no resume command here", false)
	}
	ctx, backend, clip, line := m.ctx, m.backend, m.opts.Clipboard, m.opts.ResumeLine
	return func() tea.Msg {
		sess, _, err := backend.Transcript(ctx, it.SessionID)
		cmd := ""
		if err == nil {
			cmd, err = line(sess)
		}
		if err != nil {
			return statusMsg{text: "copy resume command: " + err.Error(), err: true}
		}
		return copyNow(ctx, clip, cmd, "the resume command ("+cmd+")")
	}
}

// copyCmd copies text in a command and reports where it went.
func (m *Model) copyCmd(text, what string) tea.Cmd {
	ctx, clip := m.ctx, m.opts.Clipboard
	return func() tea.Msg { return copyNow(ctx, clip, text, what) }
}

func copyNow(ctx context.Context, clip Clipboard, text, what string) tea.Msg {
	where, err := clip.Copy(ctx, text)
	if err != nil {
		return statusMsg{text: "copy failed, nothing copied: " + err.Error(), err: true}
	}
	return statusMsg{text: "copied " + what + " to " + where}
}

// byteSize is n bytes for people: "812 B", "4.2 kB".
func byteSize(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f kB", float64(n)/1000)
}

// currentMessage is the message the reader is at: the current hit's
// message while that hit is on screen, else the message at the top of the
// pane; with its index.
func (d *detailView) currentMessage() (store.Message, int, bool) {
	if d.sessionID == "" || d.session.ID != d.sessionID || len(d.msgs) == 0 {
		return store.Message{}, 0, false
	}
	id := d.item.MatchMessageID
	if doc := &d.doc; len(doc.msgIDs) > 0 {
		top := d.view.offset
		k := doc.messageAt(top)
		if d.hit >= 0 && d.hit < len(d.targets) {
			if line := d.targets[d.hit]; line >= top && line < top+d.view.height {
				if k = d.targetMsg[d.hit]; k < 0 {
					k = doc.messageAt(line)
				}
			}
		}
		if k >= 0 && k < len(doc.msgIDs) {
			id = doc.msgIDs[k]
		}
	}
	for i, msg := range d.msgs {
		if msg.ID == id {
			return msg, i, true
		}
	}
	return d.msgs[0], 0, true
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
