package secrets

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Text is redacted as a person or a model reads it, not as it is stored:
// tool-call arguments are JSON inside JSON (every quote escaped twice), a
// JSON document in a tool's output escapes its quotes, and an agent may
// write a key as \u0073k_live_…. The rules look for a quote, a space or a
// `;` after a key, which `\"` is not, and for `sk_live_`, which
// `\u0073k_live_` is not. So each text is also scanned with its JSON
// string escapes decoded, up to maxDecode levels, and what is found there
// is replaced in the stored text, escapes and all.

// maxDecode is how many levels of escaping are undone: arguments inside a
// tool call inside an exported JSON document are three.
const maxDecode = 3

// decoded is a text with its escapes undone and, for each of its bytes,
// where that byte's source starts in the original: from[i] for byte i,
// from[len(text)] = len(original). A span [a, b) of text is the span
// [from[a], from[b]) of the original.
type decoded struct {
	text string
	from []int32
}

// decodeEscapes undoes up to maxDecode levels of JSON string escapes in s;
// ok is false when s has none (the text as stored is the text as read).
func decodeEscapes(s string) (d decoded, ok bool) {
	cur := s
	var from []int32
	for range maxDecode {
		next, f, changed := decodeOnce(cur)
		if !changed {
			break
		}
		if from == nil {
			from = f
		} else {
			// Compose: a byte of next comes from byte f[i] of cur, which
			// comes from from[f[i]] of s.
			for i, p := range f {
				f[i] = from[p]
			}
			from = f
		}
		cur, ok = next, true
	}
	return decoded{text: cur, from: from}, ok
}

// decodeOnce undoes one level of JSON string escapes (\" \\ \/ \b \f \n
// \r \t \uXXXX, surrogate pairs joined). Anything else after a backslash
// is kept as it is: the text need not be JSON.
func decodeOnce(s string) (string, []int32, bool) {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s, nil, false
	}
	var b strings.Builder
	b.Grow(len(s))
	from := make([]int32, 0, len(s)+1)
	emit := func(src int, text string) {
		for range len(text) {
			from = append(from, int32(src))
		}
		b.WriteString(text)
	}
	start := 0
	changed := false
	for i >= 0 {
		i += start
		for p := start; p < i; p++ {
			from = append(from, int32(p))
		}
		b.WriteString(s[start:i])
		n, text := escapeAt(s, i)
		if n == 0 {
			// Not an escape: keep the backslash, go on after it.
			emit(i, `\`)
			start = i + 1
		} else {
			emit(i, text)
			start = i + n
			changed = true
		}
		i = strings.IndexByte(s[start:], '\\')
	}
	for p := start; p < len(s); p++ {
		from = append(from, int32(p))
	}
	b.WriteString(s[start:])
	from = append(from, int32(len(s)))
	return b.String(), from, changed
}

// escapeAt reads the escape at s[i] (a backslash): its length and what it
// stands for, or 0 when it is not a JSON escape.
func escapeAt(s string, i int) (int, string) {
	if i+1 >= len(s) {
		return 0, ""
	}
	switch c := s[i+1]; c {
	case '"', '\\', '/':
		return 2, string(c)
	case 'b':
		return 2, "\b"
	case 'f':
		return 2, "\f"
	case 'n':
		return 2, "\n"
	case 'r':
		return 2, "\r"
	case 't':
		return 2, "\t"
	case 'u':
		r, ok := hex4(s, i+2)
		if !ok {
			return 0, ""
		}
		if utf16.IsSurrogate(r) {
			if i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if r2, ok := hex4(s, i+8); ok {
					if pr := utf16.DecodeRune(r, r2); pr != utf8.RuneError {
						return 12, string(pr)
					}
				}
			}
			return 6, string(utf8.RuneError)
		}
		return 6, string(r)
	}
	return 0, ""
}

// hex4 reads four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+4], 16, 16)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}
