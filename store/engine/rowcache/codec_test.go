package rowcache

import (
	"reflect"
	"testing"
)

// The cache bodies read back what was written, and a damaged or cut file
// is refused (the rows are read instead), never half-read.
func TestRankCacheBodies(t *testing.T) {
	lens := lensFile{UpTo: 4, Lens: []uint32{0, 7, 1 << 31, 3, 12}}
	sess := sessionsFile{UpTo: 3, SessUpTo: 2, Of: []int32{-1, 0, 1, 1}, At: []int32{0, 1700000000, -5, 1700000300},
		IDs: []string{"a", "b"}, Titles: []string{"Fix 部署", ""}, Started: []float64{1.5, 2}, First: []int64{1, 2}}
	for _, tc := range []struct {
		name string
		in   interface {
			MarshalBinary() ([]byte, error)
		}
		out func() interface{ UnmarshalBinary([]byte) error }
	}{
		{"lens", &lens, func() interface{ UnmarshalBinary([]byte) error } { return &lensFile{} }},
		{"sessions", &sess, func() interface{ UnmarshalBinary([]byte) error } { return &sessionsFile{} }},
	} {
		b, err := tc.in.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got := tc.out()
		if err := got.UnmarshalBinary(b); err != nil || !reflect.DeepEqual(got, tc.in) {
			t.Fatalf("%s: read back %+v (%v), wrote %+v", tc.name, got, err, tc.in)
		}
		for cut := 0; cut < len(b); cut++ {
			if tc.out().UnmarshalBinary(b[:cut]) == nil {
				t.Fatalf("%s cut to %d of %d bytes: read as whole", tc.name, cut, len(b))
			}
		}
	}
}
