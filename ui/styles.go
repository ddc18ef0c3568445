package ui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

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
	// Hit marks a query match everywhere it is shown (list snippets,
	// transcript prose and code, summaries, in-pane search); HitCurrent is
	// the match n/N moved to, which must stand out from the rest.
	Hit, HitCurrent lipgloss.Style
	List            struct {
		Title, SelectedTitle, Bar, Meta, When, Snippet, Preview, Empty, Counter lipgloss.Style
		Header, FocusedHeader                                                   lipgloss.Style
	}
	Detail struct {
		Header, FocusedHeader, Role, UserRole, AssistantRole, ToolRole, Tool, Dim, Scroll lipgloss.Style
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
	// Popup frames the boxed dialogs (export, help).
	Popup struct {
		Border, Title lipgloss.Style
	}
	// Keys styles the key help (status line and F1 screen).
	Keys help.Styles
}

// DefaultStyles returns the TUI's styles.
func DefaultStyles() *Styles { return newStyles(false) }

// LightStyles returns the styles for a light terminal background (--theme
// light, or $COLORFGBG saying so): the greys that are pale on black are
// darkened, the title bars made light.
func LightStyles() *Styles {
	s := newStyles(false)
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	s.List.Snippet = s.List.Snippet.Foreground(c("238"))
	s.List.Header = s.List.Header.Foreground(c("236")).Background(c("252"))
	s.Detail.Header = s.Detail.Header.Foreground(c("236")).Background(c("252"))
	s.Detail.Scroll = s.Detail.Scroll.Foreground(c("240")).Background(c("252"))
	s.Detail.Tool = s.Detail.Tool.Foreground(c("240"))
	s.Pane.Separator = s.Pane.Separator.Foreground(c("250"))
	s.Detail.ToolRole = s.Detail.ToolRole.Foreground(c("130"))
	return s
}

// MonochromeStyles returns the styles for NO_COLOR (https://no-color.org):
// no colour at all, so whatever colour carried (a hit, the selection, a
// header) is carried by reverse video, bold and faint instead, as fzf's bw
// theme does. No underline: lipgloss underlines rune by rune, an escape
// sequence per character.
func MonochromeStyles() *Styles { return newStyles(true) }

func newStyles(mono bool) *Styles {
	s := new(Styles)
	c := func(s string) lipgloss.TerminalColor {
		if mono {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(s)
	}
	s.Hit = lipgloss.NewStyle().Foreground(c("16")).Background(c("220")).Bold(true).Reverse(mono)
	s.HitCurrent = lipgloss.NewStyle().Foreground(c("16")).Background(c("208")).Bold(true).Underline(true).Reverse(mono)

	s.Search.Prompt = lipgloss.NewStyle().Foreground(c("212")).Bold(true)
	s.Search.Text = lipgloss.NewStyle()
	s.Search.Placeholder = lipgloss.NewStyle().Foreground(c("241")).Faint(mono)
	s.Search.Cursor = lipgloss.NewStyle().Reverse(true)
	s.Search.Spinner = lipgloss.NewStyle().Foreground(c("212"))

	s.Chip.Active = lipgloss.NewStyle().Foreground(c("230")).Background(c("62")).Reverse(mono).Padding(0, 1)
	s.Chip.Hint = lipgloss.NewStyle().Foreground(c("241")).Faint(mono)

	s.List.Title = lipgloss.NewStyle().Bold(true)
	s.List.SelectedTitle = lipgloss.NewStyle().Bold(true).Foreground(c("212")).Reverse(mono)
	s.List.Bar = lipgloss.NewStyle().Foreground(c("212"))
	s.List.Meta = lipgloss.NewStyle().Foreground(c("109"))
	s.List.When = lipgloss.NewStyle().Foreground(c("243")).Faint(mono)
	s.List.Snippet = lipgloss.NewStyle().Foreground(c("250"))
	s.List.Counter = lipgloss.NewStyle().Foreground(c("243")).Faint(mono)
	// A pane's title bar: grey, and the accent colour while the pane has
	// focus; without colour, plain bold and reverse video.
	s.List.Header = lipgloss.NewStyle().Bold(true).Foreground(c("250")).Background(c("237"))
	s.List.FocusedHeader = lipgloss.NewStyle().Bold(true).Foreground(c("230")).Background(c("62")).Reverse(mono)
	s.List.Preview = lipgloss.NewStyle().Foreground(c("245")).Italic(true)
	s.List.Empty = lipgloss.NewStyle().Foreground(c("245")).Faint(mono)

	s.Detail.Header = lipgloss.NewStyle().Bold(true).Foreground(c("250")).Background(c("237"))
	s.Detail.FocusedHeader = lipgloss.NewStyle().Bold(true).Foreground(c("230")).Background(c("62")).Reverse(mono)
	s.Detail.Scroll = lipgloss.NewStyle().Foreground(c("245")).Background(c("237")).Faint(mono)
	s.Detail.Role = lipgloss.NewStyle().Bold(true)
	s.Detail.UserRole = lipgloss.NewStyle().Bold(true).Foreground(c("75"))
	s.Detail.AssistantRole = lipgloss.NewStyle().Bold(true).Foreground(c("114"))
	s.Detail.ToolRole = lipgloss.NewStyle().Foreground(c("179"))
	s.Detail.Tool = lipgloss.NewStyle().Foreground(c("244")).Faint(mono)
	s.Detail.Dim = lipgloss.NewStyle().Foreground(c("241")).Faint(mono)

	s.Summary.Header = lipgloss.NewStyle().Bold(true).Foreground(c("230")).Background(c("62")).Reverse(mono)
	s.Summary.Label = lipgloss.NewStyle().Foreground(c("245")).Italic(true)
	s.Summary.Warn = lipgloss.NewStyle().Foreground(c("214")).Bold(mono)

	s.Status.Bar = lipgloss.NewStyle().Foreground(c("245")).Faint(mono)
	s.Status.Index = lipgloss.NewStyle().Foreground(c("109"))
	s.Status.Info = lipgloss.NewStyle().Foreground(c("114"))
	s.Status.Error = lipgloss.NewStyle().Foreground(c("203")).Bold(true)

	s.Pane.Separator = lipgloss.NewStyle().Foreground(c("238")).Faint(mono)
	s.Pane.FocusedSeparator = lipgloss.NewStyle().Foreground(c("212")).Bold(mono)

	s.Help.Title = lipgloss.NewStyle().Bold(true).Foreground(c("212"))
	s.Help.Body = lipgloss.NewStyle()
	s.Help.Example = lipgloss.NewStyle().Foreground(c("220")).Bold(mono)
	s.Popup.Border = lipgloss.NewStyle().Foreground(c("212"))
	s.Popup.Title = lipgloss.NewStyle().Bold(true).Foreground(c("212"))

	s.Keys = help.New().Styles // bubbles' adaptive greys
	if mono {
		key, faint := lipgloss.NewStyle().Bold(true), lipgloss.NewStyle().Faint(true)
		s.Keys = help.Styles{Ellipsis: faint, ShortKey: key, ShortDesc: faint, ShortSeparator: faint,
			FullKey: key, FullDesc: lipgloss.NewStyle(), FullSeparator: faint}
	}
	return s
}
