package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store/engine/pipeline"
)

// routingSessions and routingCorpus are the small multilingual history the
// routing, filter, snippet and native-shell tests search.
var routingSessions = []fixtureSession{
	{id: "s-cli", source: "cli", title: "Docker work", minute: 0},
	{id: "s-tg", source: "telegram", minute: 10},
	{id: "s-child", source: "cli", parent: "s-cli", minute: 20},
}

var routingCorpus = []fixture{
	{label: "docker1", session: "s-cli", role: "user", content: "how do I restart the docker container", minute: 1},
	{label: "docker2", session: "s-cli", role: "assistant", content: "run Docker compose restart; docker logs will show it", minute: 2},
	{label: "dockerfile", session: "s-cli", role: "user", content: "the Dockerfile builds fine locally", minute: 3},
	{label: "toolrow", session: "s-cli", role: "tool", content: "docker ps: 3 containers running", tool: "terminal", minute: 4},
	{label: "calls", session: "s-cli", role: "assistant", calls: `[{"id":"c1","function":{"name":"terminal","arguments":"docker images"}}]`, minute: 5},
	{label: "modify", session: "s-cli", role: "user", content: "请帮我修改配置文件", minute: 6},
	{label: "kube1", session: "s-cli", role: "assistant", content: "kubernetes kubernetes kubernetes kubernetes", minute: 7},
	{label: "kube2", session: "s-cli", role: "user", content: "we should look at kubernetes later, after lunch and after the release notes are out", minute: 8},
	{label: "db", session: "s-tg", role: "user", content: "数据库连接失败了", minute: 11},
	{label: "dockerctr", session: "s-tg", role: "user", content: "docker 容器 启动失败", minute: 12},
	{label: "dockerdb", session: "s-tg", role: "assistant", content: "docker 数据库 备份完成", minute: 13},
	{label: "ja", session: "s-tg", role: "user", content: "データベースを再起動してください", minute: 14},
	{label: "ko", session: "s-tg", role: "assistant", content: "데이터베이스 연결 오류", minute: 15},
	{label: "mixrun", session: "s-child", role: "assistant", content: "修改youer服务端的配置", minute: 21},
}

func routingStore(t testing.TB) (*Store, map[string]int64) {
	t.Helper()
	st := mustOpen(t)
	return st, seed(t, st, routingSessions, routingCorpus)
}

var dockerAll = []string{"calls", "docker1", "docker2", "dockerctr", "dockerdb", "toolrow"}

