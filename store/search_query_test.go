package store

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/engine/pipeline"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
)

// sanitiserInputs are the parser's test cases (engine/query/testdata), as
// a user may type them.
func sanitiserInputs(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("engine", "query", "testdata", "sanitiser.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, _, _ := strings.Cut(line, "\t")
		s, err := strconv.Unquote(in)
		if err != nil {
			t.Fatalf("sanitiser.txt: %q: %v", line, err)
		}
		out = append(out, s)
	}
	return out
}

// TestSanitisedQueriesAcceptedByFTS5: every case, typed or not, in both
// phases, through the whole search path: no error ever.
func TestSanitisedQueriesAcceptedByFTS5(t *testing.T) {
	st, _ := routingStore(t)
	for _, in := range sanitiserInputs(t) {
		for _, typing := range []bool{false, true} {
			for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
				if _, err := st.SearchMessages(context.Background(), in, SearchFilter{Typing: typing, Phase: ph}); err != nil {
					t.Errorf("SearchMessages(%q, typing=%v, phase=%d): %v", in, typing, ph, err)
				}
			}
		}
	}
}

// fuzzSeeds are the sanitiser cases plus the routing queries.
func fuzzSeeds(t testing.TB) []string {
	out := append(sanitiserInputs(t), "docker 容器", "docker 数据库", "修改youer服务端", "改", "データベース", "데이터", "NEAR(修改 数据库, 2)",
		"content: 修改", "\xff\xfe", "a\x00b", `"""`, "^", "-", "NOT", "((((", "))))", "a OR (b AND -c)", strings.Repeat("x", 3000))
	for _, sh := range HostileShapes {
		out = append(out, sh.Query)
	}
	rng := rand.New(rand.NewSource(1))
	for range 20 {
		out = append(out, HostileQuery(rng))
	}
	return out
}

// checkBounds fails when a parse breaks a bound the sanitiser promises.
func checkBounds(t *testing.T, s string, q query.Parsed) {
	t.Helper()
	depth, maxDepth := 0, 0
	for _, tk := range q.Toks {
		switch tk.Kind {
		case query.TokLParen:
			depth++
			maxDepth = max(maxDepth, depth)
		case query.TokRParen:
			depth--
		}
	}
	for _, tk := range q.Terms() {
		for _, w := range strings.Fields(tk.Text) {
			if utf8.RuneCountInString(w) > query.MaxTermRunes {
				t.Fatalf("%q: a %d-character word survives", s, utf8.RuneCountInString(w))
			}
		}
	}
	if maxDepth > query.MaxDepth || q.Weight() > query.MaxTerms || strings.ContainsAny(q.Notice, "\r\n") {
		t.Fatalf("%q: depth %d, %d terms, notice %q", s, maxDepth, q.Weight(), q.Notice)
	}
}

// FuzzSearch: no input, typed or not, in either phase, errors or panics
// (hostile shapes among the seeds: the budget answers them with a notice).
func FuzzSearch(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	st, _ := routingStore(f)
	f.Fuzz(func(t *testing.T, q string) {
		for _, typing := range []bool{false, true} {
			for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
				res, err := st.SearchMessages(context.Background(), q, SearchFilter{Typing: typing, Phase: ph})
				if err != nil {
					t.Fatalf("SearchMessages(%q, typing=%v, phase=%d): %v", q, typing, ph, err)
				}
				if strings.ContainsAny(res.Notice, "\r\n") {
					t.Fatalf("SearchMessages(%q): notice on several lines: %q", q, res.Notice)
				}
			}
		}
	})
}

// FuzzParseQuery: the rendering of every non-empty parse is accepted by
// FTS5, for each of the three tables the plans target.
func FuzzParseQuery(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, false)
		f.Add(s, true)
	}
	st, _ := routingStore(f)
	f.Fuzz(func(t *testing.T, s string, typing bool) {
		q := query.Parse(s, st.layout.engineLayout().Columns(), typing)
		checkBounds(t, s, q)
		if q.Empty() {
			return
		}
		for _, idx := range []Index{IndexUnicode61, IndexTrigram, IndexCJK} {
			if idx == IndexCJK && !plan.CJKExpressible(q) {
				continue
			}
			p := plan.For(q, idx, st.layout.engineLayout())
			err := st.read(context.Background(), func(c *conn) error {
				_, _, err := c.scalarInt("SELECT count(*) FROM "+p.Table+" WHERE "+p.Table+" MATCH ?", p.Expr)
				return err
			})
			if err != nil {
				t.Fatalf("%q -> %s on %s: %v", s, p.Expr, p.Table, err)
			}
		}
	})
}

