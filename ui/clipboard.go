package ui

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Clipboard puts text where the user can paste it and says where that is
// ("the tmux buffer"), so the status line reports what really happened.
type Clipboard interface {
	Copy(ctx context.Context, text string) (where string, err error)
}

// SystemClipboard copies the way the environment allows, best first:
//
//   - inside tmux ($TMUX), `tmux load-buffer -w -`: the text lands in tmux's
//     paste buffer (prefix-]) and, with -w, in the outer terminal's clipboard
//     when tmux's set-clipboard allows it. OSC 52 from a program inside tmux
//     needs allow-passthrough, which is off by default, so it is not used
//     there;
//   - a clipboard program of the desktop: wl-copy (Wayland), xclip or xsel
//     (X11), pbcopy (macOS);
//   - else OSC 52 written to the terminal (ssh, a bare console), which the
//     terminal may or may not honour: the status line says it was sent, not
//     that it was copied.
type SystemClipboard struct {
	// Terminal receives the OSC 52 sequence of the last resort.
	Terminal io.Writer
	// Getenv and LookPath are the environment (tests replace them); nil
	// means the process's own.
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// clipboardTimeout bounds a clipboard program: xclip that cannot reach the
// display must not hang the key that asked.
const clipboardTimeout = 3 * time.Second

// Copy implements Clipboard.
func (c SystemClipboard) Copy(ctx context.Context, text string) (string, error) {
	getenv, lookPath := c.Getenv, c.LookPath
	if getenv == nil {
		getenv = os.Getenv
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	var failed []string
	try := func(name string, args ...string) bool {
		path, err := lookPath(name)
		if err != nil {
			return false
		}
		if err := pipeTo(ctx, text, path, args...); err != nil {
			failed = append(failed, name+": "+err.Error())
			return false
		}
		return true
	}
	if getenv("TMUX") != "" {
		// -w (tmux 3.2+) also sets the outer terminal's clipboard; older
		// tmux rejects the flag, so try without it.
		if try("tmux", "load-buffer", "-w", "-") || try("tmux", "load-buffer", "-") {
			return "the tmux buffer", nil
		}
	}
	programs := []struct {
		env, name string
		args      []string
	}{
		{"WAYLAND_DISPLAY", "wl-copy", nil},
		{"DISPLAY", "xclip", []string{"-selection", "clipboard", "-in"}},
		{"DISPLAY", "xsel", []string{"--clipboard", "--input"}},
		{"", "pbcopy", nil},
	}
	for _, p := range programs {
		if p.env != "" && getenv(p.env) == "" || p.name == "pbcopy" && runtime.GOOS != "darwin" {
			continue
		}
		if try(p.name, p.args...) {
			return "the clipboard (" + p.name + ")", nil
		}
	}
	if c.Terminal == nil {
		return "", errors.New(strings.Join(append(failed, "no clipboard available"), "; "))
	}
	if err := writeOSC52(c.Terminal, text, getenv("TMUX") != ""); err != nil {
		return "", err
	}
	return "the terminal (OSC 52: pasted if your terminal allows it)", nil
}

// pipeTo runs a clipboard program with text on its stdin. Its stdout and
// stderr are not captured: xclip stays behind to serve the selection, and a
// pipe it inherited would hold Wait until it exits.
func pipeTo(ctx context.Context, text, path string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, clipboardTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = strings.NewReader(text)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("no answer after %s", clipboardTimeout)
		}
		return err
	}
	return nil
}

// writeOSC52 writes the clipboard escape for text; inside tmux it is wrapped
// in tmux's passthrough (honoured only with allow-passthrough on).
func writeOSC52(w io.Writer, text string, inTmux bool) error {
	seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	if inTmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	_, err := io.WriteString(w, seq)
	return err
}
