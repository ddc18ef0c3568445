package store

import (
	"slices"
	"strings"
	"testing"
)

// describe is an attempt as TestRoutePlan spells it: the index, then the
// flags that change how the runner treats it.
func describe(p []attempt) []string {
	var out []string
	for _, a := range p {
		d := string(a.index)
		if a.phase == PhaseFirst {
			d += " first"
		}
		if a.partial {
			d += " partial"
		}
		if a.stands {
			d += " stands"
		}
		if a.fallback {
			d += " fallback"
		}
		out = append(out, d)
		if a.why == "" || (a.index != IndexLike && a.expr == "") {
			out = append(out, "attempt without a reason or an expression")
		}
	}
	return out
}

// TestRoutePlan: the plan of each kind of query, in order: the one table a
// newcomer reads to know which index answers what.
func TestRoutePlan(t *testing.T) {
	st, _ := routingStore(t)
	type tc struct {
		query string
		f     SearchFilter
		want  []string
	}
	typing := SearchFilter{Typing: true}
	typingFirst := SearchFilter{Typing: true, Phase: PhaseFirst}
	check := func(t *testing.T, st *Store, cases []tc) {
		t.Helper()
		for _, c := range cases {
			q := parseQuery(c.query, st.layout.ftsColumns(), c.f.Typing)
			if got := describe(st.plan(q, c.f)); !slices.Equal(got, c.want) {
				t.Errorf("plan(%q, typing=%v phase=%d offset=%d) =\n  %s\nwant\n  %s", c.query, c.f.Typing, c.f.Phase, c.f.Offset,
					strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
			}
		}
	}
	t.Run("recall", func(t *testing.T) {
		check(t, st, []tc{
			{"docker", SearchFilter{}, []string{"unicode61 fallback", "cjk", "trigram"}},
			{"ab", SearchFilter{}, []string{"unicode61 fallback", "cjk"}}, // too short for trigrams
			{"docker", SearchFilter{Offset: 50}, []string{"unicode61 stands fallback"}},
			{"dock", typingFirst, []string{"trigram first", "unicode61 first fallback", "cjk first"}},
			{"dock", typing, []string{"unicode61", "trigram first partial", "unicode61 fallback", "cjk"}},
			{"doc", typingFirst, []string{"unicode61 first fallback", "cjk first", "trigram first"}}, // the prefix index serves 1-3 characters
			{"数据库", SearchFilter{}, []string{"trigram stands"}},
			{"修改", SearchFilter{}, []string{"cjk stands"}},
			{"docker 容器", SearchFilter{}, []string{"cjk stands"}},
		})
	})
	t.Run("hermes v1", func(t *testing.T) {
		path := buildHermes(t, t.TempDir(), 1)
		hs, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer hs.Close()
		check(t, hs, []tc{
			{"docker", SearchFilter{}, []string{"unicode61 fallback"}},
			{"数据库", SearchFilter{}, []string{"like stands"}},
		})
	})
	t.Run("no index", func(t *testing.T) {
		bare := &Store{layout: layout{}}
		check(t, bare, []tc{{"docker", SearchFilter{}, []string{"like stands"}}})
	})
}
