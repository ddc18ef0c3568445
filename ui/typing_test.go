package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// typedWords hold every letter that is a command in the reading pane (n N
// / y Y o e r s S t T V q ?) and the ones that were commands in the list
// before (issue 32: "error" opened the export box, "rollback" resumed the
// session in its agent and opened the pager).
var typedWords = []string{"error", "rollback", "network", "yo-yo Yes", "quit", "STaTS", "TV/n ?", "grep -e"}

// Typing is text: in the search box, in the list, in the reading pane's
// find prompt, in the export box and at the help, a word typed one key at a
// time or arriving at once (a fast typist, ssh, tmux send-keys -l) runs no
// command: no program is started, nothing is copied, no file is written,
// no summary starts, the TUI does not quit. Where it is text it lands in
// the box that has focus, whole.
func TestTypingIsText(t *testing.T) {
	type pane struct {
		name  string
		enter func(d *driver) // puts the focus there
		text  func(d *driver) string
	}
	query := func(d *driver) string { return d.m.input.Value() }
	panes := []pane{
		{"search box", func(d *driver) {}, query},
		{"list", func(d *driver) { d.key("tab") }, query},
		{"reading pane's find prompt", func(d *driver) { d.key("tab"); d.key("tab"); d.key("/") },
			func(d *driver) string { return d.m.detail.find.input.Value() }},
		{"export box", func(d *driver) { d.key("tab"); d.key("alt+e"); d.key("ctrl+u") },
			func(d *driver) string { return d.m.popup.input.Value() }},
		// The help ignores what is typed until a key that closes it (the q
		// of "quit"); the rest is typed in the search box.
		{"help over the list", func(d *driver) { d.key("tab"); d.key("f1") }, nil},
	}
	for _, p := range panes {
		for _, batched := range []bool{false, true} {
			name := p.name + map[bool]string{false: ", key by key", true: ", words at once"}[batched]
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				t.Chdir(dir)
				clip := &fakeClipboard{}
				d := newDriverWith(t, demoBackend(), 160, 40, Options{Clipboard: clip})
				d.pump("browse", func() bool { return len(d.m.list.items) == 4 && !d.m.detail.loading })
				d.settle()
				p.enter(d)
				help, popup, focus := d.m.showHelp, d.m.popup.open, d.m.focus
				typed := ""
				for i, w := range typedWords {
					if i > 0 {
						w = " " + w
					}
					typed += w
					if batched {
						d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(w)})
					} else {
						d.typ(w)
					}
				}
				d.settle()
				if len(d.execs) > 0 || len(clip.copied) > 0 || d.quit || d.m.quitting {
					t.Fatalf("typing ran commands: programs %q, copied %q, quit %v", d.execs, clip.copied, d.quit || d.m.quitting)
				}
				if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) > 0 {
					t.Fatalf("typing wrote %q", files)
				}
				if d.m.summary.open || d.m.detail.expanded || d.m.detail.thinking || d.m.detail.reveal {
					t.Fatalf("typing changed the reading pane: summary %v, tools %v, thinking %v, secrets shown %v",
						d.m.summary.open, d.m.detail.expanded, d.m.detail.thinking, d.m.detail.reveal)
				}
				if p.text != nil && d.m.showHelp != help || d.m.popup.open != popup {
					t.Fatalf("typing opened or closed a box: help %v→%v, popup %v→%v", help, d.m.showHelp, popup, d.m.popup.open)
				}
				if p.text == nil {
					return
				}
				if got := p.text(d); got != typed {
					t.Fatalf("the box holds %q, want what was typed: %q", got, typed)
				}
				if p.name == "list" && d.m.focus != focusSearch || p.name != "list" && d.m.focus != focus {
					t.Errorf("focus %v after typing in the %s", d.m.focus, p.name)
				}
			})
		}
	}
}

// The reading pane is a pager: letters are commands there (each of a run
// acts in turn, as in less), one that opens a text box hands it the rest,
// a letter that is no command says so and types nothing, a paste is a
// query, and esc goes back.
func TestReadingPaneLettersAreCommands(t *testing.T) {
	t.Chdir(t.TempDir())
	b := demoBackend()
	long := strings.Repeat("line of a long answer\n\n", 60)
	b.msgs["cc-1111"] = append(b.msgs["cc-1111"], b.msgs["cc-1111"][0])
	b.msgs["cc-1111"][len(b.msgs["cc-1111"])-1].Content = long
	b.msgs["cc-1111"][len(b.msgs["cc-1111"])-1].ID = 77
	d := newDriver(t, b, 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 && !d.m.detail.loading })
	d.settle()
	d.key("tab")
	d.key("tab")
	if d.m.focus != focusDetail {
		t.Fatalf("focus %v after two tabs", d.m.focus)
	}
	d.key("g")
	d.key("jjj")
	if got := d.m.detail.view.offset; got != 3 {
		t.Fatalf(`"jjj" scrolled to %d, want 3`, got)
	}
	d.key("t")
	if !d.m.detail.expanded {
		t.Error("t did not show the tool calls")
	}
	d.key("x")
	if d.m.input.Value() != "" || !strings.Contains(d.m.status.msg, "does nothing in the reading pane") {
		t.Errorf("x in the reading pane: query %q, status %q; want nothing typed and a hint", d.m.input.Value(), d.m.status.msg)
	}
	d.key("/mig") // / opens the find prompt, which takes the rest
	if !d.m.finding() || d.m.detail.find.input.Value() != "mig" {
		t.Fatalf(`"/mig": finding %v, prompt %q`, d.m.finding(), d.m.detail.find.input.Value())
	}
	d.key("esc")
	d.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("sqlite busy"), Paste: true})
	if d.m.focus != focusSearch || d.m.input.Value() != "sqlite busy" {
		t.Fatalf("a paste in the reading pane: focus %v, query %q; want it as the query", d.m.focus, d.m.input.Value())
	}
	d.key("tab")
	d.key("tab")
	d.key("esc")
	if d.m.focus != focusList {
		t.Errorf("esc in the reading pane: focus %v, want the list", d.m.focus)
	}
}

// The footer names the keys of the pane in focus: ctrl/alt ones where the
// query is typed, the pager's letters in the reading pane.
func TestFooterKeysFollowTheFocus(t *testing.T) {
	d := newDriver(t, demoBackend(), 200, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	footer := func() string {
		lines := strings.Split(d.screen(), "\n")
		return lines[len(lines)-1]
	}
	for _, tc := range []struct {
		focus      string
		want, not  []string
		keysBefore []string
	}{
		{"search", []string{"F1 help", "enter summarise", "ctrl+r resume", "ctrl+o $PAGER", "ctrl+y copy", "alt+e export"}, []string{" q quit", " y copy"}, nil},
		{"list", []string{"F1 help", "ctrl+r resume", "ctrl+y copy", "esc back to query"}, []string{" q quit"}, []string{"tab"}},
		{"detail", []string{"F1 help", "n next hit", "/ find", "y copy", "o $PAGER", "e export", "esc back to list", "q quit"}, []string{"ctrl+"}, []string{"tab"}},
	} {
		for _, k := range tc.keysBefore {
			d.key(k)
		}
		if d.m.Focus() != tc.focus {
			t.Fatalf("focus %s, want %s", d.m.Focus(), tc.focus)
		}
		f := footer()
		for _, w := range tc.want {
			if !strings.Contains(f, w) {
				t.Errorf("%s footer lacks %q: %s", tc.focus, w, f)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(f, w) {
				t.Errorf("%s footer shows %q: %s", tc.focus, w, f)
			}
		}
	}
	_ = os.Getenv
}
