package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/store"
)

// statusTTL is how long a transient status message stays.
const statusTTL = 4 * time.Second

// statusLine is the bottom line: which index served the query and how fast,
// a transient message (errors, "copied"), and the short help.
type statusLine struct {
	styles *Styles
	search string // "trigram · 3 ms · 12 sessions"
	// importing is another process's import into this database, while it
	// runs: "importing claude-code 312/500 files · 41,200 msgs · ETA 0:42".
	importing string
	msg       string
	err       bool
	// about is the session a message speaks of ("hit 3 of 8"), "" for one
	// that holds whatever is selected ("pasted from …", "copied").
	about   string
	msgID   uint64
	msgTime time.Time
}

// setSearch records the last answer's index and timing.
func (s *statusLine) setSearch(idx store.Index, elapsed time.Duration, n int, browse bool) {
	noun := "sessions"
	if n == 1 {
		noun = "session"
	}
	if browse {
		s.search = fmt.Sprintf("%s · %d %s", idx, n, noun)
		return
	}
	s.search = fmt.Sprintf("%s · %.1f ms · %d %s", idx, float64(elapsed.Microseconds())/1000, n, noun)
}

// setImport records the running import's progress ("" when none runs).
func (s *statusLine) setImport(p store.ImportProgress, running bool) {
	if !running {
		s.importing = ""
		return
	}
	files, msgs := "files", "msgs"
	if p.FilesTotal == 1 {
		files = "file"
	}
	if p.Messages == 1 {
		msgs = "msg"
	}
	s.importing = fmt.Sprintf("importing %s %d/%d %s · %s %s", termtext.OneLine(termtext.Sanitize(p.Source)),
		p.FilesDone, p.FilesTotal, files, termtext.Thousands(int64(p.Messages)), msgs)
	if d, ok := p.ETA(); ok {
		s.importing += " · ETA " + termtext.Clock(d)
	}
}

// set shows a transient message and returns the command that expires it.
func (s *statusLine) set(text string, isErr bool) tea.Cmd {
	s.msgID++
	s.msg, s.err, s.about = termtext.OneLine(termtext.Sanitize(text)), isErr, ""
	id := s.msgID
	return tea.Tick(statusTTL, func(time.Time) tea.Msg { return statusExpireMsg{id: id} })
}

// setAbout shows a transient message about one session: it goes when
// another session is selected.
func (s *statusLine) setAbout(session, text string) tea.Cmd {
	cmd := s.set(text, false)
	s.about = session
	return cmd
}

// clear drops the transient message now: it spoke of a query or a session
// that is no longer on screen ("hit 3 of 8", "no match for …").
func (s *statusLine) clear() {
	s.msgID++
	s.msg, s.err, s.about = "", false, ""
}

func (s *statusLine) expire(id uint64) {
	if id == s.msgID {
		s.msg = ""
	}
}

// maxStatusLines is how tall a long message may make the status bar.
const maxStatusLines = 3

// view renders the status bar at width w: usually one line, the search
// answer, a message and the short help. A message never loses its point:
// when it does not fit beside the rest, it takes the line alone, and when
// it does not fit one line it wraps onto more (up to maxStatusLines; the
// body gives up its last lines for them, see trimLastLines).
func (s *statusLine) view(w int, h *help.Model, short []key.Binding) string {
	left := s.styles.Status.Index.Render(s.search)
	if s.importing != "" {
		// A narrow screen (80 columns) keeps the import's ETA rather than
		// the last answer's index and count.
		if termtext.Width(s.search)+2+termtext.Width(s.importing) > w {
			left = s.styles.Status.Info.Render(s.importing)
		} else {
			left += "  " + s.styles.Status.Info.Render(s.importing)
		}
	}
	if s.msg == "" {
		return s.withHelp(left, w, h, short)
	}
	st := s.styles.Status.Info
	if s.err {
		st = s.styles.Status.Error
	}
	if both := left + "  " + st.Render(s.msg); termtext.Width(both) <= w {
		return s.withHelp(both, w, h, short)
	}
	lines := termtext.Wrap(s.msg, w, "  ")
	if len(lines) > maxStatusLines {
		lines = lines[:maxStatusLines]
		last := lines[maxStatusLines-1]
		lines[maxStatusLines-1] = termtext.Truncate(last, termtext.Width(last)-1) + "…"
	}
	for i, l := range lines {
		lines[i] = fit(st.Render(l), w)
	}
	return strings.Join(lines, "\n")
}

// withHelp ends the line with the short help when there is room for it.
func (s *statusLine) withHelp(left string, w int, h *help.Model, short []key.Binding) string {
	lw := termtext.Width(left)
	right := ""
	if room := w - lw - 2; room > 10 {
		right = footerKeys(h, short, room)
	}
	gap := max(1, w-lw-termtext.Width(right))
	return fit(left+strings.Repeat(" ", gap)+right, w)
}

// footerKeys renders the short help in room cells as lazygit's footer does:
// the keys are taken most wanted first (KeyMap.ShortHelp's order) while they
// fit, one that does not is left out and a later, shorter one may take its
// place; none is cut and no "…" stands for the rest (F1, always first,
// lists them all).
func footerKeys(h *help.Model, keys []key.Binding, room int) string {
	h.Width = 0 // fitted here, key by key
	var shown []key.Binding
	for _, b := range keys {
		if !b.Enabled() {
			continue
		}
		try := append(shown[:len(shown):len(shown)], b)
		if termtext.Width(h.ShortHelpView(try)) <= room {
			shown = try
		}
	}
	return h.ShortHelpView(shown)
}
