package ui

import (
	"github.com/charmbracelet/bubbles/key"
)

// KeyMap holds every key binding of the TUI. It implements help.KeyMap, and
// updateKeys keeps live only the keys that act in the current focus, so the
// footer always shows what a key does now.
//
// Typing is text, as in fzf and less: where the search box or the list has
// focus, every printable key edits the query, so a binding's printable keys
// (the pager's letters) are dropped there, and its ctrl, alt and F keys
// stay; the reading pane (the detail) is a pager, where letters are
// commands. One rule for the defaults and the configured keys alike.
type KeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextFocus, PrevFocus, FocusSearch       key.Binding // FocusSearch: / in the reading pane finds in the session (less)
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

	// focus is the pane the live keys are for (updateKeys).
	focus focus
	// base holds every action's keys in force (the defaults, or the config
	// file's in their place), which updateKeys filters for a focus.
	base map[string][]string
}

// DefaultKeyMap returns the bindings: fzf's keys where the query is typed
// (ctrl/alt for actions), less's letters in the reading pane.
func DefaultKeyMap() KeyMap {
	b := func(desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKeys(keys), desc))
	}
	k := KeyMap{
		Up:             b("up", "up", "k", "ctrl+p", "ctrl+k"),
		Down:           b("down", "down", "j", "ctrl+n", "ctrl+j"),
		PageUp:         b("page up", "pgup", "b", "ctrl+b"),
		PageDown:       b("page down", "pgdown", " ", "ctrl+f"),
		Top:            b("top", "home", "g"),
		Bottom:         b("bottom", "end", "G"),
		NextFocus:      b("next pane", "tab"),
		PrevFocus:      b("previous pane", "shift+tab"),
		FocusSearch:    b("find", "/"),
		Open:           b("summarise", "enter"),
		Summarize:      b("summarise session", "s"),
		SummarizeAll:   b("summarise top 3", "S", "ctrl+s"),
		NextHit:        b("next hit", "n"),
		PrevHit:        b("previous hit", "N"),
		ToggleTools:    b("tool calls", "t"),
		ToggleThinking: b("thinking", "T"),
		RevealSecrets:  b("reveal secrets", "V"),
		Resume:         b("resume", "r", "ctrl+r"),
		Export:         b("export…", "e", "alt+e"),
		Yank:           b("copy", "y", "ctrl+y"),
		YankResume:     b("copy resume", "Y", "alt+y"),
		Pager:          b("$PAGER", "o", "ctrl+o"),
		// ctrl-/ is what terminals send as ctrl-_ (0x1f); F6 for those that do not.
		Layout:       b("toggle detail", "f6", "ctrl+_"),
		FilterRole:   b("role", "f2", "alt+r"),
		FilterSource: b("source", "f3", "alt+s"),
		FilterTime:   b("time", "f4", "alt+t"),
		ClearFilters: b("no filters", "f5", "alt+x"),
		Scope:        b("this repo ⇄ all", "f7", "alt+p"),
		Sort:         b("relevance ⇄ recency", "f8", "alt+o"),
		Help:         b("help", "f1", "?"),
		Cancel:       b("back", "esc"),
		Quit:         b("quit", "q"),
		ForceQuit:    b("quit", "ctrl+c"),
		Paste:        b("paste", "ctrl+v"),
	}
	k.base = map[string][]string{}
	for _, a := range keyActions {
		k.base[a.name] = k.binding(a.name).Keys()
	}
	return k
}

// liveKeys are the keys of an action that act in focus f: all of them in
// the reading pane; where the query is typed, not those that type (in the
// search box also its editing keys: ctrl+a, home, ...). Paste acts only in
// the search box.
func liveKeys(name string, keys []string, f focus) []string {
	switch {
	case name == "paste":
		if f != focusSearch {
			return nil
		}
		return keys
	case f == focusDetail:
		return keys
	}
	var live []string
	for _, s := range keys {
		if printable(s) || f == focusSearch && typesText(s) {
			continue
		}
		live = append(live, s)
	}
	return live
}

// updateKeys sets each binding to the keys that act in focus f (liveKeys),
// its help to those keys, and the descriptions that depend on the pane.
func (k *KeyMap) updateKeys(f focus, summaryOpen bool) {
	for _, a := range keyActions {
		b := k.binding(a.name)
		live := liveKeys(a.name, k.base[a.name], f)
		b.SetKeys(live...)
		b.SetEnabled(len(live) > 0)
		// The footer names one key an action has here (F1 lists them all).
		b.SetHelp(helpKeys(live[:min(1, len(live))]), b.Help().Desc)
	}
	k.Yank.SetHelp(k.Yank.Help().Key, map[bool]string{true: "copy summary", false: "copy"}[summaryOpen])
	cancel := map[focus]string{focusSearch: "clear/quit", focusList: "back to query", focusDetail: "back to list"}[f]
	if summaryOpen {
		cancel = "close summary"
	}
	k.Cancel.SetHelp(k.Cancel.Help().Key, cancel)
	k.focus = f
}

// ShortHelp is the footer: the keys that matter most in the current pane,
// most wanted first. A narrow footer leaves out the ones that do not fit,
// from the end (footerKeys): help, the pane's main action and the way back
// stay longest.
func (k KeyMap) ShortHelp() []key.Binding {
	if k.focus == focusDetail {
		return []key.Binding{k.Help, k.NextHit, k.FocusSearch, k.Cancel, k.Yank, k.Pager, k.Export, k.Quit}
	}
	return []key.Binding{k.Help, k.Open, k.NextFocus, k.Cancel, k.Resume, k.Yank, k.Pager, k.Export, k.ForceQuit}
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

// FullHelp is every binding, one group per column (help.KeyMap); the F1
// view lays them out per pane instead (helpKeyRows).
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.NextFocus, k.PrevFocus, k.FocusSearch, k.Layout},
		{k.Open, k.Summarize, k.SummarizeAll, k.NextHit, k.PrevHit, k.ToggleTools, k.ToggleThinking, k.RevealSecrets, k.Cancel},
		{k.Resume, k.Export, k.Yank, k.YankResume, k.Pager, k.Help, k.Quit, k.ForceQuit, k.Paste},
		{k.FilterRole, k.FilterSource, k.FilterTime, k.ClearFilters, k.Scope, k.Sort},
	}
}
