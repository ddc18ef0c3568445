package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine/pipeline"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
)

// describe is an attempt as TestRoutePlan spells it: the index, then the
// flags that change how the runner treats it.
func describe(p []plan.Attempt) []string {
	var out []string
	for _, a := range p {
		d := string(a.Index)
		if a.Phase == PhaseFirst {
			d += " first"
		}
		if a.Partial {
			d += " partial"
		}
		if a.Stands {
			d += " stands"
		}
		if a.Fallback {
			d += " fallback"
		}
		out = append(out, d)
		if a.Why == "" || (a.Index != IndexLike && a.Expr == "") {
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
			q := query.Parse(c.query, st.layout.engineLayout().Columns(), c.f.Typing)
			if got := describe(plan.Route(q, c.f, st.layout.engineLayout())); !slices.Equal(got, c.want) {
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
			{"docker", SearchFilter{}, []string{"unicode61 fallback", "like"}}, // no trigram: a scan is the substring retry
			{"ab", SearchFilter{}, []string{"unicode61 fallback"}},
			{"数据库", SearchFilter{}, []string{"like stands"}},
		})
	})
	t.Run("no index", func(t *testing.T) {
		bare := &Store{layout: layout{}}
		check(t, bare, []tc{{"docker", SearchFilter{}, []string{"like stands"}}})
	})
}

// upgradeHermes copies a Hermes file and upgrades the copy the way Hermes
// does, with a native writer running the v2..v11 steps (v10 backfills the
// trigram table, v11 rebuilds both indexes over content, tool_name and
// tool_calls).
func upgradeHermes(t *testing.T, path string, to int) string {
	t.Helper()
	up := strings.TrimSuffix(path, ".db") + fmt.Sprintf("-upgraded-v%d.db", to)
	copyFile(t, path, up)
	var from int64
	c := rawConn(t, path, true)
	from = count(t, c, "SELECT version FROM schema_version")
	c.close()
	shell(t, up, migrationDDL(t, int(from)+1, to)+fmt.Sprintf("UPDATE schema_version SET version = %d;\n", to))
	return up
}

// hermesQueries are what a user may ask of the Hermes seed rows.
var hermesQueries = []struct {
	query string
	f     SearchFilter
}{
	{"terminal", SearchFilter{}}, // a tool_name, and in a tool call
	{"youer", SearchFilter{}},    // Latin inside the CJK run 修改youer服务端
	{"docker", SearchFilter{}},   // content, and a tool call's arguments
	{"docker", SearchFilter{Roles: []string{"assistant"}}},
	{"terminal", SearchFilter{Roles: []string{"tool"}}},
	{"termi", SearchFilter{Typing: true}},
	{"dock", SearchFilter{Typing: true}},
	{"docker NOT restart", SearchFilter{}},
	{"terminal OR kubernetes", SearchFilter{}},
	{"call", SearchFilter{}},
	{"restart", SearchFilter{}},
	{"container", SearchFilter{}},
	{"数据库", SearchFilter{}},
	{"修改", SearchFilter{}},
	{"修改youer服务端", SearchFilter{}},
	{"容器", SearchFilter{}},
	{"データベース", SearchFilter{}},
	{"xyzzy", SearchFilter{}},
}

// TestOldHermesAnswersLikeUpgraded: a Hermes v1 file (index over content
// only, no trigram table) and a v10 file (trigram, content only) answer
// every query with the same messages as the same rows upgraded by Hermes
// to v11 (both indexes over content, tool_name and tool_calls). Before,
// "terminal" and "youer" found nothing on v1, and a tool call's docker ps
// was missing from "docker".
func TestOldHermesAnswersLikeUpgraded(t *testing.T) {
	for _, version := range []int{1, 10} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			dir := t.TempDir()
			old := buildHermes(t, dir, version)
			up := upgradeHermes(t, old, 11)
			open := func(path string) *Store {
				st, err := Open(t.Context(), path, Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				return st
			}
			oldSt, upSt := open(old), open(up)
			if !oldSt.layout.ftsContentOnly || upSt.layout.ftsContentOnly {
				t.Fatalf("content-only detection: v%d %v, v11 %v", version, oldSt.layout.ftsContentOnly, upSt.layout.ftsContentOnly)
			}
			for _, q := range hermesQueries {
				for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
					f := q.f
					f.Phase = ph
					got, want := search(t, oldSt, q.query, f), search(t, upSt, q.query, f)
					if g, w := sortedHits(got), sortedHits(want); !slices.Equal(g, w) {
						t.Errorf("%q (roles %v, typing %v, phase %d): v%d finds %v (%s), upgraded to v11 %v (%s)",
							q.query, f.Roles, f.Typing, ph, version, g, got.Index, w, want.Index)
					}
				}
			}
		})
	}
}