// TestSearchRouting: each query goes to the index its script and length
// call for, and finds exactly the messages that contain it.
func TestSearchRouting(t *testing.T) {
	st, ids := routingStore(t)
	for _, tc := range []struct {
		name  string
		query string
		f     SearchFilter
		index Index
		want  []string
	}{
		{"english word", "docker", SearchFilter{}, IndexUnicode61, dockerAll},
		{"english case-folded", "DOCKER", SearchFilter{}, IndexUnicode61, dockerAll},
		{"two words AND", "docker restart", SearchFilter{}, IndexUnicode61, []string{"docker1", "docker2"}},
		{"OR", "dockerfile OR kubernetes", SearchFilter{}, IndexUnicode61, []string{"dockerfile", "kube1", "kube2"}},
		{"NOT", "docker NOT restart", SearchFilter{}, IndexUnicode61, []string{"calls", "dockerctr", "dockerdb", "toolrow"}},
		{"phrase", `"docker container"`, SearchFilter{}, IndexUnicode61, []string{"docker1"}},
		{"prefix while typing", "doc", SearchFilter{Typing: true}, IndexUnicode61, append([]string{"dockerfile"}, dockerAll...)},
		{"whole word typed, space", "dock ", SearchFilter{Typing: true}, IndexTrigram, append([]string{"dockerfile"}, dockerAll...)},
		{"typing fragment 4+ via trigram", "dock", SearchFilter{Typing: true}, IndexTrigram, append([]string{"dockerfile"}, dockerAll...)},
		{"substring retry", "dock", SearchFilter{}, IndexTrigram, append([]string{"dockerfile"}, dockerAll...)},
		{"no match", "xyzzy", SearchFilter{}, IndexUnicode61, nil},
		{"empty", "", SearchFilter{}, IndexNone, nil},
		{"only syntax", `*** "" ()`, SearchFilter{}, IndexNone, nil},
		{"1-char CJK", "改", SearchFilter{}, IndexCJK, []string{"mixrun", "modify"}},
		{"1-char CJK typing", "改", SearchFilter{Typing: true}, IndexCJK, []string{"mixrun", "modify"}},
		{"2-char CJK", "修改", SearchFilter{}, IndexCJK, []string{"mixrun", "modify"}},
		{"2-char CJK AND", "修改 配置", SearchFilter{}, IndexCJK, []string{"mixrun", "modify"}},
		{"2-char CJK absent", "改配", SearchFilter{}, IndexCJK, []string{"modify"}},
		{"3-char CJK", "数据库", SearchFilter{}, IndexTrigram, []string{"db", "dockerdb"}},
		{"mixed short CJK + Latin", "docker 容器", SearchFilter{}, IndexCJK, []string{"dockerctr"}},
		{"mixed long CJK + Latin", "docker 数据库", SearchFilter{}, IndexTrigram, []string{"dockerdb"}},
		{"kana long", "データベース", SearchFilter{}, IndexTrigram, []string{"ja"}},
		{"kana/kanji short", "起動", SearchFilter{}, IndexCJK, []string{"ja"}},
		{"hangul long", "데이터베이스", SearchFilter{}, IndexTrigram, []string{"ko"}},
		{"hangul 3", "데이터", SearchFilter{}, IndexTrigram, []string{"ko"}},
		{"hangul short", "연결", SearchFilter{}, IndexCJK, []string{"ko"}},
		{"mixed run, latin piece", "youer", SearchFilter{}, IndexCJK, []string{"mixrun"}},
		{"mixed run, latin piece typing", "you", SearchFilter{Typing: true}, IndexCJK, []string{"mixrun"}},
		{"mixed run, CJK head", "修改", SearchFilter{}, IndexCJK, []string{"mixrun", "modify"}},
		{"mixed run, CJK tail", "服务端", SearchFilter{}, IndexTrigram, []string{"mixrun"}},
		{"mixed run whole", "修改youer服务端", SearchFilter{}, IndexTrigram, []string{"mixrun"}},
		{"mixed run short pieces", "改youer服", SearchFilter{}, IndexCJK, []string{"mixrun"}},
		{"CJK OR", "容器 OR 连接", SearchFilter{}, IndexCJK, []string{"db", "dockerctr"}},
		{"CJK punctuation is a separator", "修改，配置", SearchFilter{}, IndexCJK, []string{"mixrun", "modify"}},

		{"role tool", "docker", SearchFilter{Roles: []string{"tool"}}, IndexUnicode61, []string{"toolrow"}},
		{"roles user+assistant", "docker", SearchFilter{Roles: []string{"user", "assistant"}}, IndexUnicode61,
			[]string{"calls", "docker1", "docker2", "dockerctr", "dockerdb"}},
		{"exclude source", "docker", SearchFilter{ExcludeSources: []string{"telegram"}}, IndexUnicode61, []string{"calls", "docker1", "docker2", "toolrow"}},
		{"only source", "docker", SearchFilter{Sources: []string{"telegram"}}, IndexUnicode61, []string{"dockerctr", "dockerdb"}},
		{"exclude session", "docker", SearchFilter{ExcludeSessionIDs: []string{"s-cli"}}, IndexUnicode61, []string{"dockerctr", "dockerdb"}},
		{"since/until", "docker", SearchFilter{Since: at(2), Until: at(12)}, IndexUnicode61, []string{"calls", "docker2", "toolrow"}},
		{"cjk exclude session", "修改", SearchFilter{ExcludeSessionIDs: []string{"s-child"}}, IndexCJK, []string{"modify"}},
		{"cjk since", "改", SearchFilter{Since: at(20)}, IndexCJK, []string{"mixrun"}},
		{"cjk role", "修改", SearchFilter{Roles: []string{"user"}}, IndexCJK, []string{"modify"}},
		{"trigram role", "数据库", SearchFilter{Roles: []string{"assistant"}}, IndexTrigram, []string{"dockerdb"}},
		{"trigram exclude source", "数据库", SearchFilter{ExcludeSources: []string{"telegram"}}, IndexTrigram, nil},
		{"mixed excluded source", "docker 容器", SearchFilter{ExcludeSources: []string{"telegram"}}, IndexCJK, nil},
		{"limit", "docker", SearchFilter{Limit: 2, Phase: PhaseFirst}, IndexUnicode61, []string{"dockerctr", "dockerdb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phases := []Phase{PhaseFirst, PhaseFinal}
			if tc.f.Limit > 0 {
				phases = []Phase{tc.f.Phase}
			}
			for _, ph := range phases {
				f := tc.f
				f.Phase = ph
				res := search(t, st, tc.query, f)
				got := labelsOf(res, ids)
				if res.Index != tc.index || !equalStrings(got, sorted(tc.want)) {
					t.Errorf("%q phase %d: %s %v, want %s %v (expr %s)", tc.query, ph, res.Index, got, tc.index, sorted(tc.want), res.Query)
				}
				for _, h := range res.Hits {
					if h.Index != res.Index {
						t.Errorf("hit %d says index %s, result %s", h.MessageID, h.Index, res.Index)
					}
				}
			}
		})
	}
}

