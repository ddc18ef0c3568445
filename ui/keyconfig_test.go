package ui

import (
	"os"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// ConfigureKeys takes the config file's "keys" object: good bindings
// replace the defaults (help included), and each kind of mistake is one
// line naming the action (or both actions of a conflict).
func TestConfigureKeys(t *testing.T) {
	tests := []struct {
		name    string
		binds   map[string][]string
		wantErr []string // substrings of the error; nil: no error
		check   func(t *testing.T, k KeyMap)
	}{
		{name: "none", binds: nil, check: func(t *testing.T, k KeyMap) {
			if got := k.Export.Keys(); len(got) != 1 || got[0] != "e" {
				t.Errorf("export keys %v, want the default [e]", got)
			}
		}},
		{name: "good", binds: map[string][]string{"resume": {"ctrl+o"}, "export": {"E"}, "next_hit": {"n", "ctrl+down"}, "layout": {"f9"}},
			check: func(t *testing.T, k KeyMap) {
				for _, c := range []struct{ got, want string }{
					{strings.Join(k.Resume.Keys(), " "), "ctrl+o"},
					{k.Resume.Help().Key, "ctrl+o"},
					{k.Resume.Help().Desc, "resume"},
					{k.Export.Help().Key, "E"},
					{k.NextHit.Help().Key, "n/ctrl+down"},
					{k.Layout.Help().Key, "F9"},
					{strings.Join(k.Yank.Keys(), " "), "y"}, // untouched
				} {
					if c.got != c.want {
						t.Errorf("got %q, want %q", c.got, c.want)
					}
				}
			}},
		{name: "alt and symbols", binds: map[string][]string{"sort": {"alt+O", "%"}}},
		{name: "unknown action", binds: map[string][]string{"resum": {"r"}}, wantErr: []string{`unknown key action "resum"`, "resume"}},
		{name: "empty list", binds: map[string][]string{"export": {}}, wantErr: []string{`key action "export" has no keys`}},
		{name: "null list", binds: map[string][]string{"export": nil}, wantErr: []string{`key action "export" has no keys`}},
		{name: "not a key", binds: map[string][]string{"export": {"ctlr+e"}}, wantErr: []string{`key action "export"`, `"ctlr+e" is not a key`}},
		{name: "empty key", binds: map[string][]string{"export": {""}}, wantErr: []string{`key action "export"`, `"" is not a key`}},
		{name: "conflict with a default", binds: map[string][]string{"resume": {"n"}}, wantErr: []string{`key "n"`, "next_hit", "resume"}},
		{name: "conflict between two", binds: map[string][]string{"resume": {"ctrl+o"}, "toggle_tools": {"ctrl+o"}}, wantErr: []string{`key "ctrl+o"`, "resume", "toggle_tools"}},
		{name: "conflict with a global key", binds: map[string][]string{"export": {"tab"}}, wantErr: []string{`key "tab"`, "next_focus", "export"}},
		// paste acts only in the search box, resume only in the panes:
		// the same key in both is no conflict.
		{name: "different panes", binds: map[string][]string{"paste": {"ctrl+o"}, "resume": {"ctrl+o"}}},
		{name: "moved away", binds: map[string][]string{"resume": {"n"}, "next_hit": {"ctrl+down"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ConfigureKeys(tt.binds)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if tt.check != nil {
					tt.check(t, k)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one with %q", tt.wantErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// The defaults have no key that runs two actions in one pane, so any
// conflict ConfigureKeys reports is the config file's.
func TestDefaultKeysHaveNoConflict(t *testing.T) {
	if err := DefaultKeyMap().conflict(); err != nil {
		t.Fatal(err)
	}
	if n := len(KeyActions()); n < 30 {
		t.Fatalf("only %d actions read from KeyMap", n)
	}
}

// A rebound key runs its action and the old key no longer does (it goes to
// the search box, as any letter no pane uses); F1 shows the new keys.
func TestReboundKeysAct(t *testing.T) {
	km, err := ConfigureKeys(map[string][]string{"export": {"E"}, "toggle_tools": {"X", "ctrl+o"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // export writes nothing here, but never in the repository
	d := newDriverWith(t, demoBackend(), 200, 60, Options{Keys: &km})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.settle()
	// The transcript's hint names the key in force.
	if scr := d.screen(); !strings.Contains(scr, "(X/ctrl+o expands)") || strings.Contains(scr, "(t expands)") {
		t.Errorf("the folded tool call's hint does not name X/ctrl+o:\n%s", scr)
	}
	d.key("tab")
	if d.m.focus != focusList {
		t.Fatalf("focus %v after tab", d.m.focus)
	}

	d.key("e")
	if d.m.popup.open || d.m.focus != focusSearch || d.m.input.Value() != "e" {
		t.Fatalf("old key e: popup %v, focus %v, search box %q; want no popup, e typed in the search box", d.m.popup.open, d.m.focus, d.m.input.Value())
	}
	d.key("esc") // clears the box
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	if d.m.focus != focusList {
		t.Fatalf("focus %v", d.m.focus)
	}
	d.key("E")
	if !d.m.popup.open || !strings.Contains(d.screen(), "Export session") {
		t.Fatalf("E did not open the export popup:\n%s", d.screen())
	}
	d.key("esc")

	before := d.m.detail.expanded
	d.key("t")
	if d.m.detail.expanded != before {
		t.Error("old key t still toggles the tool calls")
	}
	if d.m.focus != focusSearch || d.m.input.Value() != "t" {
		t.Errorf("old key t: focus %v, search box %q; want t typed", d.m.focus, d.m.input.Value())
	}
	d.key("esc")
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	before = d.m.detail.expanded
	d.key("X")
	if d.m.detail.expanded == before {
		t.Error("X did not toggle the tool calls")
	}
	d.send(tea.KeyMsg{Type: tea.KeyCtrlO})
	if d.m.detail.expanded != before {
		t.Error("ctrl+o did not toggle the tool calls back")
	}

	d.key("f1")
	scr := d.screen()
	for _, re := range []string{`\bE +export`, `X/ctrl\+o +tool calls`} {
		if !regexp.MustCompile(re).MatchString(scr) {
			t.Errorf("help lacks %s:\n%s", re, scr)
		}
	}
	for _, re := range []string{`\be +export`, `\bt +tool calls`} {
		if regexp.MustCompile(re).MatchString(scr) {
			t.Errorf("help still shows the old key (%s):\n%s", re, scr)
		}
	}
}

// A rebound movement key keeps the search box's rule: in the box the keys
// that type are text, in the panes they move.
func TestReboundKeysInSearchBox(t *testing.T) {
	km, err := ConfigureKeys(map[string][]string{"down": {"w", "ctrl+down"}})
	if err != nil {
		t.Fatal(err)
	}
	d := newDriverWith(t, demoBackend(), 200, 60, Options{Keys: &km})
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("w")
	if d.m.input.Value() != "w" || d.m.list.selected != 0 {
		t.Fatalf("w in the search box: box %q, cursor %d; want typed", d.m.input.Value(), d.m.list.selected)
	}
	d.key("backspace")
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.send(tea.KeyMsg{Type: tea.KeyCtrlDown})
	if d.m.list.selected != 1 {
		t.Fatalf("ctrl+down in the search box: cursor %d, want 1", d.m.list.selected)
	}
	d.key("tab")
	d.key("w")
	if d.m.list.selected != 2 {
		t.Fatalf("w in the list: cursor %d, want 2", d.m.list.selected)
	}
	d.key("j") // the old key is now text
	if d.m.list.selected != 2 || d.m.focus != focusSearch {
		t.Errorf("old key j: cursor %d, focus %v; want it typed in the search box", d.m.list.selected, d.m.focus)
	}
}

// The README's "Key bindings" section names every action, so the list
// there cannot fall behind KeyMap.
func TestREADMEListsEveryKeyAction(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "#### Key bindings")
	if !ok {
		t.Fatal("README has no \"#### Key bindings\" section")
	}
	if i := strings.Index(section, "\n#"); i >= 0 {
		section = section[:i]
	}
	defaults := DefaultKeyMap()
	for _, a := range KeyActions() {
		want := "| `" + a + "` | `" + strings.Join(defaults.binding(a).Keys(), "` `") + "` |"
		if !strings.Contains(section, want) {
			t.Errorf("README's key bindings table lacks the row %q", want)
		}
	}
}
