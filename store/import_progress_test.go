package store

import (
	"testing"
	"time"
)

// TestImportProgressRunning: a record not marked done counts as running
// only while it is fresh; a killed import (no more updates) stops counting
// after ImportStale instead of showing "importing" forever.
func TestImportProgressRunning(t *testing.T) {
	now := time.Date(2026, 12, 4, 4, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		p    ImportProgress
		want bool
	}{
		{"fresh", ImportProgress{Updated: now.Add(-2 * time.Second)}, true},
		{"done", ImportProgress{Updated: now, Done: true}, false},
		{"killed", ImportProgress{Updated: now.Add(-ImportStale - time.Second)}, false},
		{"never written", ImportProgress{}, false},
	} {
		if got := tc.p.Running(now); got != tc.want {
			t.Errorf("%s: Running = %v, want %v", tc.name, got, tc.want)
		}
	}
	p := ImportProgress{BytesDone: 250, BytesTotal: 1000, Started: now.Add(-14 * time.Second), Updated: now}
	if left, ok := p.ETA(); !ok || left != 42*time.Second {
		t.Errorf("ETA = %v %v, want 42s", left, ok)
	}
}
