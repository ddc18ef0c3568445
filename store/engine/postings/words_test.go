package postings

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/recall-dev/recall/store/fts5idx"
)

// intersectRows against a plain set intersection, over lists of very
// different lengths and densities (the galloping seek's edges).
func TestIntersectRows(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(4)
		lists := make([][]fts5idx.Posting, n)
		count := map[int64]int{}
		for i := range lists {
			size, span := rng.Intn(200), 1+rng.Intn(400)
			seen := map[int64]bool{}
			for k := 0; k < size; k++ {
				id := int64(rng.Intn(span))
				if !seen[id] {
					seen[id] = true
					lists[i] = append(lists[i], fts5idx.Posting{Rowid: id})
					count[id]++
				}
			}
			slices.SortFunc(lists[i], func(a, b fts5idx.Posting) int { return int(a.Rowid - b.Rowid) })
		}
		var want []int64
		for id, c := range count {
			if c == n {
				want = append(want, id)
			}
		}
		slices.Sort(want)
		if got := intersectRows(lists); !slices.Equal(got, want) {
			t.Fatalf("trial %d: got %v, want %v", trial, got, want)
		}
	}
}
