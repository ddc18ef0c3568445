package ui

import (
	"fmt"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
)

// statusTTL is how long a transient status message stays.
const statusTTL = 4 * time.Second

// statusLine is the bottom line: which index served the query and how fast,
// a transient message (errors, "copied"), and the short help.
type statusLine struct {
	styles  *Styles
	search  string // "trigram · 3 ms · 12 sessions"
	msg     string
	err     bool
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

// set shows a transient message and returns the command that expires it.
func (s *statusLine) set(text string, isErr bool) tea.Cmd {
	s.msgID++
	s.msg, s.err = termtext.OneLine(termtext.Sanitize(text)), isErr
	id := s.msgID
	return tea.Tick(statusTTL, func(time.Time) tea.Msg { return statusExpireMsg{id: id} })
}

func (s *statusLine) expire(id uint64) {
	if id == s.msgID {
		s.msg = ""
	}
}

// view renders the status line at width w.
func (s *statusLine) view(w int, h *help.Model, short []key.Binding) string {
	left := s.styles.Status.Index.Render(s.search)
	if s.msg != "" {
		st := s.styles.Status.Info
		if s.err {
			st = s.styles.Status.Error
		}
		left += "  " + st.Render(s.msg)
	}
	lw := ansi.StringWidth(left)
	right := ""
	if room := w - lw - 2; room > 10 {
		h.Width = room
		right = h.ShortHelpView(short)
	}
	gap := max(1, w-lw-ansi.StringWidth(right))
	return fit(left+fmt.Sprintf("%*s", gap, "")+right, w)
}
