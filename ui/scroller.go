package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// scroller is a vertical window over pre-rendered lines. Lines are fitted to
// the width when the content is set (in a command), so drawing a frame is
// only slicing and joining.
type scroller struct {
	lines  []string
	offset int
	width  int
	height int
}

// SetLines replaces the content. Lines must already be exactly width cells
// (fit), which the commands that render them ensure.
func (s *scroller) SetLines(lines []string) {
	s.lines = lines
	s.clamp()
}

// SetSize sets the window size; content fitted to another width must be set again.
func (s *scroller) SetSize(w, h int) {
	s.width, s.height = w, h
	s.clamp()
}

// ScrollBy moves the window by n lines (negative is up).
func (s *scroller) ScrollBy(n int) { s.offset += n; s.clamp() }

// Move scrolls for one of k's movement keys (a line, a page, top,
// bottom) and reports whether msg was one of them.
func (s *scroller) Move(msg tea.KeyMsg, k *KeyMap) bool {
	switch {
	case key.Matches(msg, k.Up):
		s.ScrollBy(-1)
	case key.Matches(msg, k.Down):
		s.ScrollBy(1)
	case key.Matches(msg, k.PageUp):
		s.ScrollBy(-max(1, s.height-1))
	case key.Matches(msg, k.PageDown):
		s.ScrollBy(max(1, s.height-1))
	case key.Matches(msg, k.Top):
		s.GotoTop()
	case key.Matches(msg, k.Bottom):
		s.GotoBottom()
	default:
		return false
	}
	return true
}

// GotoTop scrolls to the first line.
func (s *scroller) GotoTop() { s.offset = 0 }

// GotoBottom scrolls so the last line is at the bottom.
func (s *scroller) GotoBottom() { s.offset = len(s.lines); s.clamp() }

// AtBottom reports whether the last line is visible.
func (s *scroller) AtBottom() bool { return s.offset >= s.maxOffset() }

// ShowLine scrolls so line n is near the top (two lines of context above).
func (s *scroller) ShowLine(n int) { s.offset = n - 2; s.clamp() }

// Percent is how far down the content the window's bottom is, as less
// shows it; false when everything fits (there is nowhere to scroll).
func (s *scroller) Percent() (int, bool) {
	if len(s.lines) <= s.height || s.height <= 0 {
		return 0, false
	}
	return min(100, (s.offset+s.height)*100/len(s.lines)), true
}

func (s *scroller) maxOffset() int { return max(0, len(s.lines)-s.height) }

func (s *scroller) clamp() {
	s.offset = min(s.offset, s.maxOffset())
	s.offset = max(s.offset, 0)
}

// View returns exactly height lines of width cells.
func (s *scroller) View() string {
	end := min(len(s.lines), s.offset+s.height)
	vis := s.lines[min(s.offset, end):end]
	if len(vis) == s.height {
		return strings.Join(vis, "\n")
	}
	out := make([]string, s.height)
	copy(out, vis)
	blank := strings.Repeat(" ", max(s.width, 0))
	for i := len(vis); i < s.height; i++ {
		out[i] = blank
	}
	return strings.Join(out, "\n")
}
