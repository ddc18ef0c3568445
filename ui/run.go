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
	_, err := run(ctx, b, opts, in, out)
	return err
}

// Pick runs the TUI as a picker for shell integration (recall pick): enter
// ends it with the selected session's id; esc or ctrl-c end it with "".
// opts.Pick is implied. With opts.Height > 0 it draws inline, in that many
// lines under the prompt, instead of on the alternate screen.
func Pick(ctx context.Context, b Backend, opts Options, in io.Reader, out io.Writer) (string, error) {
	opts.Pick = true
	m, err := run(ctx, b, opts, in, out)
	if err != nil || m == nil {
		return "", err
	}
	return m.picked, nil
}

func run(ctx context.Context, b Backend, opts Options, in io.Reader, out io.Writer) (*Model, error) {
	if opts.Clipboard == nil {
		opts.Clipboard = SystemClipboard{Terminal: out}
	}
	// Colours are those of the terminal drawn on, which need not be stdout
	// (recall pick draws on /dev/tty while its stdout is a pipe).
	profile := termenv.NewOutput(out).EnvColorProfile()
	if opts.NoColor {
		// lipgloss drops every attribute under NO_COLOR, reverse and bold
		// included, which would leave hits and the selection invisible. The
		// monochrome styles hold no colour, so ANSI only lets attributes out.
		profile = termenv.ANSI
	}
	lipgloss.SetColorProfile(profile)
	m := New(ctx, b, opts)
	// Signals end the program through ctx only (main turns SIGINT, SIGTERM
	// and SIGHUP into its cancellation). Bubble Tea's own handler would race
	// it: on SIGTERM it sends a QuitMsg to an event loop that ctx already
	// stopped, blocks there, and its shutdown waits for it forever (seen:
	// recall demo hung on SIGTERM and kept its temporary directory).
	progOpts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler()}
	if opts.Height <= 0 {
		// Inline, mouse positions would be the screen's, not the TUI's.
		progOpts = append(progOpts, tea.WithAltScreen(), tea.WithMouseCellMotion())
	}
	_, err := tea.NewProgram(m, progOpts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil, nil // interrupted (SIGINT/SIGTERM/SIGHUP): a normal way out
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}
