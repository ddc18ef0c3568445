package export

import (
	"bytes"
	"testing"
)

// TestSpoolReturnsToMemory: a conversation too large for memory goes to the
// temporary file; the next one starts in memory again (the file stays open
// for the import's next large one), and each reads back what was written.
func TestSpoolReturnsToMemory(t *testing.T) {
	defer func(n int) { spoolInMemory = n }(spoolInMemory)
	spoolInMemory = 16
	var s spool
	defer s.close()
	for i, c := range []struct {
		parts [][]byte
		disk  bool
	}{
		{[][]byte{[]byte("0123456789"), []byte("abcdefghij")}, true},
		{[][]byte{[]byte("small")}, false},
		{[][]byte{bytes.Repeat([]byte("x"), 40)}, true},
		{[][]byte{[]byte("tiny")}, false},
	} {
		if err := s.reset(); err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, p := range c.parts {
			if _, err := s.append(p); err != nil {
				t.Fatal(err)
			}
			want = append(want, p...)
		}
		if s.disk != c.disk {
			t.Errorf("conversation %d: on disk %v, want %v", i, s.disk, c.disk)
		}
		got := make([]byte, len(want))
		if err := s.readAt(got, 0); err != nil || !bytes.Equal(got, want) {
			t.Errorf("conversation %d read back %q, %v; want %q", i, got, err, want)
		}
	}
}
