package secrets

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSON text (tool calls, a model configuration) is redacted as any text,
// its escapes decoded, and stays JSON: a Mark holds no quote or backslash,
// so a secret inside one string literal is replaced in place. Should a
// secret span literals (a rule reading a key's name in one and its value
// in the next), the text is redacted literal by literal instead.

// JSON returns raw (JSON text) redacted and still valid when it was.
func JSON(raw string) string {
	var s Set
	return s.json(raw)
}

func (s *Set) json(raw string) string {
	out := s.Text(raw)
	if out == raw || json.Valid([]byte(out)) || !json.Valid([]byte(raw)) {
		return out
	}
	return s.literals(raw)
}

// literals redacts each string literal of valid JSON raw on its own.
func (s *Set) literals(raw string) string {
	var b strings.Builder
	prev := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(raw) {
			break
		}
		var v string
		if json.Unmarshal([]byte(raw[i:j+1]), &v) == nil {
			if red := s.Text(v); red != v {
				b.WriteString(raw[prev:i])
				b.Write(quote(red))
				prev = j + 1
			}
		}
		i = j
	}
	b.WriteString(raw[prev:])
	return b.String()
}

// quote encodes s as a JSON string literal, leaving <, > and & as they are.
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(b.Bytes(), "\n")
}
