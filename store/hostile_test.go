package store

import (
	"math/rand"
	"strings"
)

// Hostile queries: the shapes that once broke or stalled the search (100
// nested groups overflowed FTS5's parser; 3,000 "0" terms took 10 s), and
// a generator of random ones in their spirit. Exported (in test builds
// only) for the hostile benchmark and the heavy test in package store_test.

// HostileShape is one named hostile query.
type HostileShape struct{ Name, Query string }

// words draws n words from list, cycling.
func words(list []string, n int, sep string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(list[i%len(list)])
	}
	return b.String()
}

var (
	commonWords = []string{"the", "error", "a", "to", "docker", "network", "0", "is", "of", "and", "config", "server"}
	cjkChars    = []string{"的", "了", "是", "部", "署", "数", "据", "库", "服", "务", "修", "改"}
)

// HostileShapes are the named shapes (BenchmarkHostileQueries runs each).
var HostileShapes = []HostileShape{
	{"nested-100", strings.Repeat("(", 100) + "docker"},
	{"nested-100-closed", strings.Repeat("(", 100) + "docker" + strings.Repeat(")", 100)},
	{"nested-or-100", strings.Repeat("(error OR ", 100) + "docker" + strings.Repeat(")", 100)},
	{"zeros-3000", strings.Repeat("0 ", 3000)},
	{"common-1000", words(commonWords, 1000, " ")},
	{"or-1000", words(commonWords, 1000, " OR ")},
	{"not-500", "the " + words(commonWords, 500, " NOT ")},
	{"prefix-700", words([]string{"a*", "e*", "d*", "co*", "t*", "s*"}, 700, " ")},
	{"near-300", "NEAR(" + words(commonWords, 300, " ") + ", 1)"},
	{"phrase-1000", `"` + words(commonWords, 1000, " ") + `"`},
	{"phrases-500", words([]string{`"the error"`, `"docker network"`, `"a 0"`}, 500, " ")},
	{"long-word-e", strings.Repeat("e", 3000)},
	{"long-word-typed", strings.Repeat("er", 1024)},
	{"cjk-run-2048", words(cjkChars, 2048, "")},
	{"cjk-short-1000", words(cjkChars, 1000, " ")},
	{"cjk-latin-700", words([]string{"error", "的", "docker", "部署", "the"}, 700, " ")},
	{"columns-500", words([]string{"content: error", "content: the"}, 500, " ")},
	{"carets-700", words([]string{"^the", "^error", "^a"}, 700, " ")},
	{"dashes-700", "error " + words([]string{"-the", "-a", "-docker"}, 700, " ")},
	{"punctuation", strings.Repeat(`"(*:^-+{}),`, 300)},
	{"groups-300", words([]string{"(the OR error)", "(a docker)"}, 300, " ")},
}

// HostileQuery returns a random hostile query: a few shapes spliced
// together, cut at a random length, with random operators and punctuation.
func HostileQuery(rng *rand.Rand) string {
	pieces := []func() string{
		func() string { return strings.Repeat("(", rng.Intn(200)) },
		func() string { return strings.Repeat(")", rng.Intn(200)) },
		func() string { return words(commonWords[rng.Intn(len(commonWords)):], 1+rng.Intn(1500), " ") },
		func() string {
			return words(commonWords[rng.Intn(len(commonWords)):], 1+rng.Intn(500), []string{" OR ", " AND ", " NOT ", " -"}[rng.Intn(4)])
		},
		func() string {
			return "NEAR(" + words(commonWords, 1+rng.Intn(400), " ") + ", " + string(rune('0'+rng.Intn(10))) + ")"
		},
		func() string { return `"` + words(commonWords[rng.Intn(len(commonWords)):], 1+rng.Intn(800), " ") },
		func() string { return strings.Repeat(string(rune('a'+rng.Intn(26))), 1+rng.Intn(2500)) },
		func() string {
			return words(cjkChars[rng.Intn(len(cjkChars)):], 1+rng.Intn(2000), []string{"", " "}[rng.Intn(2)])
		},
		func() string {
			return words([]string{"a*", "e*", "co*", "^the", "content:", "t*"}, 1+rng.Intn(600), " ")
		},
		func() string {
			const punct = `"()*:^-+{},.;!?'[]<>|&#@/\%_~=` + "\x00\u3000"
			var b strings.Builder
			for range 1 + rng.Intn(1000) {
				b.WriteByte(punct[rng.Intn(len(punct))])
			}
			return b.String()
		},
	}
	var b strings.Builder
	for range 1 + rng.Intn(4) {
		b.WriteString(pieces[rng.Intn(len(pieces))]())
		b.WriteByte(' ')
	}
	s := b.String()
	if rng.Intn(3) == 0 {
		rs := []rune(s)
		s = string(rs[:rng.Intn(len(rs)+1)])
	}
	return s
}
