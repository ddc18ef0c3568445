package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

func TestSanitize(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"plain":                {"hello, 世界 👋", "hello, 世界 👋"},
		"newline and tab kept": {"a\n\tb", "a\n\tb"},
		"csi colour":           {"\x1b[31mred\x1b[0m", "red"},
		"csi cursor move":      {"a\x1b[2J\x1b[10;20Hb", "ab"},
		"csi private":          {"\x1b[?1049hX\x1b[?25l", "X"},
		"osc title bel":        {"\x1b]0;pwned\x07text", "text"},
		"osc title st":         {"\x1b]2;pwned\x1b\\text", "text"},
		"osc 52 clipboard":     {"x\x1b]52;c;cm0gLXJmIH4=\x07y", "xy"},
		"osc 8 hyperlink":      {"\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "click"},
		"dcs":                  {"\x1bPq#0;2;0;0;0#0~~\x1b\\after", "after"},
		"apc pm sos":           {"\x1b_apc\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\ok", "ok"},
		"unterminated osc":     {"ok\x1b]0;never ends", "ok"},
		"two byte esc":         {"\x1bcreset\x1b7saved\x1b8", "resetsaved"},
		"window name (ESC k)":  {"a\x1bkPWNED\x1b\\b", "ab"},
		"charset esc":          {"\x1b(Bascii", "ascii"},
		"lone esc at end":      {"end\x1b", "end"},
		"8-bit csi":            {"a\u009b31mb", "ab"},
		"8-bit osc":            {"a\u009d0;t\u009cb", "ab"},
		"c1 controls":          {"a\u0085b\u0090x\u009cc", "abc"},
		"carriage return":      {"visible\rhidden\r\n", "visiblehidden\n"},
		"backspace bell del":   {"a\bb\x07c\x7fd", "abcd"},
		"nul":                  {"a\x00b", "ab"},
		"bidi override":        {"abc\u202edcba\u202c", "abcdcba"},
		"bidi isolates":        {"\u2066x\u2067y\u2068z\u2069", "xyz"},
		"bidi embeddings":      {"\u202ax\u202by\u202dz", "xyz"},
		"bidi marks":           {"a\u200fb\u200ec\u061cd", "abcd"},
		"invalid utf8":         {"a\xffb", "a\ufffdb"},
		"markers stripped":     {"a" + store.HighlightStart + "b" + store.HighlightEnd, "ab"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSanitizeSnippetKeepsMarkers(t *testing.T) {
	in := "x " + store.HighlightStart + "\x1b[31mhit\x1b[0m" + store.HighlightEnd + " y"
	want := "x " + store.HighlightStart + "hit" + store.HighlightEnd + " y"
	if got := SanitizeSnippet(in); got != want {
		t.Errorf("SanitizeSnippet = %q, want %q", got, want)
	}
	if string(MarkStart) != store.HighlightStart || string(MarkEnd) != store.HighlightEnd {
		t.Fatal("MarkStart/MarkEnd differ from the store's highlight markers")
	}
}

// safe reports whether s is free of everything Sanitize must remove.
func safe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c ||
			r == MarkStart || r == MarkEnd {
			return false
		}
	}
	return true
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mx", "\x1b]52;c;AAAA\x07", "\u009b1m", "a\rb", "\u202e", "\xff\xfe", "\x1bP", "\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Sanitize(s)
		if !safe(got) {
			t.Fatalf("Sanitize(%q) = %q still holds control characters", s, got)
		}
		if again := Sanitize(got); again != got {
			t.Fatalf("Sanitize is not idempotent: %q -> %q -> %q", s, got, again)
		}
		if len(got) > len(s)*3 {
			t.Fatalf("Sanitize grew %d bytes to %d", len(s), len(got))
		}
		if snip := SanitizeSnippet(s); strings.ContainsRune(snip, '\x1b') {
			t.Fatalf("SanitizeSnippet(%q) kept an ESC", s)
		}
	})
}

func TestSanitizeStyled(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"sgr kept":           {"\x1b[38;5;252mtext\x1b[0m", "\x1b[38;5;252mtext\x1b[0m"},
		"osc title dropped":  {"\x1b[1mx\x1b]0;pwned\x07y\x1b[0m", "\x1b[1mxy\x1b[0m"},
		"osc 52 dropped":     {"a\x1b]52;c;cm0gLXJmIH4=\x1b\\b", "ab"},
		"cursor csi dropped": {"a\x1b[2J\x1b[Hb", "ab"},
		"private csi":        {"\x1b[?1049h\x1b[>4;2m", ""},
		"markers kept":       {"\ue000hit\ue001", "\ue000hit\ue001"},
		"controls":           {"a\rb\x07c\u009b2Jd", "abcd"},
		"bidi":               {"x\u202ey", "xy"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := SanitizeStyled(tc.in); got != tc.want {
				t.Errorf("SanitizeStyled(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
