package ui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/recall-dev/recall/ui/termtext"
)

// PasteFunc reads the clipboard: its text and where it came from ("the
// tmux buffer").
type PasteFunc func(ctx context.Context) (text, where string, err error)

// errNoClipboard says no clipboard can be read here.
var errNoClipboard = errors.New("no clipboard can be read here (no tmux, wl-paste, xclip, xsel or pbpaste): " +
	"paste with your terminal's own key (often ctrl+shift+v)")

// SystemPaste reads from where y copies to, best first: tmux's paste
// buffer inside tmux (`tmux save-buffer -`), else wl-paste, xclip, xsel or
// pbpaste. Bubbles' own ctrl-v tries only the desktop's programs, so inside
// tmux without them it pasted nothing and said nothing.
func SystemPaste(ctx context.Context) (string, string, error) {
	read := func(name string, args ...string) (string, bool) {
		path, err := exec.LookPath(name)
		if err != nil {
			return "", false
		}
		ctx, cancel := context.WithTimeout(ctx, clipboardTimeout)
		defer cancel()
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, path, args...)
		cmd.Stdout = &out
		if cmd.Run() != nil {
			return "", false
		}
		return out.String(), true
	}
	if os.Getenv("TMUX") != "" {
		if s, ok := read("tmux", "save-buffer", "-"); ok {
			return s, "the tmux buffer", nil
		}
	}
	programs := []struct {
		env, name string
		args      []string
	}{
		{"WAYLAND_DISPLAY", "wl-paste", []string{"--no-newline"}},
		{"DISPLAY", "xclip", []string{"-selection", "clipboard", "-out"}},
		{"DISPLAY", "xsel", []string{"--clipboard", "--output"}},
		{"", "pbpaste", nil},
	}
	for _, p := range programs {
		if p.env != "" && os.Getenv(p.env) == "" || p.name == "pbpaste" && runtime.GOOS != "darwin" {
			continue
		}
		if s, ok := read(p.name, p.args...); ok {
			return s, "the clipboard (" + p.name + ")", nil
		}
	}
	return "", "", errNoClipboard
}

// pasteMsg is what the clipboard held.
type pasteMsg struct {
	text, where string
	err         error
}

// paste (ctrl-v in the search box) reads the clipboard in a command.
func (m *Model) paste() tea.Cmd {
	ctx, read := m.ctx, m.opts.Paste
	return func() tea.Msg {
		text, where, err := read(ctx)
		return pasteMsg{text: text, where: where, err: err}
	}
}

// pasted types the clipboard's text into the search box (one line,
// sanitised) and says where it came from, or why nothing was pasted.
func (m *Model) pasted(msg pasteMsg) tea.Cmd {
	if msg.err != nil {
		return m.status.set("nothing pasted: "+msg.err.Error(), true)
	}
	text := termtext.OneLine(termtext.Sanitize(msg.text))
	if text == "" {
		return m.status.set("nothing pasted: "+msg.where+" is empty", false)
	}
	if m.focus != focusSearch {
		m.setFocus(focusSearch)
	}
	cmd := m.updateInput(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
	return tea.Batch(cmd, m.status.set("pasted from "+msg.where, false))
}
