package store

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestTuneProbe(t *testing.T) {
	path := os.Getenv("PROBE_DB")
	if path == "" || os.Getenv("TUNE") == "" {
		t.Skip()
	}
	ctx := context.Background()
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	timeit := func(name, sql string, args ...any) {
		st.read(ctx, func(c *conn) error {
			for i := 0; i < 2; i++ {
				t0 := time.Now()
				n := 0
				if err := c.query(sql, args, func(s stmtRow) error { n++; return nil }); err != nil {
					t.Fatal(name, err)
				}
				if i == 1 {
					t.Logf("%-40s %6d rows %v", name, n, time.Since(t0))
				}
			}
			return nil
		})
	}
	for _, q := range []string{`"t"*`, `"co"*`, `"tr"*`} {
		timeit(q+" cutoff fts-only", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 999", q)
		timeit(q+" cutoff joined", "SELECT messages_fts.rowid FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id WHERE messages_fts MATCH ? AND (m.active = 1 OR m.compacted = 1) ORDER BY messages_fts.rowid DESC LIMIT 1 OFFSET 999", q)
		var cut int64
		st.read(ctx, func(c *conn) error {
			cut, _, _ = c.scalarInt("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET 999", q)
			return nil
		})
		timeit(q+" rank fts-only", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY rank LIMIT 50", q, cut)
		timeit(q+" rank fts-only bm25()", "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY bm25(messages_fts) LIMIT 50", q, cut)
		timeit(q+" rank joined", "SELECT messages_fts.rowid FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id WHERE messages_fts MATCH ? AND messages_fts.rowid >= ? AND (m.active = 1 OR m.compacted = 1) ORDER BY messages_fts.rank LIMIT 50", q, cut)
		timeit(q+" rank joined+snippet", "SELECT snippet(messages_fts, 0, '[', ']', '…', 16) FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN sessions s ON s.id = m.session_id WHERE messages_fts MATCH ? AND messages_fts.rowid >= ? AND (m.active = 1 OR m.compacted = 1) ORDER BY messages_fts.rank LIMIT 50", q, cut)
		timeit(q+" rank subq then join", "SELECT snippet(messages_fts, 0, '[', ']', '…', 16) FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? AND messages_fts.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 AND rowid >= ?2 ORDER BY rank LIMIT 50) ORDER BY messages_fts.rank", q, cut)
	}
}

func TestTuneSearch(t *testing.T) {
	path := os.Getenv("PROBE_DB")
	if path == "" || os.Getenv("TUNE") == "" {
		t.Skip()
	}
	ctx := context.Background()
	st, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	qs := strings.Fields(os.Getenv("TUNE_Q"))
	for _, q := range qs {
		for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
			var worst, total time.Duration
			var r SearchResult
			for i := 0; i < 6; i++ {
				t0 := time.Now()
				r, err = st.SearchMessages(ctx, q, SearchFilter{Typing: true, Phase: ph})
				if err != nil {
					t.Fatal(err)
				}
				d := time.Since(t0)
				if i > 0 {
					total += d
					if d > worst {
						worst = d
					}
				}
			}
			t.Logf("%-18q ph%d %-9s hits=%2d avg=%6.2fms max=%6.2fms complete=%v", q, ph, r.Index, len(r.Hits), float64(total.Microseconds())/5000, float64(worst.Microseconds())/1000, r.Complete)
		}
	}
}
