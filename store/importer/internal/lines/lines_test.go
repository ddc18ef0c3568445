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

// TestReaderLimit: a line past the limit is read past and handed out
// TooLong, without text, with its true size and offsets, and the lines
// after it read as usual; an unterminated one says so.
func TestReaderLimit(t *testing.T) {
	long := strings.Repeat("x", 5000)
	in := "a\n" + long + "\r\nb\n" + strings.Repeat("y", 1002) + "\n" + long
	r := NewReader(strings.NewReader(in), 0, 0)
	r.SetLimit(1000)
	var got []string
	for r.Next() {
		l := r.Line()
		got = append(got, fmt.Sprintf("%d:%d-%d:%v:%v:%q", l.No, l.Start, l.End, l.Terminated, l.TooLong, l.Text))
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	want := []string{
		`1:0-2:true:false:"a"`,
		`2:2-5004:true:true:""`,
		`3:5004-5006:true:false:"b"`,
		`4:5006-6009:true:true:""`, // 1,002 bytes of text: past the 1,000 limit
		`5:6009-11009:false:true:""`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// At the limit exactly, the line is whole.
	r = NewReader(strings.NewReader(strings.Repeat("z", 1000)+"\r\n"), 0, 0)
	r.SetLimit(1000)
	if !r.Next() || r.Line().TooLong || len(r.Line().Text) != 1000 {
		t.Errorf("a line of exactly the limit: %+v", r.Line())
	}
}
