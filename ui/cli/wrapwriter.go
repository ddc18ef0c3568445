package cli

import (
	"io"
	"regexp"
	"strings"

	"github.com/recall-dev/recall/ui/termtext"
)

// wrapWriter word-wraps streamed markdown prose to a width as it is written
// (a summary arrives token by token): a line is written as soon as it is
// full, a list item's or a quote's continuation lines are indented under
// its text, and fenced code is passed through as it is (a command wrapped
// is a command broken). Text is only ever moved, never dropped.
type wrapWriter struct {
	w       io.Writer
	width   int
	pending string // the current line's text not yet written
	cont    bool   // pending continues a line already broken (its indent is in it)
	hang    string // the current line's hanging indent
	inFence bool
}

// hangRE is what a continuation line is indented under: leading spaces, a
// list marker, a quote's bar.
var hangRE = regexp.MustCompile(`^(\s*(?:[-*+] |\d+[.)] |> )?)`)

// Write takes any piece of text; it never fails but for the writer's errors.
func (ww *wrapWriter) Write(s string) error {
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			ww.pending += s
			return ww.emit(false)
		}
		ww.pending += s[:i]
		s = s[i+1:]
		if err := ww.emit(true); err != nil {
			return err
		}
	}
	return nil
}

// emit writes what of pending is final: all of it at a line's end, else
// every wrapped line but the last, which more text may still fill.
func (ww *wrapWriter) emit(eol bool) error {
	if !ww.cont {
		ww.hang = hangRE.FindString(ww.pending)
		t := strings.TrimSpace(ww.pending)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if eol {
				ww.inFence = !ww.inFence
			}
			return ww.flushRaw(eol)
		}
		// A list item that is one code span (a command the session ran) is
		// code, not prose: kept whole until its line ends, then written
		// unwrapped if that is what it was.
		if body := strings.TrimPrefix(t, strings.TrimSpace(ww.hang)); strings.HasPrefix(strings.TrimSpace(body), "`") {
			if !eol {
				return nil
			}
			if b := strings.TrimSpace(body); strings.HasSuffix(b, "`") && strings.Count(b, "`") == 2 {
				return ww.flushRaw(true)
			}
		}
	}
	if ww.inFence || ww.width < 20 {
		return ww.flushRaw(eol)
	}
	hang := strings.Repeat(" ", termtext.Width(ww.hang))
	if strings.HasPrefix(strings.TrimLeft(ww.hang, " "), ">") {
		hang = ww.hang
	}
	lines := termtext.Wrap(ww.pending, ww.width, hang)
	keep := 1
	if eol {
		keep = 0
	}
	for _, l := range lines[:len(lines)-keep] {
		if _, err := io.WriteString(ww.w, strings.TrimRight(l, " ")+"\n"); err != nil {
			return err
		}
	}
	if eol {
		ww.pending, ww.cont = "", false
		return nil
	}
	if len(lines) > 1 {
		ww.pending, ww.cont = lines[len(lines)-1], true
	}
	return nil
}

// flushRaw writes pending unwrapped once its line is complete.
func (ww *wrapWriter) flushRaw(eol bool) error {
	if !eol {
		return nil
	}
	_, err := io.WriteString(ww.w, ww.pending+"\n")
	ww.pending, ww.cont = "", false
	return err
}

// Flush writes what is pending (without ending its line).
func (ww *wrapWriter) Flush() error {
	if ww.pending == "" {
		return nil
	}
	_, err := io.WriteString(ww.w, ww.pending)
	ww.pending, ww.cont = "", false
	return err
}
