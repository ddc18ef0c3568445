package ui

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyAction is one binding the config file's "keys" object may set: its
// name there (the KeyMap field in snake_case) and the field's index.
type keyAction struct {
	name  string
	field int
}

// keyActions are the KeyMap's bindings, in field order. They are read
// from the struct, so a new binding is configurable (and must be in the
// README: keyconfig_test checks) without a list to keep in step.
var keyActions = func() []keyAction {
	var out []keyAction
	typ, bt := reflect.TypeOf(KeyMap{}), reflect.TypeOf(key.Binding{})
	for i := 0; i < typ.NumField(); i++ {
		if f := typ.Field(i); f.Type == bt && f.IsExported() {
			out = append(out, keyAction{name: snakeCase(f.Name), field: i})
		}
	}
	return out
}()

// KeyActions returns the names of the actions the config file can bind.
func KeyActions() []string {
	names := make([]string, len(keyActions))
	for i, a := range keyActions {
		names[i] = a.name
	}
	return names
}

// snakeCase turns a Go field name (YankResume) into yank_resume.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// binding returns the binding of the named action, nil for an unknown name.
func (k *KeyMap) binding(name string) *key.Binding {
	for _, a := range keyActions {
		if a.name == name {
			return reflect.ValueOf(k).Elem().Field(a.field).Addr().Interface().(*key.Binding)
		}
	}
	return nil
}

// ConfigureKeys returns the default bindings with those of binds (action
// name → keys, as Bubble Tea names them: "ctrl+o", "alt+x", "f2", "E",
// "space") in their place; a key it binds is no longer a default action's.
// An unknown action, an empty key list, a name that is no key, or a key
// that two of its actions would share in one pane is an error naming them.
func ConfigureKeys(binds map[string][]string) (KeyMap, error) {
	k := DefaultKeyMap()
	if len(binds) == 0 {
		return k, nil
	}
	names := make([]string, 0, len(binds))
	for n := range binds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		b, keys := k.binding(name), binds[name]
		switch {
		case b == nil:
			return KeyMap{}, fmt.Errorf("unknown key action %q (the actions: %s)", name, strings.Join(KeyActions(), ", "))
		case len(keys) == 0:
			return KeyMap{}, fmt.Errorf("key action %q has no keys", name)
		}
		for _, s := range keys {
			if !isKeyName(s) {
				return KeyMap{}, fmt.Errorf("key action %q: %q is not a key (write them as \"ctrl+o\", \"alt+x\", \"f2\", \"E\")", name, s)
			}
		}
		keys = slices.Clone(keys)
		for i, s := range keys {
			if s == "space" {
				keys[i] = " " // what Bubble Tea calls it
			}
		}
		k.base[name] = keys
		*b = key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKeys(keys), b.Help().Desc))
	}
	// A key the file binds is taken from the default action that had it,
	// as fzf's --bind does: "resume": ["ctrl+o"] moves ctrl+o off the pager.
	for _, a := range keyActions {
		if _, mine := binds[a.name]; mine {
			continue
		}
		k.base[a.name] = slices.DeleteFunc(slices.Clone(k.base[a.name]), func(s string) bool {
			for _, n := range names {
				if slices.Contains(k.base[n], s) {
					return true
				}
			}
			return false
		})
		b := k.binding(a.name)
		*b = key.NewBinding(key.WithKeys(k.base[a.name]...), key.WithHelp(helpKeys(k.base[a.name]), b.Help().Desc))
	}
	if err := k.conflict(); err != nil {
		return KeyMap{}, err
	}
	return k, nil
}

// teaKeyNames are the names Bubble Tea gives the keys that are not text
// (tea.KeyMsg.String()), e.g. "ctrl+o", "pgdown", "f6".
var teaKeyNames = func() map[string]bool {
	names := map[string]bool{}
	for t := tea.KeyType(-200); t < 256; t++ {
		if s := t.String(); s != "" && t != tea.KeyRunes {
			names[s] = true
		}
	}
	return names
}()

// isKeyName reports whether s is what tea.KeyMsg.String() can give: a
// named key or one character, optionally after "alt+".
func isKeyName(s string) bool {
	s = strings.TrimPrefix(s, "alt+")
	if s == "space" {
		return true
	}
	return teaKeyNames[s] || (utf8.RuneCountInString(s) == 1 && unicode.IsPrint([]rune(s)[0]))
}

// helpKeys is how the help shows a key list.
func helpKeys(keys []string) string {
	shown := make([]string, len(keys))
	for i, s := range keys {
		switch {
		case s == "up":
			s = "↑"
		case s == "down":
			s = "↓"
		case s == "pgdown":
			s = "pgdn"
		case s == " ":
			s = "space"
		case len(s) > 1 && s[0] == 'f' && s[1] >= '0' && s[1] <= '9':
			s = "F" + s[1:]
		}
		shown[i] = s
	}
	return strings.Join(shown, "/")
}

// printable reports whether s is a key that types a character (a letter,
// a digit, a symbol, space): such keys edit the query wherever it is typed.
func printable(s string) bool {
	return s == "space" || utf8.RuneCountInString(s) == 1 && unicode.IsPrint([]rune(s)[0])
}

// typesText reports whether the search box takes s as text or an editing
// key, so that a binding of s is off while the box has focus.
func typesText(s string) bool {
	if printable(s) {
		return true
	}
	km := searchKeyMap()
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			for _, bk := range b.Keys() {
				if bk == s {
					return true
				}
			}
		}
	}
	return false
}

// conflict returns an error when one key would run two actions in a pane.
func (k KeyMap) conflict() error {
	for _, f := range []focus{focusSearch, focusList, focusDetail} {
		owner := map[string]string{}
		for _, a := range keyActions {
			for _, s := range liveKeys(a.name, k.base[a.name], f) {
				if o, ok := owner[s]; ok && o != a.name {
					return fmt.Errorf("key %q is bound to both %s and %s (in the %s pane)", s, o, a.name, paneName(f))
				}
				owner[s] = a.name
			}
		}
	}
	return nil
}

// paneName names a focus as the help and the README do.
func paneName(f focus) string {
	return [...]string{"search box", "list", "reading"}[f]
}
