package mcpserver

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// idScanner finds the top-level "id" of a JSON-RPC frame that cannot be
// decoded (too long, nested too deep, or broken further on), reading it
// in pieces and keeping only a few bytes: such a frame still deserves an
// error reply when its id can be read, or the client waits forever.
type idScanner struct {
	depth    int
	inString bool
	escaped  bool
	key      []byte // the top-level string being read, up to maxKey bytes
	keyLong  bool
	lastKey  string // the last top-level key read
	wantKey  bool   // the next top-level string is a key
	inValue  bool   // reading the value of top-level "id"
	value    []byte
	id       jsonrpc.ID
	found    bool
}

const (
	maxKey   = 8
	maxIDRaw = 1 << 10
)

// write feeds the next piece of the frame.
func (s *idScanner) write(p []byte) {
	for _, c := range p {
		if s.found {
			return
		}
		s.step(c)
	}
}

func (s *idScanner) step(c byte) {
	if s.inValue {
		s.valueByte(c)
		return
	}
	if s.inString {
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.inString = false
			if s.depth == 1 && s.wantKey {
				s.lastKey = ""
				if !s.keyLong {
					s.lastKey = string(s.key)
				}
				s.wantKey = false
			}
			return
		}
		if s.depth == 1 && s.wantKey {
			if len(s.key) < maxKey {
				s.key = append(s.key, c)
			} else {
				s.keyLong = true
			}
		}
		return
	}
	switch c {
	case '"':
		s.inString = true
		s.key, s.keyLong = s.key[:0], false
	case '{', '[':
		s.depth++
		if s.depth == 1 {
			s.wantKey = c == '{'
		}
	case '}', ']':
		s.depth--
	case ',':
		if s.depth == 1 {
			s.wantKey = true
			s.lastKey = ""
		}
	case ':':
		if s.depth == 1 && s.lastKey == "id" {
			s.inValue, s.value = true, s.value[:0]
		}
	}
}

// valueByte collects the id's value: a number or a string, which ends at
// the next top-level ',' or '}' outside a string.
func (s *idScanner) valueByte(c byte) {
	inStr := len(s.value) > 0 && s.value[0] == '"' && !stringClosed(s.value)
	if !inStr && (c == ',' || c == '}') {
		s.inValue = false
		var v any
		if json.Unmarshal(s.value, &v) == nil {
			if id, err := jsonrpc.MakeID(v); err == nil && id.IsValid() {
				s.id, s.found = id, true
			}
		}
		s.step(c)
		return
	}
	if len(s.value) >= maxIDRaw {
		s.inValue = false // no usable id is this long
		return
	}
	if len(s.value) == 0 && (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
		return
	}
	s.value = append(s.value, c)
}

// stringClosed reports whether v, which starts with a quote, holds the
// closing quote too.
func stringClosed(v []byte) bool {
	escaped := false
	for _, c := range v[1:] {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			return true
		}
	}
	return false
}

// scanID returns the top-level id of a whole frame, when it can be read.
func scanID(frame []byte) jsonrpc.ID {
	var s idScanner
	s.write(frame)
	return s.id
}
