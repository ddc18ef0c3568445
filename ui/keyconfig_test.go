package ui

import (
	"os"
	"regexp"
	"slices"
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
			if got := strings.Join(k.Export.Keys(), " "); got != "e alt+e" {
				t.Errorf("export keys %v, want the default [e alt+e]", got)
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
					{strings.Join(k.Yank.Keys(), " "), "y ctrl+y"}, // untouched
					{strings.Join(k.Pager.Keys(), " "), "o"},       // ctrl+o went to resume
				} {
					if c.got != c.want {
						t.Errorf("got %q, want %q", c.got, c.want)
					}
				}
			}},
		{name: "alt and symbols", binds: map[string][]string{"sort": {"alt+O", "%"}}},
		{name: "space", binds: map[string][]string{"page_down": {"space", "pgdown"}}, check: func(t *testing.T, k KeyMap) {
			if got := strings.Join(k.PageDown.Keys(), ","); got != " ,pgdown" || k.PageDown.Help().Key != "space/pgdn" {
				t.Errorf("space bound as %q, shown as %q", got, k.PageDown.Help().Key)
			}
		}},
		{name: "unknown action", binds: map[string][]string{"resum": {"r"}}, wantErr: []string{`unknown key action "resum"`, "resume"}},
		{name: "empty list", binds: map[string][]string{"export": {}}, wantErr: []string{`key action "export" has no keys`}},
		{name: "null list", binds: map[string][]string{"export": nil}, wantErr: []string{`key action "export" has no keys`}},
		{name: "not a key", binds: map[string][]string{"export": {"ctlr+e"}}, wantErr: []string{`key action "export"`, `"ctlr+e" is not a key`}},
		{name: "empty key", binds: map[string][]string{"export": {""}}, wantErr: []string{`key action "export"`, `"" is not a key`}},
		// A key the file binds is taken from the default that had it (fzf's
		// --bind); two of the file's own actions on one key are an error.
		{name: "taken from a default", binds: map[string][]string{"resume": {"n"}}, check: func(t *testing.T, k KeyMap) {
			if len(k.NextHit.Keys()) != 0 || k.Resume.Keys()[0] != "n" {
				t.Errorf("next_hit keys %v, resume keys %v", k.NextHit.Keys(), k.Resume.Keys())
			}
		}},
		{name: "conflict between two", binds: map[string][]string{"resume": {"ctrl+o"}, "toggle_tools": {"ctrl+o"}}, wantErr: []string{`key "ctrl+o"`, "resume", "toggle_tools"}},
		{name: "conflict in one pane", binds: map[string][]string{"paste": {"ctrl+t"}, "sort": {"ctrl+t"}}, wantErr: []string{`key "ctrl+t"`, "paste", "sort", "search box"}},
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

// A rebound key runs its action and the old key no longer does (in the list
// it types, as every letter does there); F1 shows the new keys.
func TestReboundKeysAct(t *testing.T) {
	km, err := ConfigureKeys(map[string][]string{"export": {"E", "ctrl+x"}, "toggle_tools": {"X", "ctrl+o"}})
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
	d.key("alt+e")
	if d.m.popup.open {
		t.Fatal("the old key alt+e opened the export popup")
	}
	d.key("ctrl+x")
	if !d.m.popup.open || !strings.Contains(d.screen(), "Export session") {
		t.Fatalf("ctrl+x did not open the export popup:\n%s", d.screen())
	}
	d.key("esc")
	d.key("tab") // the reading pane: letters are commands
	if d.m.focus != focusDetail {
		t.Fatalf("focus %v", d.m.focus)
	}
	d.key("e")
	if d.m.popup.open {
		t.Fatal("the old key e opened the export popup")
	}
	d.key("E")
	if !d.m.popup.open {
		t.Fatal("E did not open the export popup")
	}
	d.key("esc")

	before := d.m.detail.expanded
	d.key("t")
	if d.m.detail.expanded != before {
		t.Error("old key t still toggles the tool calls")
	}
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
	for _, re := range []string{`export \(asks where\) +ctrl\+x +E/ctrl\+x`, `tool calls +ctrl\+o +X/ctrl\+o`, `open in \$PAGER +– +o\b`} {
		if !regexp.MustCompile(re).MatchString(scr) {
			t.Errorf("help lacks %s:\n%s", re, scr)
		}
	}
	for _, re := range []string{`\be/alt\+e\b`, `\bt/`} {
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
	d.key("w") // a letter types in the list too
	if d.m.list.selected != 1 || d.m.focus != focusSearch || d.m.input.Value() != "w" {
		t.Fatalf("w in the list: cursor %d, focus %v, box %q; want it typed", d.m.list.selected, d.m.focus, d.m.input.Value())
	}
	d.key("backspace")
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	d.key("tab")
	d.key("tab")
	d.key("w") // the reading pane: w scrolls it
	if d.m.focus != focusDetail || d.m.input.Value() != "" {
		t.Errorf("w in the reading pane: focus %v, box %q; want it to act", d.m.focus, d.m.input.Value())
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
		keys := slices.Clone(defaults.binding(a).Keys())
		for i, k := range keys {
			if k == " " {
				keys[i] = "space"
			}
		}
		want := "| `" + a + "` | `" + strings.Join(keys, "` `") + "` |"
		if !strings.Contains(section, want) {
			t.Errorf("README's key bindings table lacks the row %q", want)
		}
	}
}
