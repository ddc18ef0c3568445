package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

// ctrl+y (y in the reading pane) copies the message the detail pane is at
// (the best hit), alt+y (Y) the resume command, and the status line says
// what went where; a failed copy says nothing was copied. Before, y wrote
// the session id as OSC 52 and always said "copied".
func TestYankCopiesTheMessage(t *testing.T) {
	clip := &fakeClipboard{}
	d := newDriverWith(t, demoBackend(), 120, 30, Options{Clipboard: clip})
	d.typ("busy")
	d.pump("transcript", func() bool { return d.m.detail.session.ID == "cc-1111" && !d.m.detail.loading })
	d.key("tab")
	d.key("ctrl+y")
	d.pump("copied", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") })
	if got, want := clip.last(), demoBackend().msgs["cc-1111"][1].Content; got != want {
		t.Fatalf("copied %q, want the hit message %q", got, want)
	}
	if !strings.Contains(d.m.status.msg, "message 2 of 4 (assistant") || !strings.Contains(d.m.status.msg, "the test clipboard") {
		t.Errorf("status %q does not say what was copied where", d.m.status.msg)
	}

	clip.err = errors.New("xclip: cannot open display")
	d.key("tab")
	d.key("y")
	d.pump("copy failure", func() bool { return d.m.status.err })
	if !strings.Contains(d.m.status.msg, "nothing copied") || !strings.Contains(d.m.status.msg, "cannot open display") {
		t.Errorf("failed copy reported as %q", d.m.status.msg)
	}
}

// Scrolled away from the hit, y copies the message at the top of the pane:
// the one being read.
func TestYankCopiesTheMessageBeingRead(t *testing.T) {
	clip := &fakeClipboard{}
	b := demoBackend()
	long := strings.Repeat("a line of the long closing answer\n\n", 80)
	b.msgs["cc-1111"] = append(b.msgs["cc-1111"], store.Message{ID: 50, SessionID: "cc-1111", Role: "assistant", Content: long})
	d := newDriverWith(t, b, 120, 30, Options{Clipboard: clip})
	d.typ("busy")
	d.pump("transcript", func() bool { return d.m.detail.session.ID == "cc-1111" && !d.m.detail.loading })
	d.key("tab")
	d.key("tab")
	d.key("G")
	d.key("y")
	d.pump("copied", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") })
	if got := clip.last(); got != long {
		t.Fatalf("at the end of the session y copied %.60q…, want the long last message", got)
	}
	if !strings.Contains(d.m.status.msg, "message 5 of 5") {
		t.Errorf("status %q", d.m.status.msg)
	}
}

// The copy key pressed while the selected session's transcript loads (the
// list just moved: the ranked answer re-ordered it, or the user did)
// copies once it is in, not "nothing to copy: no session is open"; that
// was why the copy test failed on a fresh machine, where the first ranked
// search is slow.
func TestYankWhileTheTranscriptLoads(t *testing.T) {
	clip := &fakeClipboard{}
	d := newDriverWith(t, demoBackend(), 120, 30, Options{Clipboard: clip})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 && !d.m.detail.loading })
	d.key("tab")
	d.key("down")
	if !d.m.detail.loading {
		t.Fatal("the transcript is not loading after the move; the test needs it to be")
	}
	want := d.m.list.SelectedID()
	d.key("ctrl+y")
	d.pump("copied", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") || d.m.status.err })
	if got := clip.last(); d.m.detail.session.ID != want || !strings.Contains(demoText(want), got) || got == "" {
		t.Fatalf("copied %q (status %q) from %s, want a message of %s", got, d.m.status.msg, d.m.detail.session.ID, want)
	}

	// A move to another session before the transcript is in drops the copy.
	clip.copied = nil
	d.key("down")
	d.key("ctrl+y")
	d.key("down")
	d.settle()
	if len(clip.copied) != 0 {
		t.Fatalf("a copy asked for one session landed after the list moved on: %q", clip.copied)
	}
}

// demoText is every message of a demo session, joined.
func demoText(id string) string {
	var b strings.Builder
	for _, m := range demoBackend().msgs[id] {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

func TestYankResumeCommand(t *testing.T) {
	clip := &fakeClipboard{}
	line := func(s store.Session) (string, error) { return "cd " + s.Cwd + " && agent --resume " + s.ID, nil }
	d := newDriverWith(t, demoBackend(), 120, 30, Options{Clipboard: clip, ResumeLine: line})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	d.key("alt+y")
	d.pump("copied", func() bool { return strings.HasPrefix(d.m.status.msg, "copied") || d.m.status.err })
	if got, want := clip.last(), "cd /tmp && agent --resume cc-1111"; got != want {
		t.Fatalf("alt+y copied %q (status %q), want %q", got, d.m.status.msg, want)
	}
	if !strings.Contains(d.m.status.msg, "the resume command (cd /tmp && agent --resume cc-1111)") {
		t.Errorf("status %q", d.m.status.msg)
	}
}

// The system clipboard takes tmux's buffer inside tmux, a desktop clipboard
// program when there is a display, and OSC 52 only as the last resort.
func TestSystemClipboardChoosesTheWay(t *testing.T) {
	dir := t.TempDir()
	tool := func(name, script string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name+".out"))
		return string(b)
	}
	tool("tmux", `echo "$@" > "$0.args"; cat > "$0.out"`)
	tool("xclip", `cat > "$0.out"`)
	tool("oldtmux", `[ "$2" = -w ] && exit 1; cat > "$0.out"`)
	look := func(names map[string]string) func(string) (string, error) {
		return func(n string) (string, error) {
			if f, ok := names[n]; ok {
				return filepath.Join(dir, f), nil
			}
			return "", errors.New("not found")
		}
	}
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	ctx := context.Background()

	var term strings.Builder
	c := SystemClipboard{Terminal: &term, Getenv: env(map[string]string{"TMUX": "/tmp/sock,1,0", "DISPLAY": ":0"}),
		LookPath: look(map[string]string{"tmux": "tmux", "xclip": "xclip"})}
	if where, err := c.Copy(ctx, "in tmux"); err != nil || where != "the tmux buffer" || got("tmux") != "in tmux" {
		t.Fatalf("in tmux: %q, %v; tmux got %q", where, err, got("tmux"))
	}
	if args, _ := os.ReadFile(filepath.Join(dir, "tmux.args")); strings.TrimSpace(string(args)) != "load-buffer -w -" {
		t.Errorf("tmux args %q", args)
	}
	c.LookPath = look(map[string]string{"tmux": "oldtmux"})
	if where, err := c.Copy(ctx, "old tmux"); err != nil || where != "the tmux buffer" || got("oldtmux") != "old tmux" {
		t.Fatalf("tmux without -w: %q, %v", where, err)
	}
	c.Getenv, c.LookPath = env(map[string]string{"DISPLAY": ":0"}), look(map[string]string{"tmux": "tmux", "xclip": "xclip"})
	if where, err := c.Copy(ctx, "on X11"); err != nil || !strings.Contains(where, "xclip") || got("xclip") != "on X11" {
		t.Fatalf("X11: %q, %v", where, err)
	}
	if term.Len() != 0 {
		t.Fatalf("OSC 52 written although a clipboard program copied: %q", term.String())
	}
	c.Getenv = env(nil)
	if where, err := c.Copy(ctx, "over ssh"); err != nil || !strings.Contains(where, "OSC 52") ||
		term.String() != "\x1b]52;c;b3ZlciBzc2g=\x07" {
		t.Fatalf("no display: %q, %v, terminal got %q", where, err, term.String())
	}
}
