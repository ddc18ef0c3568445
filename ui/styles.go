package ui

import "github.com/charmbracelet/lipgloss"

// Styles is every lipgloss style of the TUI, in one place. Colours are
// 256-colour indexes that read on dark and light backgrounds alike; the
// markdown style is pinned separately (assets/styles) so nothing depends on
// background detection.
type Styles struct {
	Search struct {
		Prompt, Text, Placeholder, Cursor, Spinner lipgloss.Style
	}
	Chip struct {
		Active, Hint lipgloss.Style
	}
	List struct {
		Title, SelectedTitle, Bar, Meta, When, Snippet, Hit, Preview, Empty lipgloss.Style
	}
	Detail struct {
		Header, Role, UserRole, AssistantRole, ToolRole, Tool, Dim lipgloss.Style
	}
	Summary struct {
		Header, Label, Warn lipgloss.Style
	}
	Status struct {
		Bar, Index, Info, Error lipgloss.Style
	}
	Pane struct {
		Separator, FocusedSeparator lipgloss.Style
	}
	Help struct {
		Title, Body, Example lipgloss.Style
	}
}

// hitOn and hitOff bracket a highlighted match inside Glamour output: reverse
// video toggles only reverse, so the colours Glamour chose survive it.
const (
	hitOn  = "\x1b[7m"
	hitOff = "\x1b[27m"
)

// DefaultStyles returns the TUI's styles.
func DefaultStyles() *Styles {
	s := new(Styles)
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	s.Search.Prompt = lipgloss.NewStyle().Foreground(c("212")).Bold(true)
	s.Search.Text = lipgloss.NewStyle()
	s.Search.Placeholder = lipgloss.NewStyle().Foreground(c("241"))
	s.Search.Cursor = lipgloss.NewStyle().Reverse(true)
	s.Search.Spinner = lipgloss.NewStyle().Foreground(c("212"))

	s.Chip.Active = lipgloss.NewStyle().Foreground(c("230")).Background(c("62")).Padding(0, 1)
	s.Chip.Hint = lipgloss.NewStyle().Foreground(c("241"))

	s.List.Title = lipgloss.NewStyle().Bold(true)
	s.List.SelectedTitle = lipgloss.NewStyle().Bold(true).Foreground(c("212"))
	s.List.Bar = lipgloss.NewStyle().Foreground(c("212"))
	s.List.Meta = lipgloss.NewStyle().Foreground(c("109"))
	s.List.When = lipgloss.NewStyle().Foreground(c("243"))
	s.List.Snippet = lipgloss.NewStyle().Foreground(c("250"))
	s.List.Hit = lipgloss.NewStyle().Foreground(c("16")).Background(c("220")).Bold(true)
	s.List.Preview = lipgloss.NewStyle().Foreground(c("245")).Italic(true)
	s.List.Empty = lipgloss.NewStyle().Foreground(c("245"))

	s.Detail.Header = lipgloss.NewStyle().Bold(true).Foreground(c("230")).Background(c("237"))
	s.Detail.Role = lipgloss.NewStyle().Bold(true)
	s.Detail.UserRole = lipgloss.NewStyle().Bold(true).Foreground(c("75"))
	s.Detail.AssistantRole = lipgloss.NewStyle().Bold(true).Foreground(c("114"))
	s.Detail.ToolRole = lipgloss.NewStyle().Foreground(c("179"))
	s.Detail.Tool = lipgloss.NewStyle().Foreground(c("244"))
	s.Detail.Dim = lipgloss.NewStyle().Foreground(c("241"))

	s.Summary.Header = lipgloss.NewStyle().Bold(true).Foreground(c("230")).Background(c("62"))
	s.Summary.Label = lipgloss.NewStyle().Foreground(c("245")).Italic(true)
	s.Summary.Warn = lipgloss.NewStyle().Foreground(c("214"))

	s.Status.Bar = lipgloss.NewStyle().Foreground(c("245"))
	s.Status.Index = lipgloss.NewStyle().Foreground(c("109"))
	s.Status.Info = lipgloss.NewStyle().Foreground(c("114"))
	s.Status.Error = lipgloss.NewStyle().Foreground(c("203")).Bold(true)

	s.Pane.Separator = lipgloss.NewStyle().Foreground(c("238"))
	s.Pane.FocusedSeparator = lipgloss.NewStyle().Foreground(c("212"))

	s.Help.Title = lipgloss.NewStyle().Bold(true).Foreground(c("212"))
	s.Help.Body = lipgloss.NewStyle()
	s.Help.Example = lipgloss.NewStyle().Foreground(c("220"))
	return s
}
