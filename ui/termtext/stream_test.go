package termtext

import (
	"strings"
	"testing"
)

// A sequence cut between two pieces is removed whole: Sanitize on each
// piece alone left the tail of an OSC ("tle") on the screen.
func TestStream(t *testing.T) {
	tests := map[string]struct {
		pieces []string
		want   string
	}{
		"osc split in its body":      {[]string{"before \x1b]0;ti", "tle\x07 after"}, "before  after"},
		"osc split in its ST":        {[]string{"a\x1b]52;c;aGk=\x1b", "\\b"}, "ab"},
		"osc split after ESC":        {[]string{"a\x1b", "]0;x\x07b"}, "ab"},
		"csi split in its params":    {[]string{"red \x1b[3", "1mtext"}, "red text"},
		"8-bit osc split":            {[]string{"a\u009d0;t", "itle\u009cb"}, "ab"},
		"utf-8 character split":      {[]string{"数据\xe5\xba", "\x93"}, "数据库"},
		"rlm":                        {[]string{"x\u200f", "y"}, "xy"},
		"unterminated at the end":    {[]string{"ok \x1b]0;never ends"}, "ok "},
		"plain pieces pass straight": {[]string{"one ", "two"}, "one two"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var s Stream
			var out strings.Builder
			for _, p := range tc.pieces {
				out.WriteString(s.Write(p))
			}
			out.WriteString(s.Flush())
			if out.String() != tc.want {
				t.Errorf("got %q, want %q", out.String(), tc.want)
			}
		})
	}
	// Held text stays bounded under a control string that never ends.
	var s Stream
	s.Write("\x1b]0;")
	for range 100 {
		if out := s.Write(strings.Repeat("x", 10000)); out != "" {
			t.Fatalf("text of an unterminated OSC was printed: %.40q", out)
		}
	}
	if len(s.held) > 2*maxHeld {
		t.Errorf("held %d bytes", len(s.held))
	}
	if out := s.Write("\x07visible"); out != "visible" {
		t.Errorf("after the terminator: %q", out)
	}
}
