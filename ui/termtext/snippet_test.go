package termtext

import (
	"strings"
	"testing"
)

func TestAroundHit(t *testing.T) {
	m := func(s string) string { return string(MarkStart) + s + string(MarkEnd) }
	long := strings.Repeat("x", 250)
	for _, tc := range []struct {
		name, in string
		w        int
		want     string
	}{
		{"fits", "a " + m("hit") + " b", 20, "a " + m("hit") + " b"},
		{"cut after", "the " + m("stripe") + "_id since sqlc embeds it", 16, "the " + m("stripe") + "_id s…"},
		{"cut inside the hit", "see " + m("stripe") + " now", 7, "… " + m("stri") + "…"},
		{"the hit far right", strings.Repeat("word ", 20) + m("hit") + " end", 20, "…word " + m("hit") + " end"},
		{"a hit longer than the line", m(long), 10, m("xxxxxxxxx") + "…"},
		{"a long token before the hit", long + " " + m("needle") + " after", 20, "…xxxx " + m("needle") + " after"},
		{"wide characters", "数据库" + m("索引") + "优化很重要的事情", 12, "…库" + m("索引") + "优化…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AroundHit(tc.in, tc.w)
			if got != tc.want {
				t.Errorf("AroundHit(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
			}
			if pw := plainWidth(got); pw > tc.w {
				t.Errorf("%d cells, more than %d", pw, tc.w)
			}
			if strings.Count(got, string(MarkStart)) != strings.Count(got, string(MarkEnd)) {
				t.Errorf("unbalanced markers in %q", got)
			}
		})
	}
}
