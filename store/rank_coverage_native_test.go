package store

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/postings"
)

// The native reference of the rank coverage measures (issue 23): FTS5's own
// bm25 over every match of the MATCH expression a search ran, on the same
// file, with the same visibility and filters as the search. Exported (in
// tests only) for BenchmarkRankCoverage, which lives in store_test because
// it needs store/synth.

// ScoredRow is a message, its session and its FTS5 bm25 (lower is better).
type ScoredRow struct {
	ID      int64
	Session string
	Score   float64
}

// nativeUnknown opens the reason NativeMatch gives for an answer that names
// no FTS5 table it knows, or no expression.
const nativeUnknown = "n/a: unknown index"

// NativeUnknown reports whether why (from NativeMatch) says the answer
// named no known FTS5 table or no MATCH expression, rather than a route
// that has no plain MATCH reference (LIKE, MATCH + LIKE) or no index.
func NativeUnknown(why string) bool { return strings.HasPrefix(why, nativeUnknown) }

// NativeMatch is the FTS5 table and MATCH expression a search ran (the
// table of res.Index, res.Query), or why it ran no plain MATCH expression.
func NativeMatch(res SearchResult) (table, expr, why string) {
	if res.Query == "" && res.Index != IndexNone && res.Index != IndexLike {
		return "", "", nativeUnknown + " " + string(res.Index) + ", no expression"
	}
	if strings.Contains(res.Query, " + LIKE ") {
		return "", "", "n/a: MATCH + LIKE (mixed CJK+Latin)"
	}
	if strings.Contains(res.Query, postings.MixedSep) {
		return "", "", "n/a: several tables (mixed CJK+Latin, TestFullRankMixedEqualsNative)"
	}
	switch res.Index {
	case IndexUnicode61:
		return "messages_fts", res.Query, ""
	case IndexTrigram:
		return "messages_fts_trigram", res.Query, ""
	case IndexCJK:
		return "recall_fts_cjk", res.Query, ""
	case IndexLike:
		return "", "", "n/a: LIKE scan"
	}
	if res.Index == IndexNone {
		return "", "", "n/a: no index answered"
	}
	return "", "", nativeUnknown + " " + string(res.Index)
}

// nativeFrom is the FROM and WHERE of every match of expr in table that f
// lets through, joined as searchFTS joins them.
func (s *Store) nativeFrom(table, expr string, f SearchFilter) (string, []any) {
	filter, fargs := fill.Where(s.layout.engineLayout(), f)
	from := " FROM " + table + " CROSS JOIN messages m ON m.id = " + table + ".rowid CROSS JOIN sessions s ON s.id = m.session_id" +
		" WHERE " + table + " MATCH ? AND " + filter
	return from, append([]any{expr}, fargs...)
}

// NativeTop returns FTS5's top k by bm25 over every match of expr in table
// that f lets through (equal scores: newest first, as the SQL "ORDER BY
// bm25(T), rowid DESC LIMIT k" a person would run), and the bm25 of each
// of ids that matches.
func (s *Store) NativeTop(ctx context.Context, table, expr string, f SearchFilter, k int, ids []int64) (top []ScoredRow, scores map[int64]float64, err error) {
	scores = map[int64]float64{}
	err = s.read(ctx, func(c *conn) error {
		from, args := s.nativeFrom(table, expr, f)
		sql := "SELECT " + table + ".rowid, m.session_id, bm25(" + table + ")" + from +
			" ORDER BY bm25(" + table + "), " + table + ".rowid DESC LIMIT ?"
		err := c.query(sql, append(args, k), func(st stmtRow) error {
			top = append(top, ScoredRow{ID: st.ColumnInt64(0), Session: st.ColumnText(1), Score: st.ColumnFloat(2)})
			return nil
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		in := make([]any, 0, len(ids)+1)
		in = append(in, expr)
		for _, id := range ids {
			in = append(in, id)
		}
		sql = "SELECT rowid, bm25(" + table + ") FROM " + table + " WHERE " + table + " MATCH ? AND rowid IN (" +
			strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
		return c.query(sql, in, func(st stmtRow) error {
			scores[st.ColumnInt64(0)] = st.ColumnFloat(1)
			return nil
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("native top %q on %s: %w", expr, table, err)
	}
	return top, scores, nil
}

// NativeSessions reads every match of expr in table that f lets through with its bm25 and returns every session ordered by its best
// (lowest) bm25, equal ones by their best row's id, newest first: the
// message ranking grouped by session. Each ScoredRow is the session's best
// row. matches is the number of matching rows.
func (s *Store) NativeSessions(ctx context.Context, table, expr string, f SearchFilter) (sessions []ScoredRow, matches int, err error) {
	best := map[string]ScoredRow{}
	err = s.read(ctx, func(c *conn) error {
		from, args := s.nativeFrom(table, expr, f)
		return c.query("SELECT "+table+".rowid, m.session_id, bm25("+table+")"+from, args, func(st stmtRow) error {
			r := ScoredRow{ID: st.ColumnInt64(0), Session: st.ColumnText(1), Score: st.ColumnFloat(2)}
			matches++
			if b, ok := best[r.Session]; !ok || nativeBefore(r, b) {
				best[r.Session] = r
			}
			return nil
		})
	})
	if err != nil {
		return nil, 0, fmt.Errorf("native sessions %q on %s: %w", expr, table, err)
	}
	for _, r := range best {
		sessions = append(sessions, r)
	}
	sort.Slice(sessions, func(i, j int) bool { return nativeBefore(sessions[i], sessions[j]) })
	return sessions, matches, nil
}

// nativeBefore is the reference order: bm25, then the newest row.
func nativeBefore(a, b ScoredRow) bool {
	if a.Score != b.Score {
		return a.Score < b.Score
	}
	return a.ID > b.ID
}

// scoreTie is how close two bm25 scores must be to count as equal: the
// generated corpus repeats messages word for word, and equal texts of equal
// length score the same.
const scoreTie = 1e-9

// TieAwareOverlap counts the hits (the first k) that are in top, or whose
// bm25 in scores is no worse than top's last (a tie at the cut), at most
// len(top). plain counts the hits in top alone.
func TieAwareOverlap(hits []int64, top []ScoredRow, scores map[int64]float64, k int) (plain, tie int) {
	hits = hits[:min(len(hits), k)]
	in := map[int64]bool{}
	for _, r := range top {
		in[r.ID] = true
	}
	for _, id := range hits {
		sc, ok := scores[id]
		switch {
		case in[id]:
			plain++
			tie++
		case ok && len(top) > 0 && sc <= top[len(top)-1].Score+scoreTie:
			tie++
		}
	}
	return plain, min(tie, len(top))
}

// PlainReference is plainReference (plain_reference_test.go) for the
// benchmark: a plain query's listed sessions, best first, ranked the slow,
// obvious way over every match.
func PlainReference(tb testing.TB, st *Store, query string, f SearchFilter) []string {
	return plainReference(tb, st, query, f)
}

// NativeCount is how many rows of table match expr, before any filter.
func (s *Store) NativeCount(ctx context.Context, table, expr string) (int, error) {
	var n int64
	err := s.read(ctx, func(c *conn) error {
		var err error
		n, _, err = c.scalarInt("SELECT count(*) FROM "+table+" WHERE "+table+" MATCH ?", expr)
		return err
	})
	return int(n), err
}
