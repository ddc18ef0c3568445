package ui

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/recall-dev/recall/ui/quietterm"
)

// init runs after Bubble Tea's, whose terminal query quietterm turned off:
// the real TERM comes back, termenv's default output (made while TERM was
// "dumb") gets the colour profile of the real terminal, and lipgloss is told
// the background is dark rather than asking (the pinned style is dark, and
// no style of recall's adapts to the background).
func init() {
	quietterm.Restore()
	out := termenv.DefaultOutput()
	out.Profile = out.EnvColorProfile()
	lipgloss.SetHasDarkBackground(true)
}
