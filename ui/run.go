package ui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// Run opens the TUI on the alternate screen with mouse support, reading keys
// from in and drawing to out, until the user quits or ctx ends. The terminal
// is restored on return. With opts.NoColor nothing it draws carries a colour.
func Run(ctx context.Context, b Backend, opts Options, in io.Reader, out io.Writer) error {
	if opts.Clipboard == nil {
		opts.Clipboard = SystemClipboard{Terminal: out}
	}
	if opts.NoColor {
		// lipgloss drops every attribute under NO_COLOR, reverse and bold
		// included, which would leave hits and the selection invisible. The
		// monochrome styles hold no colour, so ANSI only lets attributes out.
		lipgloss.SetColorProfile(termenv.ANSI)
	}
	m := New(ctx, b, opts)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx),
		tea.WithInput(in), tea.WithOutput(out))
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted (SIGINT/SIGTERM): a normal way out
	}
	if err != nil {
		return err
	}
	return nil
}
