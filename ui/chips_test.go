package ui

import (
	"testing"

	"github.com/recall-dev/recall/recall"
)

// The status line's chips say how a plain query was read: the date, a
// replaced typo, how many words the top session holds when not all, and
// the store's notice when a ranking covered part of the matches.
func TestSearchChips(t *testing.T) {
	cases := []struct {
		d    recall.Discovery
		want string
	}{
		{recall.Discovery{}, ""},
		{recall.Discovery{Words: []string{"docker", "network"}, Results: []recall.Result{{Matched: []string{"docker", "network"}}}}, ""},
		{recall.Discovery{Words: []string{"docker", "network"}, Results: []recall.Result{{Matched: []string{"docker"}}}}, "top matched 1 of 2 words"},
		{recall.Discovery{Words: []string{"deploy"}, DateFilter: "May 2023", Suggestion: "no match for a word, searched instead: dpeloy → deploy",
			Results: []recall.Result{{Matched: []string{"deploy"}}}}, "date:May 2023 · searched instead: dpeloy → deploy"},
		// A ranking over part of the matches says so, for any query.
		{recall.Discovery{Notice: "ranked the newest 1000 matches only (this file's index or this query is one recall cannot rank in full): an older match may rank higher"},
			"ranked the newest 1000 matches only (this file's index or this query is one recall cannot rank in full): an older match may rank higher"},
	}
	for _, c := range cases {
		if got := searchChips(&c.d); got != c.want {
			t.Errorf("searchChips(%+v) = %q, want %q", c.d, got, c.want)
		}
	}
}
