package query

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sanitiserCases are testdata/sanitiser.txt: what a user may type
// (Hermes-pinned cases, then half-typed input) and the FTS5 expression
// Parse + Render(FTSTerm) must produce.
func sanitiserCases(t *testing.T) []struct{ in, want string } {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sanitiser.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []struct{ in, want string }
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		var err1, err2 error
		if ok {
			in, err1 = strconv.Unquote(in)
			want, err2 = strconv.Unquote(want)
		}
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("sanitiser.txt: malformed line %q", line)
		}
		out = append(out, struct{ in, want string }{in, want})
	}
	return out
}

func TestParseQuery(t *testing.T) {
	for _, tc := range sanitiserCases(t) {
		q := Parse(tc.in, []string{"content"}, false)
		if got := q.Render(FTSTerm); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if tc.in == "C++" || tc.in == "c++" {
			got := q.Render(FTSTerm)
			if strings.Contains(strings.Trim(got, `"`), `"`) || !strings.HasPrefix(got, `"`) {
				t.Errorf("%q: a bare + may reach FTS5: %s", tc.in, got)
			}
		}
	}
	// Typing turns the last bare word into a prefix, never a quoted phrase or a word followed by a space.
	for in, want := range map[string]string{"dock": `"dock"*`, "dock ": `"dock"`, `"dock"`: `"dock"`, "a b": `"a" "b"*`} {
		if got := Parse(in, nil, true).Render(FTSTerm); got != want {
			t.Errorf("typing %q = %s, want %s", in, got, want)
		}
	}
	// Hermes: a 300k-character adversarial string is capped and handled.
	long := strings.Repeat(`"a(b* OR -:^ `, 25000)
	if q := Parse(long, nil, true); len(q.Toks) > MaxRunes {
		t.Errorf("%d tokens from a capped query", len(q.Toks))
	}
}
