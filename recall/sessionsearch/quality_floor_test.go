package sessionsearch

import (
	"testing"
)

// The search quality floors: the figures last reported (BENCHMARKS.md,
// "Search quality"), which a change to ranking must keep. The judged set
// needs only the demo history and runs in the quick loop; LoCoMo and
// coding-dev need their datasets (never part of the project) and run with
// the heavy tag (quality_floor_heavy_test.go).

// floor is a set's lowest acceptable session recall, in percent, at 1
// and 5.
type floor struct{ r1, r5 float64 }

// checkFloor fails when sb falls below fl.
func checkFloor(t *testing.T, name string, sb *scoreboard, fl floor) {
	t.Helper()
	p := func(k int) float64 { return 100 * float64(k) / float64(sb.n) }
	if sb.n == 0 {
		t.Fatalf("%s: no query was scored", name)
	}
	if p(sb.r1) < fl.r1-1e-9 || p(sb.r5) < fl.r5-1e-9 {
		t.Errorf("%s: R@1 %.1f %%, R@5 %.1f %%; the floor is %.1f / %.1f (%s)", name, p(sb.r1), p(sb.r5), fl.r1, fl.r5, sb)
	}
}

// TestJudgedFloor: the demo history's judged coding queries keep their
// first sessions (44 of 45 first, every one in the top 5).
func TestJudgedFloor(t *testing.T) {
	r := judged(t)
	if t.Failed() || len(r.misses) > 0 && testing.Verbose() {
		r.print()
	}
	checkFloor(t, "judged coding set", &r.ours, floor{r1: 97.7, r5: 100})
}
