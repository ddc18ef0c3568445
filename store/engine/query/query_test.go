package query

import (
	"reflect"
	"testing"
)

// TestExportedQuery: the parse the store exports lists exactly the
// positive leaves: no excluded term, column name, operator or NEAR distance.
func TestExportedQuery(t *testing.T) {
	p := func(text string, phrase, prefix bool, pieces ...Piece) QueryTerm {
		if len(pieces) == 0 {
			pieces = []Piece{{Text: text}}
		}
		return QueryTerm{Text: text, Phrase: phrase, Prefix: prefix, Pieces: pieces}
	}
	for _, tc := range []struct {
		in   string
		want []QueryTerm
	}{
		{"deploy -docker", []QueryTerm{p("deploy", false, false)}},
		{"deploy NOT docker", []QueryTerm{p("deploy", false, false)}},
		{"a NOT (b OR c) d", []QueryTerm{p("a", false, false), p("d", false, false)}},
		{"a -(b OR c)", []QueryTerm{p("a", false, false)}},
		{"x NOT content: y", []QueryTerm{p("x", false, false)}},
		{"c++ NEAR(a b, 3)", []QueryTerm{p("c++", true, false), p("a", false, false), p("b", false, false)}},
		{`"docker network" netw*`, []QueryTerm{p("docker network", true, false), p("netw", false, true)}},
		{"content: docker", []QueryTerm{p("docker", false, false)}},
		{"修改youer服务端", []QueryTerm{p("修改youer服务端", false, false,
			Piece{Text: "修改", CJK: true}, Piece{Text: "youer"}, Piece{Text: "服务端", CJK: true})}},
		{"NOT", nil},
		{"", nil},
	} {
		if got := ParseQuery(tc.in).Terms; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseQuery(%q).Terms =\n %+v\nwant\n %+v", tc.in, got, tc.want)
		}
	}
	q := ParseQuery(`"Docker Network" 修改youer DOCKER`)
	if got, want := q.Words(), []string{"docker", "network", "修改youer"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Words = %q, want %q", got, want)
	}
	if got, want := q.Needles(), []string{"docker network", "修改", "youer", "docker"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Needles = %q, want %q", got, want)
	}
}