// TestSearchOrder: the first phase is newest first; the final phase is bm25.
func TestSearchOrder(t *testing.T) {
	st, ids := routingStore(t)
	for _, q := range []string{"docker", "dock", "修改", "数据库", "docker 容器"} {
		res := search(t, st, q, SearchFilter{Phase: PhaseFirst, Typing: true})
		got := hitIDs(res)
		for i := 1; i < len(got); i++ {
			if got[i] >= got[i-1] {
				t.Errorf("%q PhaseFirst not newest first: %v", q, got)
			}
		}
	}
	first := search(t, st, "kubernetes", SearchFilter{Phase: PhaseFirst})
	final := search(t, st, "kubernetes", SearchFilter{Phase: PhaseFinal})
	if len(first.Hits) != 2 || first.Hits[0].MessageID != ids["kube2"] {
		t.Errorf("PhaseFirst kubernetes = %v, want kube2 (newest) first", hitIDs(first))
	}
	if len(final.Hits) != 2 || final.Hits[0].MessageID != ids["kube1"] {
		t.Errorf("PhaseFinal kubernetes = %v, want kube1 (term 4x) first", hitIDs(final))
	}
	if !(final.Hits[0].Rank < final.Hits[1].Rank) || final.Hits[0].Rank >= 0 {
		t.Errorf("bm25 ranks %v, %v: want negative and ascending", final.Hits[0].Rank, final.Hits[1].Rank)
	}
	if !final.Complete {
		t.Error("a query with 2 matches reported an incomplete ranking")
	}
}

// TestSearchPaging: Offset pages through hits without repeats or gaps.
func TestSearchPaging(t *testing.T) {
	st, _ := routingStore(t)
	for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
		all := hitIDs(search(t, st, "docker", SearchFilter{Phase: ph}))
		var paged []int64
		for off := 0; off < len(all)+2; off += 2 {
			paged = append(paged, hitIDs(search(t, st, "docker", SearchFilter{Phase: ph, Limit: 2, Offset: off}))...)
		}
		if len(paged) != len(all) {
			t.Errorf("phase %d: paged %v, all %v", ph, paged, all)
			continue
		}
		for i := range all {
			if paged[i] != all[i] {
				t.Errorf("phase %d: paged %v, all %v", ph, paged, all)
				break
			}
		}
	}
}

