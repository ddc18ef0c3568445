package store

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/pipeline"
	"github.com/recall-dev/recall/store/engine/plan"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/score"
)

// fullRankCorpus writes n messages over a small vocabulary (so that common
// words match far more rows than pipeline.RankCandidates), in many transactions (so
// the index has many segments), with some rows rewritten and deleted.
func fullRankCorpus(t *testing.T, n int) *Store {
	t.Helper()
	st := mustOpen(t)
	rng := rand.New(rand.NewSource(3))
	words := strings.Fields("error docker network the deploy rollback dockerfile docs connection refused timeout postgres migration nginx kube kubectl kubernetes café résumé 部署 内存泄漏 数据库 修改 服务端")
	text := func() string {
		k := 2 + rng.Intn(30)
		var b strings.Builder
		for i := 0; i < k; i++ {
			w := words[rng.Intn(len(words))]
			if rng.Intn(4) == 0 {
				w = "error"
			}
			if rng.Intn(9) == 0 {
				w = "connection refused"
			}
			b.WriteString(w + " ")
		}
		return b.String()
	}
	ctx := context.Background()
	for batch := 0; batch*200 < n; batch++ {
		err := st.Write(ctx, func(tx *Tx) error {
			sid := fmt.Sprintf("s%d", batch)
			if err := tx.UpsertSession(Session{ID: sid, Source: "cli", StartedAt: at(batch)}); err != nil {
				return err
			}
			var msgs []Message
			for i := 0; i < 200 && batch*200+i < n; i++ {
				m := Message{SessionID: sid, Role: []string{"user", "assistant", "tool"}[i%3], Content: text(), Timestamp: at(batch*200 + i)}
				if i%11 == 0 {
					m.ToolName = "terminal"
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
	nativeChurn(t, st, rng, n, 40, text)
	return st
}

// nativeChurn rewrites and deletes times random rows of the n with a native
// writer, by turns: delete markers in newer segments, and rows whose
// lengths changed behind recall's caches.
func nativeChurn(t *testing.T, st *Store, rng *rand.Rand, n, times int, text func() string) {
	t.Helper()
	c := rawConn(t, st.Path(), false)
	defer c.close()
	for i := 0; i < times; i++ {
		id := 1 + rng.Intn(n)
		if i%2 == 0 {
			mustRun(t, c, "UPDATE messages SET content = ? WHERE id = ?", text(), id)
		} else {
			mustRun(t, c, "DELETE FROM messages WHERE id = ?", id)
		}
	}
}

func mustRun(t *testing.T, c *conn, sql string, args ...any) {
	t.Helper()
	if err := c.run(sql, args...); err != nil {
		t.Fatal(err)
	}
}

// TestFullRankEqualsFTS5 compares full ranking's scores with FTS5's own
// bm25 over every match, for each query shape it reads: words, AND, OR,
// NOT, phrases, prefixes with and without a prefix index, diacritics,
// trigram and CJK bigram tables.
func TestFullRankEqualsFTS5(t *testing.T) {
	st := fullRankCorpus(t, 3000)
	for _, tc := range []struct {
		query string
		index Index
	}{
		{"error", IndexUnicode61},
		{"docker network", IndexUnicode61},
		{"postgres OR nginx", IndexUnicode61},
		{"error NOT docker", IndexUnicode61},
		{`"connection refused"`, IndexUnicode61},
		{`"refused connection"`, IndexUnicode61},
		{"d*", IndexUnicode61},
		{"kube*", IndexUnicode61},
		{"dock*", IndexUnicode61},
		{"cafe", IndexUnicode61},
		{"(deploy OR rollback) error", IndexUnicode61},
		{"^error", IndexUnicode61},
		{"NEAR(docker network, 3)", IndexUnicode61},
		{"NEAR(error \"connection refused\")", IndexUnicode61},
		{"NEAR(error deploy rollback, 0) OR kubernetes", IndexUnicode61},
		{"content:docker network", IndexUnicode61},
		{"内存泄漏", IndexTrigram},
		{"ubernete", IndexTrigram},
		{`"on refus"`, IndexTrigram},
		{"ockerf", IndexTrigram},
		{"error docker", IndexTrigram},
		{"部署", IndexCJK},
		{"修改 服务端", IndexCJK},
	} {
		t.Run(tc.query, func(t *testing.T) {
			q := query.Parse(tc.query, st.layout.engineLayout().Columns(), false)
			p := plan.For(q, tc.index, st.layout.engineLayout())
			err := st.read(context.Background(), func(c *conn) error {
				r, err := testIndexes(st).Read(c, p, st.layout.engineLayout())
				if err != nil {
					return fmt.Errorf("expression %s: %w", p.Expr, err)
				}
				got := collect.Best(r, score.WeightsOf(r), len(r.Rows)+1)
				type row struct {
					id    int64
					score float64
				}
				var want []row
				err = c.query("SELECT rowid, -bm25("+p.Table+") FROM "+p.Table+" WHERE "+p.Table+" MATCH ? ORDER BY bm25("+p.Table+"), rowid DESC", []any{p.Expr}, func(s stmtRow) error {
					want = append(want, row{s.ColumnInt64(0), s.ColumnFloat(1)})
					return nil
				})
				if err != nil {
					return err
				}
				if len(want) < 20 {
					t.Fatalf("%s matched %d rows: the corpus is too small to test ranking", p.Expr, len(want))
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d matches, FTS5 has %d", p.Expr, len(got), len(want))
				}
				for i := range want {
					if got[i].Rowid != want[i].id || math.Abs(got[i].Score-want[i].score) > 1e-9*math.Max(1, want[i].score) {
						t.Fatalf("%s rank %d: row %d score %.12f, FTS5 row %d score %.12f", p.Expr, i, got[i].Rowid, got[i].Score, want[i].id, want[i].score)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFullRankSearchIsComplete: a query with far more matches than
// pipeline.RankCandidates is ranked over all of them (Complete, Matches), its first
// page is FTS5's own top rows, and a filter that rejects most rows still
// fills the page from further down the ranking.
func TestFullRankSearchIsComplete(t *testing.T) {
	st := fullRankCorpus(t, 3000)
	old := pipeline.RankCandidates
	pipeline.RankCandidates = 100
	defer func() { pipeline.RankCandidates = old }()
	res := search(t, st, "error", SearchFilter{Phase: PhaseFinal, Limit: 10})
	if !res.Complete || res.Matches < 1000 || len(res.Hits) != 10 {
		t.Fatalf("complete %v, matches %d, hits %d (%s)", res.Complete, res.Matches, len(res.Hits), res.Notice)
	}
	var want []int64
	st.read(context.Background(), func(c *conn) error {
		return c.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'error' ORDER BY bm25(messages_fts), rowid DESC LIMIT 10", nil, func(s stmtRow) error {
			want = append(want, s.ColumnInt64(0))
			return nil
		})
	})
	for i, h := range res.Hits {
		if h.MessageID != want[i] {
			t.Fatalf("hit %d is row %d, FTS5's is %d", i, h.MessageID, want[i])
		}
		if !strings.Contains(strings.ToLower(h.Snippet), "error") {
			t.Errorf("hit %d snippet %q does not show the word", i, h.Snippet)
		}
	}
	tools := search(t, st, "error", SearchFilter{Phase: PhaseFinal, Limit: 20, Roles: []string{"tool"}})
	if len(tools.Hits) != 20 || !tools.Complete {
		t.Fatalf("role filter: %d hits, complete %v", len(tools.Hits), tools.Complete)
	}
	for i, h := range tools.Hits {
		if h.Role != "tool" || (i > 0 && h.Rank < tools.Hits[i-1].Rank) {
			t.Fatalf("role filter: hit %d role %s rank %v after %v", i, h.Role, h.Rank, tools.Hits[max(i-1, 0)].Rank)
		}
	}
	page2 := search(t, st, "error", SearchFilter{Phase: PhaseFinal, Limit: 5, Offset: 5})
	for i, h := range page2.Hits {
		if h.MessageID != want[5+i] {
			t.Fatalf("offset 5: hit %d is row %d, want %d", i, h.MessageID, want[5+i])
		}
	}
}

// TestFullRankSeesRewrittenRows: a row rewritten in place after the length
// cache was filled is ranked with its new length (the answer's rows are
// checked against %_docsize and the cache is read again).
func TestFullRankSeesRewrittenRows(t *testing.T) {
	st := fullRankCorpus(t, 2000)
	first := search(t, st, "error", SearchFilter{Phase: PhaseFinal, Limit: 1}).Hits[0]
	c := rawConn(t, st.Path(), false)
	mustRun(t, c, "UPDATE messages SET content = ? WHERE id = ?", "error "+strings.Repeat("padding ", 400), first.MessageID)
	c.close()
	again := search(t, st, "error", SearchFilter{Phase: PhaseFinal, Limit: 1}).Hits[0]
	if again.MessageID == first.MessageID {
		t.Fatalf("row %d, now 400 words long, still ranks first", first.MessageID)
	}
}

// TestFullRankMultiColumn: a table with Hermes's three columns (a row's
// length is every column's; a term counts in any column), and external
// content, ranks as FTS5 ranks it.
func TestFullRankMultiColumn(t *testing.T) {
	st := mustOpen(t)
	c := rawConn(t, st.Path(), false)
	mustRun(t, c, "CREATE TABLE docs(id INTEGER PRIMARY KEY, content TEXT, tool_name TEXT, tool_calls TEXT)")
	mustRun(t, c, "CREATE VIRTUAL TABLE hermes_fts USING fts5(content, tool_name, tool_calls, content=docs, content_rowid=id)")
	rng := rand.New(rand.NewSource(11))
	words := strings.Fields("error docker terminal read_file network the deploy")
	pick := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(words[rng.Intn(len(words))] + " ")
		}
		return b.String()
	}
	mustRun(t, c, "BEGIN")
	for i := 1; i <= 600; i++ {
		content, tool, calls := pick(1+rng.Intn(20)), pick(rng.Intn(2)), pick(rng.Intn(6))
		mustRun(t, c, "INSERT INTO docs(id, content, tool_name, tool_calls) VALUES (?, ?, ?, ?)", i, content, tool, calls)
		mustRun(t, c, "INSERT INTO hermes_fts(rowid, content, tool_name, tool_calls) VALUES (?, ?, ?, ?)", i, content, tool, calls)
		if i%150 == 0 {
			mustRun(t, c, "COMMIT")
			mustRun(t, c, "BEGIN")
		}
	}
	mustRun(t, c, "COMMIT")
	c.close()
	for _, expr := range []string{`"terminal"`, `"read" "file"`, `"docker" OR "network"`, `"dep"*`,
		`tool_name : "terminal"`, `content : ("docker" OR "network")`, `^"docker"`, `tool_calls : "read file"`, `^"error" NOT tool_name : "terminal"`,
		`NEAR("docker" "network", 2)`, `content : NEAR("error" "deploy")`} {
		err := st.read(context.Background(), func(c *conn) error {
			r, err := testIndexes(st).Read(c, plan.Match{Table: "hermes_fts", Expr: expr}, st.layout.engineLayout())
			if err != nil {
				return fmt.Errorf("%s: %w", expr, err)
			}
			got := collect.Best(r, score.WeightsOf(r), len(r.Rows)+1)
			i := 0
			err = c.query("SELECT rowid, -bm25(hermes_fts) FROM hermes_fts WHERE hermes_fts MATCH ? ORDER BY bm25(hermes_fts), rowid DESC", []any{expr}, func(s stmtRow) error {
				if i >= len(got) || got[i].Rowid != s.ColumnInt64(0) || math.Abs(got[i].Score-s.ColumnFloat(1)) > 1e-9 {
					return fmt.Errorf("%s rank %d: FTS5 has row %d score %f", expr, i, s.ColumnInt64(0), s.ColumnFloat(1))
				}
				i++
				return nil
			})
			if err == nil && (i != len(got) || i < 20) {
				err = fmt.Errorf("%s: %d rows, FTS5 %d", expr, len(got), i)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
