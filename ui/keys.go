package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap holds every key binding of the TUI. It implements help.KeyMap, and
// updateKeys enables only the bindings that act in the current focus, so the
// help view always shows what a key does now.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextFocus, PrevFocus, FocusSearch       key.Binding
	Open                                    key.Binding // enter: summarise (and show the detail on narrow screens)
	Summarize, SummarizeAll                 key.Binding
	NextHit, PrevHit, ToggleTools           key.Binding
	ToggleThinking                          key.Binding // the assistant's thinking (reasoning), folded by default
	RevealSecrets                           key.Binding // V: show the secrets redacted by default
	Resume, Export, Yank, YankResume, Pager key.Binding
	Layout                                  key.Binding // list only ⇄ list + detail
	FilterRole, FilterSource, FilterTime    key.Binding
	ClearFilters                            key.Binding
	Scope                                   key.Binding // this repository's sessions ⇄ all (recall --here)
	Sort                                    key.Binding // a query's results by relevance ⇄ by recency
	Help, Cancel, Quit, ForceQuit           key.Binding
	Paste                                   key.Binding // ctrl+v in the search box: from tmux's buffer inside tmux

	// user holds the config file's bindings (action name → keys), which
	// updateKeys puts back after setting a focus's defaults.
	user map[string][]string
}

// DefaultKeyMap returns the bindings: fzf/lazygit/less conventions.
func DefaultKeyMap() KeyMap {
	b := func(help string, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:             b("↑/k/ctrl+p/ctrl+k", "up", "up", "ctrl+p", "ctrl+k", "k"),
		Down:           b("↓/j/ctrl+n/ctrl+j", "down", "down", "ctrl+n", "ctrl+j", "j"),
		PageUp:         b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown:       b("pgdn", "page down", "pgdown", "ctrl+f"),
		Top:            b("g/home", "top", "home", "g"),
		Bottom:         b("G/end", "bottom", "end", "G"),
		NextFocus:      b("tab", "next pane", "tab"),
		PrevFocus:      b("shift+tab", "previous pane", "shift+tab"),
		FocusSearch:    b("/", "search", "/"),
		Open:           b("enter", "summarise", "enter"),
		Summarize:      b("s", "summarise session", "s"),
		SummarizeAll:   b("S", "summarise top 3", "S"),
		NextHit:        b("n", "next hit", "n"),
		PrevHit:        b("N", "previous hit", "N"),
		ToggleTools:    b("t", "tool calls", "t"),
		ToggleThinking: b("T", "thinking", "T"),
		RevealSecrets:  b("V", "reveal secrets", "V"),
		Resume:         b("r", "resume", "r"),
		Export:         b("e", "export… (asks where)", "e"),
		Yank:           b("y", "copy message", "y"),
		YankResume:     b("Y", "copy resume", "Y"),
		Pager:          b("o", "$PAGER", "o"),
		// ctrl-/ is what terminals send as ctrl-_ (0x1f); F6 for those that do not.
		Layout:       b("F6/ctrl+/", "toggle detail", "f6", "ctrl+_"),
		FilterRole:   b("F2/alt+r", "role", "f2", "alt+r"),
		FilterSource: b("F3/alt+s", "source", "f3", "alt+s"),
		FilterTime:   b("F4/alt+t", "time", "f4", "alt+t"),
		ClearFilters: b("F5/alt+x", "no filters", "f5", "alt+x"),
		Scope:        b("F7/alt+p", "this repo ⇄ all", "f7", "alt+p"),
		Sort:         b("F8/alt+o", "relevance ⇄ recency", "f8", "alt+o"),
		Help:         b("?/F1", "help", "?", "f1"),
		Cancel:       b("esc", "cancel/back", "esc"),
		Quit:         b("q", "quit", "q"),
		ForceQuit:    b("ctrl+c", "quit", "ctrl+c"),
		Paste:        b("ctrl+v", "paste", "ctrl+v"),
	}
}

// letterKeys are the bindings made of plain printable keys: in the search
// box those keys type, so the bindings are off while it has focus.
func (k *KeyMap) letterKeys() []*key.Binding {
	return []*key.Binding{&k.FocusSearch, &k.Summarize, &k.SummarizeAll, &k.NextHit, &k.PrevHit,
		&k.ToggleTools, &k.ToggleThinking, &k.RevealSecrets, &k.Resume, &k.Export, &k.Yank, &k.YankResume, &k.Pager, &k.Quit, &k.Top, &k.Bottom}
}

// updateKeys enables the bindings that act in focus f.
func (k *KeyMap) updateKeys(f focus, summaryOpen bool) {
	for _, b := range k.letterKeys() {
		b.SetEnabled(f != focusSearch)
	}
	// In the search box ? types (it is not FTS5 syntax, but a user may look
	// for it); F1 still opens the help there.
	if f == focusSearch {
		k.Help.SetKeys("f1")
		k.Help.SetHelp("F1", "help")
	} else {
		k.Help.SetKeys("?", "f1")
		k.Help.SetHelp("?/F1", "help")
	}
	// ctrl-j/ctrl-k move from the search box too, as in fzf.
	// In the search box ctrl-b/ctrl-f move the cursor (readline).
	if f == focusSearch {
		k.Up.SetKeys("up", "ctrl+p", "ctrl+k")
		k.Down.SetKeys("down", "ctrl+n", "ctrl+j")
		k.PageUp.SetKeys("pgup")
		k.PageDown.SetKeys("pgdown")
		k.Up.SetHelp("↑/ctrl+k", "up")
		k.Down.SetHelp("↓/ctrl+j", "down")
	} else {
		k.Up.SetKeys("up", "ctrl+p", "ctrl+k", "k")
		k.Down.SetKeys("down", "ctrl+n", "ctrl+j", "j")
		k.PageUp.SetKeys("pgup", "ctrl+b")
		k.PageDown.SetKeys("pgdown", "ctrl+f")
		k.Up.SetHelp("↑/k", "up")
		k.Down.SetHelp("↓/j", "down")
	}
	k.Yank.SetHelp(k.Yank.Help().Key, map[bool]string{true: "copy summary", false: "copy message"}[summaryOpen])
	k.applyUser(f)
}

// ShortHelp is the status-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.NextFocus, k.Open, k.Resume, k.Quit, k.ForceQuit}
}

// readlineHelp lists the search box's editing keys (Bubbles' textinput
// handles them; they are here only to be shown in the help).
func readlineHelp() []key.Binding {
	b := func(keys, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
	}
	return []key.Binding{b("ctrl+a/e", "line start/end"), b("ctrl+b/f", "char back/fwd"), b("alt+b/f", "word back/fwd"),
		b("ctrl+w", "delete word"), b("alt+d", "delete word fwd"), b("ctrl+u", "delete to start"),
		b("alt+k", "delete to end"), b("ctrl+v", "paste (tmux buffer)")}
}

// FullHelp is the help view, one column per group.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.NextFocus, k.PrevFocus, k.FocusSearch, k.Layout},
		{k.Open, k.Summarize, k.SummarizeAll, k.NextHit, k.PrevHit, k.ToggleTools, k.ToggleThinking, k.RevealSecrets, k.Cancel},
		{k.Resume, k.Export, k.Yank, k.YankResume, k.Pager, k.Help, k.Quit, k.ForceQuit},
		{k.FilterRole, k.FilterSource, k.FilterTime, k.ClearFilters, k.Scope, k.Sort},
		readlineHelp(),
	}
}