// TestSearchSnippets: every path marks the matched text, and hits carry the
// session's metadata.
func TestSearchSnippets(t *testing.T) {
	st, ids := routingStore(t)
	for _, tc := range []struct {
		query, mark string
		index       Index
	}{
		{"docker", "docker", IndexUnicode61},
		{"doc", "docker", IndexUnicode61}, // typed prefix marks the whole token
		{"kubernetes", "kubernetes", IndexUnicode61},
		{"数据库", "数据库", IndexTrigram},
		{"修改", "修改", IndexCJK},
		{"youer", "youer", IndexCJK},
		{"docker 容器", "容器", IndexCJK},
	} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			res := search(t, st, tc.query, SearchFilter{Phase: ph, Typing: tc.query == "doc"})
			if res.Index != tc.index || len(res.Hits) == 0 {
				t.Fatalf("%q: %s with %d hits", tc.query, res.Index, len(res.Hits))
			}
			for _, h := range res.Hits {
				low := strings.ToLower(h.Snippet)
				if !strings.Contains(low, HighlightStart+tc.mark) {
					t.Errorf("%q phase %d hit %d: snippet %q lacks marked %q", tc.query, ph, h.MessageID, h.Snippet, tc.mark)
				}
				if strings.Count(h.Snippet, HighlightStart) != strings.Count(h.Snippet, HighlightEnd) {
					t.Errorf("%q: unbalanced markers in %q", tc.query, h.Snippet)
				}
			}
		}
	}
	res := search(t, st, "youer", SearchFilter{})
	h := res.Hits[0]
	if h.SessionID != "s-child" || h.ParentID != "s-cli" || h.Source != "cli" || h.Model != "test-model" || h.Role != "assistant" ||
		!h.Timestamp.Equal(at(21)) || !h.SessionStarted.Equal(at(20)) || h.MessageID != ids["mixrun"] {
		t.Errorf("hit metadata = %+v", h)
	}
	res = search(t, st, "docker", SearchFilter{Roles: []string{"tool"}})
	if len(res.Hits) != 1 || res.Hits[0].ToolName != "terminal" || res.Hits[0].SessionTitle != "Docker work" {
		t.Errorf("tool hit = %+v", res.Hits)
	}
	// A long message yields a snippet, not the whole body.
	long := strings.Repeat("filler words here ", 200) + "needle " + strings.Repeat("more filler text ", 200)
	seed(t, st, nil, []fixture{{label: "long", session: "s-cli", role: "user", content: long, minute: 30}})
	for _, q := range []string{"needle", "eedl"} {
		res = search(t, st, q, SearchFilter{})
		if len(res.Hits) != 1 || len(res.Hits[0].Snippet) > 600 || !strings.Contains(unmark(res.Hits[0].Snippet), "needle") {
			t.Errorf("%q: snippet of a %d-byte message: %d hits, %+v", q, len(long), len(res.Hits), res.Hits)
		}
	}
}

// TestSearchHidden: rewound rows (active=0, compacted=0) and display_kind
// 'hidden' rows are never returned, on any path; compacted rows are.
func TestSearchHidden(t *testing.T) {
	st, ids := routingStore(t)
	c := rawConn(t, st.Path(), false) // a second writer, as Hermes would be
	for label, sql := range map[string]string{
		"docker1": "UPDATE messages SET active = 0, compacted = 0 WHERE id = ?",
		"docker2": "UPDATE messages SET active = 0, compacted = 1 WHERE id = ?",
		"toolrow": "UPDATE messages SET display_kind = 'hidden' WHERE id = ?",
		"modify":  "UPDATE messages SET active = 0, compacted = 0 WHERE id = ?",
		"db":      "UPDATE messages SET display_kind = 'hidden' WHERE id = ?",
		"mixrun":  "UPDATE messages SET active = 0, compacted = 1 WHERE id = ?",
	} {
		if err := c.run(sql, ids[label]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		query string
		index Index
		want  []string
	}{
		{"docker", IndexUnicode61, []string{"calls", "docker2", "dockerctr", "dockerdb"}},
		{"修改", IndexCJK, []string{"mixrun"}},
		{"数据库", IndexTrigram, []string{"dockerdb"}},
		{"dock", IndexTrigram, []string{"calls", "docker2", "dockerctr", "dockerdb", "dockerfile"}},
	} {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			res := search(t, st, tc.query, SearchFilter{Phase: ph})
			if got := labelsOf(res, ids); res.Index != tc.index || !equalStrings(got, tc.want) {
				t.Errorf("%q phase %d: %s %v, want %s %v", tc.query, ph, res.Index, got, tc.index, tc.want)
			}
		}
	}
	msgs, err := st.Messages(context.Background(), "s-cli")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.ID == ids["docker1"] || m.ID == ids["toolrow"] || m.ID == ids["modify"] {
			t.Errorf("Messages returned hidden message %d", m.ID)
		}
	}
	if len(msgs) != 5 {
		t.Errorf("Messages(s-cli) = %d visible, want 5", len(msgs))
	}
}

