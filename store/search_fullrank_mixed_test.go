package store

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/pipeline"
)

// mixedCorpus writes n messages that mix CJK and Latin: CJK words of two
// characters, Latin words and longer tokens holding them (dockerfile,
// golang), mixed-script runs (修改docker服务端, 部署go服务), 1-2 character
// words (go, k), and tool calls that alone hold a Latin word; then a native
// writer rewrites and deletes some rows, and recall indexes the rewritten
// rows' grams.
func mixedCorpus(t *testing.T, n int) *Store {
	t.Helper()
	st := mustOpen(t)
	rng := rand.New(rand.NewSource(23))
	words := strings.Fields("docker dockerfile rollback compose go golang Go k GO google 容器 部署 服务 修改 回滚 配置 " +
		"修改docker服务端 部署go服务 容器Go版本 回滚rollback记录 the error network 数据库 docker-compose " +
		"alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega 今天 明天 问题 代码 测试 日志 文件 用户 请求 接口")
	text := func() string {
		var b strings.Builder
		for i, k := 0, 1+rng.Intn(14); i < k; i++ {
			b.WriteString(words[rng.Intn(len(words))])
			if rng.Intn(5) == 0 {
				b.WriteString("，") // CJK punctuation: a separator
			} else {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	ctx := context.Background()
	for batch := 0; batch*100 < n; batch++ {
		err := st.Write(ctx, func(tx *Tx) error {
			sid := fmt.Sprintf("s%d", batch)
			if err := tx.UpsertSession(Session{ID: sid, Source: "cli", StartedAt: at(batch)}); err != nil {
				return err
			}
			var msgs []Message
			for i := 0; i < 100 && batch*100+i < n; i++ {
				m := Message{SessionID: sid, Role: []string{"user", "assistant", "tool"}[i%3], Content: text(), Timestamp: at(batch*100 + i)}
				if i%13 == 0 {
					// The Latin word only in the tool call.
					m.Content = "部署容器服务"
					m.ToolName = "terminal"
					m.ToolCalls = `[{"cmd":"docker compose up; go build"}]`
				}
				msgs = append(msgs, m)
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	nativeChurn(t, st, rng, n, 30, text)
	// recall's next write computes the grams of the rows the native writer queued.
	if err := st.Write(ctx, func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM recall_cjk_pending"); n != 0 {
		t.Fatalf("%d rows still queued for grams", n)
	}
	return st
}

// mixedRef is a mixed query and, written out by hand, what each table is
// asked: the CJK expression on recall_fts_cjk, each 3+ character Latin
// term's substring on messages_fts_trigram, each 1-2 character one as a
// word of messages_fts or a piece of recall_fts_cjk.
type mixedRef struct {
	query string
	cjk   string
	tri   []string
	short []string
}

// nativeMixed ranks ref with FTS5's own bm25 of each table: a row matches
// every part; its score is the sum of -bm25 over the parts (a short term
// held as a word scores on messages_fts, else on recall_fts_cjk), in the
// order the parts are listed; equal scores newest first.
func nativeMixed(t *testing.T, st *Store, ref mixedRef) []collect.Scored {
	t.Helper()
	part := func(c *conn, table, expr string) map[int64]float64 {
		out := map[int64]float64{}
		err := c.query("SELECT f.rowid, -bm25("+table+") FROM "+table+" f JOIN messages m ON m.id = f.rowid WHERE "+table+" MATCH ? AND "+
			st.layout.visibleMessage(), []any{expr}, func(s stmtRow) error {
			out[s.ColumnInt64(0)] = s.ColumnFloat(1)
			return nil
		})
		if err != nil {
			t.Fatalf("%s MATCH %s: %v", table, expr, err)
		}
		return out
	}
	var parts []map[int64]float64
	err := st.read(context.Background(), func(c *conn) error {
		parts = append(parts, part(c, "recall_fts_cjk", ref.cjk))
		for _, e := range ref.tri {
			parts = append(parts, part(c, "messages_fts_trigram", e))
		}
		for _, w := range ref.short {
			words, pieces := part(c, "messages_fts", w), part(c, "recall_fts_cjk", strings.ToLower(w))
			for id, sc := range pieces {
				if _, ok := words[id]; !ok {
					words[id] = sc
				}
			}
			parts = append(parts, words)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []collect.Scored
	for id, sc := range parts[0] {
		all := true
		for _, p := range parts[1:] {
			s, ok := p[id]
			if !ok {
				all = false
				break
			}
			sc += s
		}
		if all {
			out = append(out, collect.Scored{Rowid: id, Score: sc})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Better(out[j]) })
	return out
}

// TestFullRankMixedEqualsNative: a query mixing 1-2 character CJK terms
// with Latin words is ranked over every match (Complete, no "newest"
// notice), and its ranking is, row for row and score for score, the sum
// of FTS5's own bm25 of each table the parts are read from.
func TestFullRankMixedEqualsNative(t *testing.T) {
	st := mixedCorpus(t, 3000)
	for _, ref := range []mixedRef{
		{query: "docker 容器", cjk: `"容器"`, tri: []string{`"docker"`}},
		{query: "部署 rollback", cjk: `"部署"`, tri: []string{`"rollback"`}},
		{query: "go 服务", cjk: `"服务"`, short: []string{`"go"`}},
		{query: "服务 Go", cjk: `"服务"`, short: []string{`"Go"`}},
		{query: "容器 docker compose", cjk: `"容器"`, tri: []string{`"docker"`, `"compose"`}},
		{query: `"docker compose" 部署`, cjk: `"部署"`, tri: []string{`"docker compose"`}},
		{query: "修改 k 服务", cjk: `"修改" AND "服务"`, short: []string{`"k"`}},
		{query: "服务 go*", cjk: `"服务"`, short: []string{`"go"*`}},
		{query: "容器 dock*", cjk: `"容器"`, tri: []string{`"dock"`}},
		{query: "改 go docker", cjk: `"改"*`, tri: []string{`"docker"`}, short: []string{`"go"`}},
	} {
		t.Run(ref.query, func(t *testing.T) {
			want := nativeMixed(t, st, ref)
			if len(want) < 20 {
				t.Fatalf("%d native matches: the corpus does not test this query", len(want))
			}
			var hits []Hit
			for len(hits) < len(want) { // pages of pipeline.MaxLimit, as a caller pages
				res := search(t, st, ref.query, SearchFilter{Phase: PhaseFinal, Limit: pipeline.MaxLimit, Offset: len(hits)})
				if res.Index != IndexCJK {
					t.Fatalf("answered by %s, want the CJK route", res.Index)
				}
				if !res.Complete || strings.Contains(res.Notice, "newest") {
					t.Fatalf("complete %v, notice %q", res.Complete, res.Notice)
				}
				if res.Matches != len(want) || len(res.Hits) == 0 {
					t.Fatalf("offset %d: %d matches, %d hits; native has %d", len(hits), res.Matches, len(res.Hits), len(want))
				}
				hits = append(hits, res.Hits...)
			}
			if len(hits) != len(want) {
				t.Fatalf("%d hits; native has %d", len(hits), len(want))
			}
			for i, w := range want {
				h := hits[i]
				if h.MessageID != w.Rowid || math.Abs(-h.Rank-w.Score) > 1e-9*math.Abs(w.Score) {
					t.Fatalf("rank %d: row %d score %.12f, native row %d score %.12f", i, h.MessageID, -h.Rank, w.Rowid, w.Score)
				}
			}
			ses := search(t, st, ref.query, SearchFilter{Phase: PhaseFinal, Limit: pipeline.MaxLimit, Sessions: true})
			if strings.ContainsAny(ref.query, `"*`) {
				// With syntax, sessions are ranked from the same rows: each session by its best row.
				if !ses.Complete || ses.Matches != len(want) || len(ses.Hits) == 0 || ses.Hits[0].MessageID != want[0].Rowid {
					t.Fatalf("sessions: complete %v, %d matches, %d hits", ses.Complete, ses.Matches, len(ses.Hits))
				}
				return
			}
			// Plain words, any of them enough to match: the sessions with a
			// message holding every word come first.
			every := map[string]bool{}
			for _, h := range hits {
				every[h.SessionID] = true
			}
			if len(ses.Hits) == 0 || !every[ses.Hits[0].SessionID] || ses.Matches < len(want) {
				t.Fatalf("sessions: %d matches (native AND %d), first %+v", ses.Matches, len(want), ses.Hits)
			}
		})
	}
}

// TestMixedFindsDeferredTrigramRows: rows an import left out of the
// trigram index (deferred) are still found by a mixed CJK + Latin query,
// whose Latin word is read from that index when it is ranked in full.
func TestMixedFindsDeferredTrigramRows(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	if err := st.CreateSession(ctx, Session{ID: "s", Source: "test", StartedAt: at(0)}); err != nil {
		t.Fatal(err)
	}
	var msgs []Message
	for i := 0; i < 12; i++ {
		msgs = append(msgs, Message{SessionID: "s", Role: "user", Timestamp: at(i), Content: fmt.Sprintf("第%d次 docker 容器 重启", i)})
	}
	st.SetDeferTrigram(true)
	if _, err := st.AppendMessages(ctx, msgs[:5]); err != nil {
		t.Fatal(err)
	}
	st.SetDeferTrigram(false)
	if _, err := st.AppendMessages(ctx, msgs[5:]); err != nil {
		t.Fatal(err)
	}
	if n, err := st.DeferredTrigram(ctx); err != nil || n != 5 {
		t.Fatalf("deferred: %d, %v; want 5", n, err)
	}
	for _, f := range []SearchFilter{{Phase: PhaseFinal, Limit: 50}, {Phase: PhaseFirst, Limit: 50}} {
		res := search(t, st, "docker 容器", f)
		if len(res.Hits) != 12 {
			t.Errorf("phase %v: %d hits (%s), want all 12", f.Phase, len(res.Hits), res.Index)
		}
	}
	if err := st.IndexDeferredTrigram(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if res := search(t, st, "docker 容器", SearchFilter{Phase: PhaseFinal, Limit: 50}); len(res.Hits) != 12 || !res.Complete {
		t.Errorf("indexed: %d hits, complete %v", len(res.Hits), res.Complete)
	}
}

// TestFullRankMixedSeesRewrittenRows: a row a native writer rewrote in
// place after the length caches were filled is ranked with its new length
// on every table it scores on (the page's rows are checked against each
// table's %_docsize), as FTS5 ranks it.
func TestFullRankMixedSeesRewrittenRows(t *testing.T) {
	st := mixedCorpus(t, 1500)
	ref := mixedRef{query: "docker 容器", cjk: `"容器"`, tri: []string{`"docker"`}}
	first := search(t, st, ref.query, SearchFilter{Phase: PhaseFinal, Limit: 1}).Hits[0]
	c := rawConn(t, st.Path(), false)
	mustRun(t, c, "UPDATE messages SET content = ? WHERE id = ?", "docker 容器 "+strings.Repeat("填充 padding ", 300), first.MessageID)
	c.close()
	if err := st.Write(context.Background(), func(tx *Tx) error { return nil }); err != nil { // the row's grams
		t.Fatal(err)
	}
	want := nativeMixed(t, st, ref)
	got := search(t, st, ref.query, SearchFilter{Phase: PhaseFinal, Limit: pipeline.MaxLimit}) // the row is on the page
	if len(want) > pipeline.MaxLimit || len(got.Hits) != len(want) {
		t.Fatalf("%d hits, native has %d", len(got.Hits), len(want))
	}
	if got.Hits[0].MessageID == first.MessageID {
		t.Fatalf("row %d, now 600 words long, still ranks first", first.MessageID)
	}
	for i, h := range got.Hits {
		if h.MessageID != want[i].Rowid || math.Abs(-h.Rank-want[i].Score) > 1e-9*math.Abs(want[i].Score) {
			t.Fatalf("rank %d: row %d score %.12f, native row %d score %.12f", i, h.MessageID, -h.Rank, want[i].Rowid, want[i].Score)
		}
	}
}

// TestMixedWithoutTrigramIsBounded: on a file without a trigram index a
// mixed query is ranked over its newest pipeline.RankCandidates matches, and says
// so (Complete=false, a notice).
func TestMixedWithoutTrigramIsBounded(t *testing.T) {
	st := mixedCorpus(t, 600)
	path := st.Path()
	st.Close()
	c := rawConn(t, path, false)
	mustRun(t, c, "DROP TABLE messages_fts_trigram")
	c.close()
	st = mustOpenPath(t, path, Options{})
	if st.layout.hasTrigram {
		t.Fatal("the trigram table is back")
	}
	defer func(n int) { pipeline.RankCandidates = n }(pipeline.RankCandidates)
	pipeline.RankCandidates = 20
	res := search(t, st, "docker 容器", SearchFilter{Phase: PhaseFinal, Limit: 10})
	if res.Index != IndexCJK || res.Complete || !strings.Contains(res.Notice, "newest 20") || len(res.Hits) != 10 {
		t.Fatalf("%s: complete %v, %d hits, notice %q", res.Index, res.Complete, len(res.Hits), res.Notice)
	}
}

// TestPlainCJKWordsFindDeferredRows: a plain query's CJK word is read
// from its index and from the rows that index does not cover yet: the
// rows an import left out of the trigram index are found by a session
// search as by a message search, and with a word nobody wrote beside it.
func TestPlainCJKWordsFindDeferredRows(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	for _, id := range []string{"old", "new"} {
		if err := st.CreateSession(ctx, Session{ID: id, Source: "test", StartedAt: at(0)}); err != nil {
			t.Fatal(err)
		}
	}
	st.SetDeferTrigram(false)
	if _, err := st.AppendMessages(ctx, []Message{{SessionID: "old", Role: "user", Timestamp: at(0), Content: "重启数据库之前先备份"}}); err != nil {
		t.Fatal(err)
	}
	st.SetDeferTrigram(true)
	if _, err := st.AppendMessages(ctx, []Message{{SessionID: "new", Role: "user", Timestamp: at(1), Content: "数据库连接池耗尽了"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := st.DeferredTrigram(ctx); err != nil || n != 1 {
		t.Fatalf("deferred: %d, %v; want 1", n, err)
	}
	for _, q := range []string{"数据库", "数据库 zzzqqq", "连接池 数据库"} {
		res := search(t, st, q, SearchFilter{Phase: PhaseFinal, Sessions: true})
		got := map[string]bool{}
		for _, h := range res.Hits {
			got[h.SessionID] = true
		}
		if !got["old"] || !got["new"] {
			t.Errorf("%q: sessions %v, want old and new (%s)", q, got, res.Index)
		}
	}
}
