package sessionsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClipText: a clip keeps about n characters, around the focus term when
// it occurs (a quarter of the way in), marks each cut with what it left
// out, and never splits a character.
func TestClipText(t *testing.T) {
	long := strings.Repeat("a", 1000) + "NEEDLE" + strings.Repeat("中", 1000)
	for _, tc := range []struct {
		name, s, focus string
		n              int
		clipped        bool
		has            []string
	}{
		{"fits", "short text", "", 100, false, []string{"short text"}},
		{"head", long, "", 100, true, []string{"aaaa", "…[+1906 chars]"}},
		{"focus", long, "needle", 100, true, []string{"[975 chars]…", "NEEDLE", "中中", "…[+931 chars]"}},
		{"focus absent", long, "haystack", 100, true, []string{"…[+1906 chars]"}},
		{"focus at the end", strings.Repeat("x", 500) + "END", "end", 40, true, []string{"[463 chars]…", "END"}},
	} {
		got, clipped := clipText(tc.s, tc.n, tc.focus)
		if clipped != tc.clipped || !utf8.ValidString(got) {
			t.Errorf("%s: clipped %v, valid %v", tc.name, clipped, utf8.ValidString(got))
		}
		for _, h := range tc.has {
			if !strings.Contains(got, h) {
				t.Errorf("%s: %q lacks %q", tc.name, got, h)
			}
		}
		if clipped && utf8.RuneCountInString(got) > tc.n+40 {
			t.Errorf("%s: %d characters for n=%d", tc.name, utf8.RuneCountInString(got), tc.n)
		}
	}
	if f := focusTerm("I recreated the >>>overlay<<< >>>network<<<"); f != "overlay" {
		t.Errorf("focusTerm = %q", f)
	}
}

// TestProjection: a projection keeps the named keys of each result in
// output order and leaves the envelope alone.
func TestProjection(t *testing.T) {
	env := &Discover{Success: true, Mode: "discover", Query: "q", Results: []Result{{SessionID: "s1", Snippet: "x <b> & y", Hits: 2}}, Count: 1}
	got := string(newProjection([]string{"hits", "session_id"}).render(env, false))
	want := `{"success":true,"mode":"discover","query":"q","results":[{"session_id":"s1","hits":2}],"count":1,"sessions_searched":0,"index":""}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if all := string(newProjection(nil).render(env, false)); !strings.Contains(all, `"snippet":"x <b> & y"`) {
		t.Errorf("no projection, HTML unescaped: %s", all)
	}
}
