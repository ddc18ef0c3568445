package lines

import (
	"fmt"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	long := strings.Repeat("x", 300<<10) // longer than the buffer
	in := "\xef\xbb\xbf{\"a\":1}\r\n\n" + long + "\n{\"torn\""
	r := NewReader(strings.NewReader(in), 0, 0)
	var got []string
	for r.Next() {
		l := r.Line()
		got = append(got, fmt.Sprintf("%d:%d-%d:%v:%d", l.No, l.Start, l.End, l.Terminated, len(l.Text)))
		if l.No == 1 && string(l.Text) != `{"a":1}` {
			t.Errorf("line 1 = %q (BOM and CR not stripped)", l.Text)
		}
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	n := int64(len(long))
	want := []string{"1:0-12:true:7", "2:12-13:true:0", fmt.Sprintf("3:13-%d:true:%d", 14+n, n), fmt.Sprintf("4:%d-%d:false:7", 14+n, 21+n)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	// Resuming at an offset numbers lines after the base.
	r = NewReader(strings.NewReader("{}\n"), 100, 7)
	if !r.Next() || r.Line().No != 8 || r.Line().Start != 100 || r.Line().End != 103 {
		t.Errorf("resumed line = %+v", r.Line())
	}
	if !Blank([]byte(" \t")) || Blank([]byte(" x")) {
		t.Error("Blank")
	}
}