// TestImplicitAndNextToGroup: FTS5 has no implicit AND next to a
// parenthesised group ("(a OR b) c" is a syntax error), so render must
// write the AND itself.
func TestImplicitAndNextToGroup(t *testing.T) {
	st, _ := routingStore(t)
	for _, in := range []string{"(a OR b) c", "0(0", "c (a OR b)", "(a) (b)", "(docker OR kubernetes) restart"} {
		if _, err := st.SearchMessages(context.Background(), in, SearchFilter{}); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestHostileShapes: the shapes that broke the search (100 nested groups:
// "fts5: parser stack overflow"; 700 NOTs: "fts5 expression tree is too
// large"; 3,000 terms: seconds) answer without an error, and a query the
// sanitiser cut says what it dropped, in one line.
func TestHostileShapes(t *testing.T) {
	st, _ := routingStore(t)
	for _, sh := range HostileShapes {
		for _, typing := range []bool{false, true} {
			for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
				res, err := st.SearchMessages(context.Background(), sh.Query, SearchFilter{Typing: typing, Phase: ph})
				if err != nil {
					t.Fatalf("%s (typing %v, phase %d): %v", sh.Name, typing, ph, err)
				}
				if strings.ContainsAny(res.Notice, "\n\r") {
					t.Errorf("%s: notice on several lines: %q", sh.Name, res.Notice)
				}
			}
		}
	}
	for _, tc := range []struct{ query, notice string }{
		{strings.Repeat("(", 100) + "docker", "groups nested deeper than 8 were flattened"},
		{strings.Repeat("0 ", 3000), "only its first 2048 characters were read"},
		{distinct(40, " OR "), "only the first 12 terms were searched (28 dropped)"},
		{`"` + distinct(20, " ") + `"`, "only the first 12 terms were searched (8 dropped)"},
		{"NEAR(" + distinct(20, " ") + ")", "NEAR groups were cut to 6 terms (14 dropped)"},
		{"NEAR(" + distinct(5, " ") + ") " + distinct(10, " "), "only the first 12 terms were searched (3 dropped)"},
		{strings.Repeat("e", 100), "1 words longer than 64 characters were searched by their start"},
		{"docker network", ""},
		{strings.Repeat("docker ", 50), ""}, // repeats are dropped silently: they change nothing
	} {
		res := search(t, st, tc.query, SearchFilter{})
		if tc.notice == "" && res.Notice != "" || !strings.Contains(res.Notice, tc.notice) {
			t.Errorf("%.40q: notice %q, want %q", tc.query, res.Notice, tc.notice)
		}
	}
	if got := query.Parse(strings.Repeat("docker ", 50), nil, false).Render(query.FTSTerm); got != `"docker"` {
		t.Errorf("50 x docker = %s, want one", got)
	}
	if got := query.Parse(strings.Repeat("(", 100)+"a"+strings.Repeat(")", 100), nil, false).Render(query.FTSTerm); strings.Count(got, "(") > query.MaxDepth {
		t.Errorf("100 nested groups render as %s", got)
	}
}

// TestSearchBudget: a search out of time answers with what it found and a
// notice, not an error; a cancelled caller still gets its error.
func TestSearchBudget(t *testing.T) {
	st, _ := routingStore(t)
	defer func(d time.Duration) { pipeline.SearchBudget = d }(pipeline.SearchBudget)
	pipeline.SearchBudget = time.Nanosecond
	res, err := st.SearchMessages(context.Background(), "docker", SearchFilter{})
	if err != nil || res.Complete || !strings.Contains(res.Notice, "search stopped after") {
		t.Fatalf("out of time: err %v, complete %v, notice %q", err, res.Complete, res.Notice)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.SearchMessages(ctx, "docker", SearchFilter{}); err == nil {
		t.Error("a cancelled search returned no error")
	}
}

// distinct is n different words joined by sep.
func distinct(n int, sep string) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("w%d", i)
	}
	return strings.Join(ws, sep)
}

// TestSearchResultCarriesTheParse: a search returns the parse it ran, on
// its own layout (the typed prefix included), with hits or without.
func TestSearchResultCarriesTheParse(t *testing.T) {
	st, _ := routingStore(t)
	res := search(t, st, "docker -restart dock", SearchFilter{Typing: true})
	want := []QueryTerm{{Text: "docker", Pieces: []Piece{{Text: "docker"}}}, {Text: "dock", Prefix: true, Pieces: []Piece{{Text: "dock"}}}}
	if !reflect.DeepEqual(res.Parsed.Terms, want) {
		t.Errorf("Parsed = %+v, want %+v", res.Parsed.Terms, want)
	}
	if res := search(t, st, "xyzzy", SearchFilter{}); len(res.Parsed.Terms) != 1 || res.Parsed.Terms[0].Text != "xyzzy" {
		t.Errorf("no hits: Parsed = %+v", res.Parsed)
	}
}
