package ui

import (
	"context"
	"errors"
	"io"

	tea "github.com/charmbracelet/bubbletea"
)

// Run opens the TUI on the alternate screen with mouse support, reading keys
// from in and drawing to out, until the user quits or ctx ends. The terminal
// is restored on return.
func Run(ctx context.Context, b Backend, opts Options, in io.Reader, out io.Writer) error {
	if opts.Clipboard == nil {
		opts.Clipboard = out
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
