package recall

import (
	"context"
	"testing"
)

func TestSessionName(t *testing.T) {
	for _, tc := range []struct{ title, prompt, want string }{
		{"Orders pagination", "Add pagination", "Orders pagination"},
		{"", "Add   pagination\nto the orders endpoint", "Add pagination to the orders endpoint"},
		{"  ", "x", "x"},
		{"", "", ""},
		{"", "0123456789012345678901234567890123456789012345678901234567890123456789", "012345678901234567890123456789012345678901234567890123456789..."},
	} {
		if got := SessionName(tc.title, tc.prompt); got != tc.want {
			t.Errorf("SessionName(%q, %q) = %q, want %q", tc.title, tc.prompt, got, tc.want)
		}
	}
}

// TestResultNamedByFirstPrompt: an untitled session found by a hit late in
// it is named, like in `recall recent`, by the first thing the person typed
// (not the command or agent text before it), from the evidence the result
// already holds.
func TestResultNamedByFirstPrompt(t *testing.T) {
	e := New(openKinds(t), Options{})
	for _, q := range []string{"did step 11", "orders endpoint"} {
		d, err := e.Discover(context.Background(), q, DiscoverOptions{})
		if err != nil || len(d.Results) != 1 {
			t.Fatalf("%s: %v %+v", q, err, d)
		}
		if got := d.Results[0].Name(); got != "Add pagination to the orders endpoint" {
			t.Errorf("%s: name %q, want the first prompt", q, got)
		}
	}
}