// TestGapFillsDeferredRebuild: rows a Hermes deferred FTS rebuild has not
// reached (ids in (fts_rebuild_progress, fts_rebuild_high_water]) are
// found by the LIKE top-up, on both indexes; without the markers they are not.
func TestGapFillsDeferredRebuild(t *testing.T) {
	dir := t.TempDir()
	path := upgradeHermes(t, buildHermes(t, dir, 1), 11)
	shell(t, path, `DELETE FROM messages_fts WHERE rowid IN (1, 2, 5);
		DELETE FROM messages_fts_trigram WHERE rowid IN (1, 2, 5);`)
	before := openHermes(t, path)
	if got := sortedHits(search(t, before, "docker", SearchFilter{})); !slices.Equal(got, []int64{3}) {
		t.Fatalf("rows out of the index but no markers: docker = %v, want [3]", got)
	}
	before.Close()
	shell(t, path, `INSERT INTO state_meta(key, value) VALUES ('fts_rebuild_high_water', '5'), ('fts_rebuild_progress', '0');`)
	st := openHermes(t, path)
	defer st.Close()
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"docker", []int64{1, 2, 3}}, // unicode61 answers 3, the gap 1 and 2
		{"数据库", []int64{5, 6}},       // trigram answers 6, the gap 5
	} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			if got := sortedHits(search(t, st, tc.query, SearchFilter{Phase: ph})); !slices.Equal(got, tc.want) {
				t.Errorf("%q phase %d = %v, want %v", tc.query, ph, got, tc.want)
			}
		}
	}
}

func openHermes(t *testing.T, path string) *Store {
	t.Helper()
	st, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func sortedHits(res SearchResult) []int64 {
	ids := hitIDs(res)
	slices.Sort(ids)
	return ids
}

// TestFirstPhaseScanIsBounded: on a file whose indexes cannot answer, the
// first phase scans only the newest rows (and says the answer is
// incomplete); the final phase reads them all.
func TestFirstPhaseScanIsBounded(t *testing.T) {
	defer func(n int64) { pipeline.FirstPhaseScanRows = n }(pipeline.FirstPhaseScanRows)
	pipeline.FirstPhaseScanRows = 2 // of the seed's 10 messages: ids 9 and 10 only
	st := openHermes(t, buildHermes(t, t.TempDir(), 1))
	defer st.Close()
	for _, q := range []string{"youer", "修改"} { // the LIKE retry, and short CJK with no bigram index
		first := search(t, st, q, SearchFilter{Phase: PhaseFirst})
		if len(first.Hits) != 0 || first.Complete {
			t.Errorf("%q first phase: %v complete=%v, want nothing yet and incomplete", q, hitIDs(first), first.Complete)
		}
		if final := search(t, st, q, SearchFilter{Phase: PhaseFinal}); len(final.Hits) == 0 || !final.Complete {
			t.Errorf("%q final phase: %v complete=%v, want the hits", q, hitIDs(final), final.Complete)
		}
	}
	// The tool call m3 is a content-only gap row: the first phase leaves it to the final one.
	if got := sortedHits(search(t, st, "docker", SearchFilter{Phase: PhaseFirst})); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("docker first phase = %v, want [1 2]", got)
	}
	if got := sortedHits(search(t, st, "docker", SearchFilter{Phase: PhaseFinal})); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("docker final phase = %v, want [1 2 3]", got)
	}
}

// TestGapFillKeepsTimeOrder: a time-sorted search orders the index's hits
// and a gap's together: on a v1 file the newest docker row is a tool call
// only the content-only gap finds.
func TestGapFillKeepsTimeOrder(t *testing.T) {
	st := openHermes(t, buildHermes(t, t.TempDir(), 1))
	defer st.Close()
	for _, tc := range []struct {
		sort  Sort
		limit int
		want  []int64
	}{
		{SortNewest, 1, []int64{3}},
		{SortNewest, 3, []int64{3, 2, 1}},
		{SortOldest, 2, []int64{1, 2}},
	} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			if got := hitIDs(search(t, st, "docker", SearchFilter{Sort: tc.sort, Limit: tc.limit, Phase: ph})); !slices.Equal(got, tc.want) {
				t.Errorf("sort %d limit %d phase %d: %v, want %v", tc.sort, tc.limit, ph, got, tc.want)
			}
		}
	}
}
