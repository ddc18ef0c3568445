// Package termtext is the one place recall turns stored (untrusted) text into
// text for a terminal: the sanitizer every screen and every TTY print goes
// through, and the small shared helpers for one-line text and relative times.
package termtext

import (
	"strings"
	"unicode/utf8"
)

// Stored text is untrusted: a transcript may contain terminal escape
// sequences (a tool printed colours, or someone planted an OSC 52 clipboard
// write or a title change), carriage returns that overwrite a line, or bidi
// overrides that reorder what the reader sees. Everything that comes from the
// store passes through Sanitize before it reaches the screen; only the UI's
// own styling emits escape sequences.

// Sanitize returns s with terminal control sequences (CSI, OSC, DCS, SOS, PM,
// APC and two-byte ESC sequences, in their 7-bit and 8-bit forms), C0 and C1
// control characters other than newline and tab, carriage returns, bidi
// embedding/override/isolate characters and marks (LRM, RLM, ALM), and the snippet highlight markers
// removed, and invalid UTF-8 replaced by U+FFFD.
func Sanitize(s string) string { return sanitize(s, false, false) }

// SanitizeSnippet is Sanitize but keeps store.HighlightStart/HighlightEnd,
// which the store puts into snippets on purpose.
func SanitizeSnippet(s string) string { return sanitize(s, true, false) }

// SanitizeStyled is for text our own renderers styled from stored text
// (Glamour's output): it keeps SGR sequences (colours, bold, reverse) and the
// highlight markers, and removes everything Sanitize removes, so a sequence
// a renderer decoded from its input (an HTML entity such as &#27;, a JSON
// escape such as \u001b) cannot reach the terminal either. It is the last
// step before the screen.
func SanitizeStyled(s string) string { return sanitize(s, true, true) }

// isSGR reports whether the body of a CSI sequence (after ESC [) is a plain
// SGR: digits, ';' and ':' ending in 'm'. Private or intermediate forms are
// not SGR and are dropped.
func isSGR(body string) bool {
	if body == "" || body[len(body)-1] != 'm' {
		return false
	}
	return strings.Trim(body[:len(body)-1], "0123456789;:") == ""
}

// sanitize is the one loop behind the three: keepMarks keeps the highlight
// markers, keepSGR the SGR sequences.
func sanitize(s string, keepMarks, keepSGR bool) string {
	if clean(s, keepMarks) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if keepSGR && s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			end := skipCSI(s, i+2)
			if isSGR(s[i+2 : end]) {
				b.WriteString(s[i:end])
			}
			i = end
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b:
			i = skipEscape(s, i+1)
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, i+size)
		case r == 0x9d, r == 0x90, r == 0x98, r == 0x9e, r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
		case dropRune(r, keepMarks):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// clean reports whether s needs no change; the common case costs one scan.
func clean(s string, keepMarks bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || dropRune(r, keepMarks) || (r >= 0x80 && r <= 0x9f) {
			return false
		}
		i += size
	}
	return true
}

// dropRune reports whether r is removed on its own (not as part of a sequence).
func dropRune(r rune, keepMarks bool) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f: // C0 controls (BEL, BS, CR, ...) and DEL
		return true
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c: // LRM, RLM, ALM: invisible, they reorder neutral text around them
		return true
	case !keepMarks && (r == MarkStart || r == MarkEnd):
		return true
	}
	return false
}

// MarkStart and MarkEnd are store.HighlightStart and store.HighlightEnd as
// runes (sanitize_test checks they agree).
const (
	MarkStart = '\ue000'
	MarkEnd   = '\ue001'
)

// skipEscape skips what follows an ESC at s[i:] and returns the next index.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_' || c == 'k':
		// OSC, DCS, SOS, PM, APC, and screen's and tmux's ESC k (window name).
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f: // intermediates, then one final byte (ESC ( B)
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e: // two-byte sequence (ESC c, ESC 7, ESC =)
		return i + 1
	}
	return i // a lone ESC: drop it, keep what follows
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string (OSC, DCS, ...) up to and including its
// terminator: BEL, ESC \ or the 8-bit ST. An unterminated one runs to the end,
// as it would swallow the rest of the output in a terminal.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}