// TestSearchCancelled: a cancelled context is the one error search returns.
func TestSearchCancelled(t *testing.T) {
	st, _ := routingStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.SearchMessages(ctx, "docker", SearchFilter{}); err == nil {
		t.Error("search with a cancelled context succeeded")
	}
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := st.SearchMessages(ctx, "docker", SearchFilter{}); err != nil {
		t.Errorf("search after a cancelled one: %v", err)
	}
}

// unmark removes the highlight markers.
func unmark(s string) string {
	return strings.NewReplacer(HighlightStart, "", HighlightEnd, "").Replace(s)
}

// TestSearchSort: Sort orders hits by message time, not by id or rank, on
// every path (FTS and LIKE), over all matches rather than the best-ranked.
func TestSearchSort(t *testing.T) {
	st := mustOpen(t)
	// Imported out of order: ids ascend while times do not (an old
	// session imported after a new one).
	ids := seed(t, st, []fixtureSession{{id: "new", source: "cli", minute: 100}, {id: "old", source: "cli", minute: 0}},
		[]fixture{
			{label: "n1", session: "new", role: "user", content: "deploy the staging box", minute: 101},
			{label: "n2", session: "new", role: "assistant", content: "deploy deploy deploy done", minute: 102},
			{label: "o1", session: "old", role: "user", content: "first deploy ever", minute: 1},
			{label: "o2", session: "old", role: "user", content: "部署 失败 了 deploy", minute: 2},
		})
	for _, tc := range []struct {
		query string
		sort  Sort
		want  []string
	}{
		{"deploy", SortNewest, []string{"n2", "n1", "o2", "o1"}},
		{"deploy", SortOldest, []string{"o1", "o2", "n1", "n2"}},
		{"部署", SortOldest, []string{"o2"}}, // the LIKE/CJK paths sort too
	} {
		for _, ph := range []Phase{PhaseFinal, PhaseFirst} {
			got := hitIDs(search(t, st, tc.query, SearchFilter{Sort: tc.sort, Phase: ph}))
			var want []int64
			for _, l := range tc.want {
				want = append(want, ids[l])
			}
			if len(got) != len(want) {
				t.Errorf("%q sort %d phase %d: %v, want %v", tc.query, tc.sort, ph, got, want)
				continue
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%q sort %d phase %d: %v, want %v", tc.query, tc.sort, ph, got, want)
					break
				}
			}
		}
	}
	// The LIKE scan (a stale or missing index) sorts the same: the engine
	// of a file whose index is stale scans every row.
	stale := st.layout.engineLayout()
	stale.FTSStale = true
	res, err := pipeline.New(engineDB{st}, stale, st.Path()).Search(context.Background(), "deploy", SearchFilter{Sort: SortOldest, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Index != IndexLike {
		t.Fatalf("a stale index answered by %s, want a LIKE scan", res.Index)
	}
	if got := hitIDs(res); len(got) != 4 || got[0] != ids["o1"] || got[3] != ids["n2"] {
		t.Errorf("LIKE oldest: %v", got)
	}
}
