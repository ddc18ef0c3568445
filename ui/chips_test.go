package ui

import (
	"testing"

	"github.com/recall-dev/recall/recall"
)

// The status line's chips say how a plain query was read: the date, a
// replaced typo, and how many words the top session holds when not all.
func TestSearchChips(t *testing.T) {
	cases := []struct {
		d    recall.Discovery
		want string
	}{
		{recall.Discovery{}, ""},
		{recall.Discovery{Words: []string{"docker", "network"}, Results: []recall.Result{{Matched: []string{"docker", "network"}}}}, ""},
		{recall.Discovery{Words: []string{"docker", "network"}, Results: []recall.Result{{Matched: []string{"docker"}}}}, "top matched 1 of 2 words"},
		{recall.Discovery{Words: []string{"deploy"}, DateFilter: "May 2023", Suggestion: "no match for a word, searched instead: dpeloy → deploy",
			Results: []recall.Result{{Matched: []string{"deploy"}}}}, "date:May 2023 · searched dpeloy → deploy"},
	}
	for _, c := range cases {
		if got := searchChips(&c.d); got != c.want {
			t.Errorf("searchChips(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}
