package cli

import (
	"bytes"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	for _, tc := range []struct {
		query bool
		args  []string
		words []string
		json  bool
		limit int
	}{
		{true, []string{"docker", "--json"}, []string{"docker"}, true, 20},
		{true, []string{"--limit", "5", "deploy", "-rollback"}, []string{"deploy", "-rollback"}, false, 5},
		{true, []string{"deploy", "--limit=7", "NOT", "x", "-json"}, []string{"deploy", "NOT", "x"}, true, 7},
		{true, []string{"--", "--json", "-h"}, []string{"--json", "-h"}, false, 20},
		{true, []string{"c++", "-", "-x"}, []string{"c++", "-", "-x"}, false, 20},
		{false, []string{"ID", "--json"}, []string{"ID"}, true, 20},
		{false, []string{"--json=false", "ID", "--limit", "-3"}, []string{"ID"}, false, -3},
		{false, []string{"-", "ID"}, []string{"-", "ID"}, false, 20},
	} {
		c := &Command{Name: "t", Usage: "recall t", Query: tc.query}
		fs := newFlags(c, &Env{Stdout: &bytes.Buffer{}})
		j := fs.Bool("json", false, "")
		l := fs.Int("limit", 20, "")
		words, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !slices.Equal(words, tc.words) || !slices.Equal(fs.Args(), tc.words) || *j != tc.json || *l != tc.limit {
			t.Errorf("%q: words %q json %v limit %d, want %q %v %d", tc.args, words, *j, *l, tc.words, tc.json, tc.limit)
		}
	}
}

func TestParseArgsErrors(t *testing.T) {
	for _, tc := range []struct {
		query bool
		args  []string
		want  string
	}{
		{true, []string{"x", "--limit", "many"}, `invalid value "many" for --limit: want a whole number`},
		{true, []string{"x", "--bogus"}, "unknown flag --bogus"},
		{false, []string{"ID", "-bogus"}, "unknown flag -bogus"},
		{false, []string{"ID", "--limit"}, "--limit needs a value"},
	} {
		c := &Command{Name: "t", Usage: "recall t", Query: tc.query}
		fs := newFlags(c, &Env{Stdout: &bytes.Buffer{}})
		fs.Int("limit", 20, "number")
		_, err := parseArgs(fs, tc.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
	// -h anywhere (before "--") is help, printed to stdout.
	var out bytes.Buffer
	c := &Command{Name: "t", Usage: "recall t [--limit N]", Summary: "a test", Query: true}
	fs := newFlags(c, &Env{Stdout: &out})
	fs.Int("limit", 20, "number")
	if _, err := parseArgs(fs, []string{"docker", "-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	if !strings.HasPrefix(out.String(), "usage: recall t [--limit N]\n") || !strings.Contains(out.String(), "--limit INT") {
		t.Errorf("help output:\n%s", out.String())
	}
}
