package collect

import (
	"math/rand"
	"slices"
	"testing"
)

// TestTopN: the m best of a list, best first, are the first m of the list
// sorted, for every m around the list's length and with many ties (broken
// by the row, as Scored.Better breaks them).
func TestTopN(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 200; trial++ {
		all := make([]Scored, rng.Intn(60))
		for i := range all {
			all[i] = Scored{Rowid: int64(i), Score: float64(rng.Intn(8))}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		want := slices.Clone(all)
		slices.SortFunc(want, func(a, b Scored) int {
			switch {
			case a.Better(b):
				return -1
			case b.Better(a):
				return 1
			}
			return 0
		})
		for m := 0; m <= len(all)+1; m++ {
			got := TopN(slices.Clone(all), m, Scored.Better)
			if !slices.Equal(got, want[:min(m, len(want))]) {
				t.Fatalf("TopN(%d of %d) = %v, want %v", m, len(all), got, want[:min(m, len(want))])
			}
		}
	}
}
