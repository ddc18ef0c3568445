package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
)

func TestLabelFences(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"bare fence labelled":     {"```\nx\n```", "```text\nx\n```"},
		"language kept":           {"```go\nx\n```", "```go\nx\n```"},
		"closing fence untouched": {"```\na\n```\n\n```\nb\n```", "```text\na\n```\n\n```text\nb\n```"},
		"tilde fence":             {"~~~\nx\n~~~", "~~~text\nx\n~~~"},
		"longer fence nests":      {"````\n```\n````", "````text\n```\n````"},
		"no fence":                {"plain *text*", "plain *text*"},
		"indented four is code":   {"    ```\n", "    ```\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := labelFences(tc.in); got != tc.want {
				t.Errorf("labelFences(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSplitBlocks(t *testing.T) {
	in := "# Title\n\npara one\nline two\n\n```\ncode\n\nstill code\n```\n\nlast"
	want := []string{"# Title", "para one\nline two", "```\ncode\n\nstill code\n```", "last"}
	if got := splitBlocks(in); !reflect.DeepEqual(got, want) {
		t.Errorf("splitBlocks = %q, want %q", got, want)
	}
}

func TestBlockCacheRendersOnlyTheLastBlock(t *testing.T) {
	c := newBlockCache(newMarkdown(nil, false))
	doc := "first paragraph\n\nsecond paragraph\n\nthird, still grow"
	c.Frame(doc, 60)
	if n := c.Renders(); n != 3 {
		t.Fatalf("first frame: %d renders, want 3", n)
	}
	out := c.Frame(doc+"ing", 60)
	if n := c.Renders(); n != 4 {
		t.Fatalf("second frame: %d renders in total, want 4 (only the last block again)", n)
	}
	if plain := ansi.Strip(out); !strings.Contains(plain, "first paragraph") || !strings.Contains(plain, "still growing") {
		t.Fatalf("frame lost text: %q", out)
	}
	c.Frame(doc, 40) // new width: the cache is stale
	if n := c.Renders(); n != 7 {
		t.Fatalf("after resize: %d renders, want 7", n)
	}
}

func TestQueryTermsAndHighlight(t *testing.T) {
	// The terms come from the store's parse: the query the index ran.
	tests := map[string][]hlTerm{
		`sqlite migrat*`:           {{text: "sqlite"}, {text: "migrat", prefix: true}},
		`"exact phrase" OR other`:  {{text: "exact phrase"}, {text: "other"}},
		`foo NOT bar -baz`:         {{text: "foo"}},
		`NEAR(deploy rollback, 5)`: {{text: "deploy"}, {text: "rollback"}},
		`c++ NEAR(a b, 3)`:         {{text: "c++"}, {text: "a"}, {text: "b"}},
		`content:数据库 prefix*`:      {{text: "数据库", anywhere: true}, {text: "prefix", prefix: true}},
		`修改youer服务端`:               {{text: "修改", anywhere: true}, {text: "youer"}, {text: "服务端", anywhere: true}},
		`   `:                      nil,
	}
	for q, want := range tests {
		if got := hlTermsOf(store.ParseQuery(q)); !reflect.DeepEqual(got, want) {
			t.Errorf("hlTermsOf(ParseQuery(%q)) = %+v, want %+v", q, got, want)
		}
	}
	got := highlightTerms("Database migrations: the DATABASE, metadata", []hlTerm{{text: "data", prefix: true}, {text: "database"}, {text: "migrat", prefix: true}})
	want := "\ue000Database\ue001 \ue000migrat\ue001ions: the \ue000DATABASE\ue001, metadata"
	if got != want {
		t.Errorf("highlightTerms = %q, want %q", got, want)
	}
	// Whole words unless a prefix; CJK anywhere; folding that changes byte
	// lengths still marks the original text.
	for _, tc := range []struct {
		in    string
		terms []hlTerm
		want  string
	}{
		{".NetworkSettings network", []hlTerm{{text: "network"}}, ".NetworkSettings \ue000network\ue001"},
		{".NetworkSettings", []hlTerm{{text: "network", prefix: true}}, ".\ue000Network\ue001Settings"},
		{"修改数据库索引", []hlTerm{{text: "数据库"}}, "修改\ue000数据库\ue001索引"},
		{"İstanbul istanbul", []hlTerm{{text: "istanbul"}}, "\ue000İstanbul\ue001 \ue000istanbul\ue001"},
		{"KELVIN kelvin", []hlTerm{{text: "kelvin"}}, "\ue000KELVIN\ue001 \ue000kelvin\ue001"},
		{"abcabc", []hlTerm{{text: "bca", anywhere: true}}, "a\ue000bca\ue001bc"},
	} {
		if got := highlightTerms(tc.in, tc.terms); got != tc.want {
			t.Errorf("highlightTerms(%q, %+v) = %q, want %q", tc.in, tc.terms, got, tc.want)
		}
	}
}

// Monochrome markdown: every style recall may render with loses its colours
// and code highlighting, and keeps bold.
func TestMonochromeMarkdown(t *testing.T) {
	pinned, err := assets.Style("recall")
	if err != nil {
		t.Fatal(err)
	}
	md := "# Fix\n\nThe **busy timeout** fixed it:\n\n```go\ndb.Exec(\"PRAGMA busy_timeout = 5000\") // 5 s\n```\n\n> `docker network ls`\n"
	for name, style := range map[string][]byte{"pinned recall.json": pinned, "glamour dark (no style)": nil, "unparsable": []byte("{")} {
		t.Run(name, func(t *testing.T) {
			out := newMarkdown(style, true).Render(md, 60)
			if bad := colourSGR(out); len(bad) > 0 {
				t.Errorf("colours %q in\n%q", bad, out)
			}
			if !strings.Contains(out, "\x1b[1m") || !strings.Contains(ansi.Strip(out), "PRAGMA busy_timeout = 5000") {
				t.Errorf("bold or code lost:\n%q", out)
			}
			if strings.Contains(string(colorless(style)), "chroma") {
				t.Errorf("chroma theme kept")
			}
		})
	}
	// The same markdown in colour has colours, so the check can fail.
	if len(colourSGR(newMarkdown(pinned, false).Render(md, 60))) == 0 {
		t.Errorf("colour markdown has no colour")
	}
}
