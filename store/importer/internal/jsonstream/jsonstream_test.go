package jsonstream

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCaptureRoundTrip: a captured value decodes to what the whole text
// decodes to, read in one piece or a byte at a time.
func TestCaptureRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"a": [1, 2.5e3, -0, true, false, null], "b": {"c": "d\"e\\f\u00e9\n"}, "": []}`,
		`  [ ]`,
		`"plain"`,
		`12345`,
		`[{"x":[[[[]]]]},"\ud83d\ude00","tab\tbed"]`,
		"\xef\xbb\xbf{\"bom\": 1}",
	} {
		for _, oneByte := range []bool{false, true} {
			var src io.Reader = strings.NewReader(in)
			if oneByte {
				src = iotest.OneByteReader(src)
			}
			rd := NewReader(src)
			raw, err := rd.Capture(nil, 0, 0)
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			var got, want any
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("%q captured as %q: %v", in, raw, err)
			}
			_ = json.Unmarshal([]byte(strings.TrimPrefix(in, "\xef\xbb\xbf")), &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q: captured %q", in, raw)
			}
			if _, err := rd.Peek(); err != io.EOF {
				t.Errorf("%q: after the value: %v, want EOF", in, err)
			}
		}
	}
}

// TestOversize: a string over the limit is never held: it reads as a
// placeholder that says how long it was, raw or copied into other JSON.
func TestOversize(t *testing.T) {
	long := strings.Repeat("a", 1000) + `\"` + strings.Repeat("b", 998)
	in := `{"id":"x","text":"` + long + `","n":1}`
	rd := NewReader(iotest.HalfReader(strings.NewReader(in)))
	raw, err := rd.Capture(nil, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > 100 {
		t.Errorf("captured %d bytes: %q", len(raw), raw)
	}
	var v struct{ ID, Text string }
	if err := json.Unmarshal(raw, &v); err != nil || v.ID != "x" {
		t.Fatalf("%q: %v", raw, err)
	}
	for _, s := range []string{v.Text, "before " + v.Text + " after", string(raw)} {
		n, ok := Oversize(s)
		extra := int64(len(s) - len(v.Text))
		if s == string(raw) {
			extra = int64(len(raw)) - int64(len(`\u0000recall:oversize:2000\u0000`))
		}
		if !ok || n != 2000+extra {
			t.Errorf("Oversize(%q) = %d, %v; want %d", s, n, ok, 2000+extra)
		}
	}
	if n, ok := Oversize("short text"); ok || n != 10 {
		t.Errorf("Oversize of plain text = %d, %v", n, ok)
	}
}

// TestBudget: strings past the budget become placeholders; structure past
// it ends the value with ErrBudget, read to its end so the stream goes on.
func TestBudget(t *testing.T) {
	in := `[{"a":"` + strings.Repeat("x", 50) + `","b":"` + strings.Repeat("y", 50) + `"},` +
		`[` + strings.Repeat("1,", 500) + `1],"next"]`
	rd := NewReader(strings.NewReader(in))
	it := rd.Array()
	var got []string
	var errs []error
	for it.Next() {
		raw, err := rd.Capture(nil, 0, 80)
		got, errs = append(got, string(raw)), append(errs, err)
	}
	if it.Err() != nil || len(got) != 3 {
		t.Fatalf("%v, %q", it.Err(), got)
	}
	if errs[0] != nil || !strings.Contains(got[0], strings.Repeat("x", 50)) || !strings.Contains(got[0], "oversize:50") {
		t.Errorf("first: %q, %v", got[0], errs[0])
	}
	if !errors.Is(errs[1], ErrBudget) || len(got[1]) > 200 {
		t.Errorf("second: %d bytes, %v", len(got[1]), errs[1])
	}
	if errs[2] != nil || got[2] != `"next"` {
		t.Errorf("third: %q, %v", got[2], errs[2])
	}
}

// TestObjectWalk: members come with their keys (decoded as encoding/json
// decodes them); values can be skipped or captured in any mix.
func TestObjectWalk(t *testing.T) {
	in := `{"a": 1, "b\u00e9": {"deep": [1, {"x": "}"}]}, "c" : "three", "bad` + "\xff" + `": 4}`
	rd := NewReader(strings.NewReader(in))
	it := rd.Object()
	var keys []string
	for it.Next() {
		keys = append(keys, it.Key())
		if it.Key() == "c" {
			raw, err := rd.Capture(nil, 0, 0)
			if err != nil || string(raw) != `"three"` {
				t.Errorf("c = %q, %v", raw, err)
			}
		} else if err := rd.Skip(); err != nil {
			t.Fatal(err)
		}
	}
	if it.Err() != nil || !reflect.DeepEqual(keys, []string{"a", "bé", "c", "bad\ufffd"}) {
		t.Errorf("keys %q, %v", keys, it.Err())
	}
}

// TestSyntaxErrors: JSON that cannot be followed says where it broke.
func TestSyntaxErrors(t *testing.T) {
	for _, in := range []string{
		`[1, 2`,
		`{"a": [1}`,
		`{"a" 1}`,
		`[1 2]`,
		`{1: 2}`,
		`"unterminated`,
		strings.Repeat("[", MaxDepth+1),
		`[` + strings.Repeat("9", maxScalar+1) + `]`,
		"[\x01]",
	} {
		rd := NewReader(strings.NewReader(in))
		var err error
		switch in[0] {
		case '[', '{':
			it := rd.open(in[0], in[0]+2)
			for it.Next() {
				if err = rd.Skip(); err != nil {
					break
				}
			}
			if err == nil {
				err = it.Err()
			}
		default:
			err = rd.Skip()
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset <= 0 || se.Offset > int64(len(in)) {
			t.Errorf("%.40q: %v, want a SyntaxError with an offset", in, err)
		}
	}
}

// TestTee: the bytes of one value, exactly as they were in the text.
func TestTee(t *testing.T) {
	in := `[ {"a" : [1,  2]} , {"b":"c"}]`
	rd := NewReader(strings.NewReader(in))
	it := rd.Array()
	var got []string
	for it.Next() {
		if _, err := rd.Peek(); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		rd.Tee(&b)
		if err := rd.Skip(); err != nil {
			t.Fatal(err)
		}
		rd.Tee(nil)
		got = append(got, b.String())
	}
	if !reflect.DeepEqual(got, []string{`{"a" : [1,  2]}`, `{"b":"c"}`}) {
		t.Errorf("%q", got)
	}
}
