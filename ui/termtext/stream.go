package termtext

import "unicode/utf8"

// Stream sanitises text that arrives in pieces, as a model's answer does:
// an escape sequence (or a UTF-8 character) cut between two pieces is held
// back until it is whole, so an OSC split over two deltas is removed whole
// instead of leaving its tail on the screen. The zero value is ready.
type Stream struct {
	held string
}

// maxHeld bounds what an unterminated control string keeps held: only its
// start matters (the rest is dropped whatever it says).
const maxHeld = 64 << 10

// Write returns the sanitised text that is complete so far.
func (s *Stream) Write(piece string) string {
	text := s.held + piece
	k := holdFrom(text)
	s.held = text[k:]
	if len(s.held) > maxHeld {
		s.held = s.held[:introLen(s.held)]
	}
	return Sanitize(text[:k])
}

// Flush returns what is held, sanitised (an unterminated sequence is
// dropped, a cut character becomes U+FFFD), and starts afresh.
func (s *Stream) Flush() string {
	out := Sanitize(s.held)
	s.held = ""
	return out
}

// holdFrom returns where the unfinished end of s starts: an escape sequence
// that has not ended, or a cut UTF-8 character; len(s) when nothing is.
func holdFrom(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 && !utf8.FullRuneInString(s[i:]):
			return i // a character cut at the end
		case r == 0x1b || r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			end, complete := seqEnd(s, i, r, size)
			if !complete {
				return i
			}
			i = end
		default:
			i += size
		}
	}
	return len(s)
}

// seqEnd finds the end of the sequence introduced at s[i] (rune r of size
// bytes) and whether it is whole: something follows it, or it ends with its
// final byte or terminator.
func seqEnd(s string, i int, r rune, size int) (end int, complete bool) {
	kind, body := r, i+size
	if r == 0x1b {
		if i+1 >= len(s) {
			return len(s), false
		}
		switch c := s[i+1]; {
		case c == '[':
			kind = 0x9b
		case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_' || c == 'k':
			kind = 0x9d
		default:
			end = skipEscape(s, i+1)
			if end < len(s) {
				return end, true
			}
			last := s[end-1]
			return end, end > i+1 && last >= 0x30 && last <= 0x7e
		}
		body = i + 2
	}
	if kind == 0x9b { // CSI
		end = skipCSI(s, body)
		return end, end < len(s) || (end > body && s[end-1] >= 0x40 && s[end-1] <= 0x7e)
	}
	end = skipString(s, body) // OSC, DCS, SOS, PM, APC
	if end < len(s) {
		return end, true
	}
	t := s[body:end]
	terminated := len(t) > 0 && (t[len(t)-1] == 0x07 || hasSuffix(t, "\x1b\\") || hasSuffix(t, "\u009c"))
	return end, terminated
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// introLen is the length of the introducer at the start of s (ESC ] or the
// 8-bit form), kept when a held control string is cut back.
func introLen(s string) int {
	if len(s) >= 2 && s[0] == 0x1b {
		return 2
	}
	_, size := utf8.DecodeRuneInString(s)
	return size
}
