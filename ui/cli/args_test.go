package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		words []string
		json  bool
		limit int
	}{
		{[]string{"docker", "--json"}, []string{"docker"}, true, 20},
		{[]string{"--limit", "5", "deploy", "-rollback"}, []string{"deploy", "-rollback"}, false, 5},
		{[]string{"deploy", "--limit=7", "NOT", "x", "-json"}, []string{"deploy", "NOT", "x"}, true, 7},
		{[]string{"--", "--json", "-"}, []string{"--json", "-"}, false, 20},
		{[]string{"c++", "-", "-x"}, []string{"c++", "-", "-x"}, false, 20},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		j := fs.Bool("json", false, "")
		l := fs.Int("limit", 20, "")
		words, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !slices.Equal(words, tc.words) || *j != tc.json || *l != tc.limit {
			t.Errorf("%q: words %q json %v limit %d, want %q %v %d", tc.args, words, *j, *l, tc.words, tc.json, tc.limit)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("limit", 20, "")
	for _, bad := range [][]string{{"x", "--limit", "many"}, {"x", "--bogus"}} {
		if _, err := parseArgs(fs, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
