package store_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// BenchmarkRankCoverage measures issue 23: per query of the native
// comparison set (synth.BenchQueries) and the issue's keyword queries, how
// much of recall's final ranking is FTS5's own bm25 over every match on the
// same file, beside the timings. It prints one markdown table (for the
// README) and summary lines; run it once:
//
//	RECALL_BENCH_DB=/tmp/cov-1m.db go test ./store -run '^$' -bench RankCoverage -benchtime 1x -timeout 60m
//
// Columns:
//   - msgs: `recall messages --limit 10 QUERY` (SearchFilter{Limit: 10},
//     final phase): p50/p99 over RECALL_COVERAGE_RUNS runs (default 20),
//     Complete, and overlap@10 with the native top 10 (ORDER BY bm25(T),
//     rowid DESC LIMIT 10 over every visible match of res.Query in the
//     table of res.Index): plain |R∩N| / min(10, |N|), and tie-aware (a
//     hit whose bm25 equals the native 10th's counts too). "n/a" where the
//     search ran no plain MATCH expression (LIKE, MATCH + LIKE).
//   - sessions: Discover's call (Sessions, user and assistant rows, hidden
//     sources excluded, limit 300, final phase), its hits grouped by
//     session in order, top 10 sessions, against the session reference:
//     "bm25", the message ranking grouped by session (sessions by their
//     best native bm25 over every match the same filter lets through); for
//     a plain query (answered by the store's own session scoring, Words !=
//     nil) "reference", the same ranking computed again the slow, obvious
//     way over every match (store.PlainReference: FTS5 MATCH per word, the
//     text tokenized again, sessions, titles and filters read with SQL).
//     "equal" when the ten ids are the same in the same order, "equal*"
//     when they differ only among equal bm25 scores, else how many of the
//     ten are shared. The last column compares every query, plain ones
//     too, with the bm25 grouping.
//   - native: time of the native top-10 query (one run after recall's runs).
func BenchmarkRankCoverage(b *testing.B) {
	path := os.Getenv("RECALL_BENCH_DB")
	if path == "" {
		b.Skip("set RECALL_BENCH_DB to a corpus made by `recall gen` (a copy: opening migrates it)")
	}
	runs := 20
	if v, err := strconv.Atoi(os.Getenv("RECALL_COVERAGE_RUNS")); err == nil && v > 0 {
		runs = v
	}
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	stats, err := st.Stats(ctx)
	if err != nil {
		b.Fatal(err)
	}

	var rows []coverageRow
	for _, q := range coverageQueries() {
		rows = append(rows, measureCoverage(b, ctx, st, q.kind, q.query, runs))
	}
	out := formatCoverage(rows, fmt.Sprintf("%s: %d messages, %d sessions, %d runs per production call", path, stats.Messages, stats.Sessions, runs))
	fmt.Print(out)
	mean, meanTie, equal, n := coverageMeans(rows)
	b.ReportMetric(mean, "overlap@10")
	b.ReportMetric(meanTie, "overlap@10-ties")
	b.ReportMetric(float64(equal)/float64(max(n, 1)), "sessions-equal")
}

// issue23Queries are the issue's own keyword queries and plain questions.
var issue23Queries = []string{"error", "docker", "nginx", "deploy OR rollback", "kube*", "connection timeout",
	"postgres migration", "docker networking error", "how did we fix the nginx timeout"}

type coverageQuery struct{ kind, query string }

// coverageQueries are synth.BenchQueries then issue23Queries, each once.
func coverageQueries() []coverageQuery {
	var out []coverageQuery
	seen := map[string]bool{}
	for _, q := range synth.BenchQueries {
		seen[q.Query] = true
		out = append(out, coverageQuery{q.Kind, q.Query})
	}
	for _, q := range issue23Queries {
		if !seen[q] {
			seen[q] = true
			out = append(out, coverageQuery{"issue23", q})
		}
	}
	return out
}

// Filters of the production calls (ui/cli's `recall messages --limit 10`
// and recall.Engine.Discover's final phase: recall.DefaultRoles,
// recall.HiddenSources, recall.DiscoverScanLimit; store cannot import recall).
var (
	covMessagesFilter = store.SearchFilter{Limit: 10, Phase: store.PhaseFinal}
	covSessionsFilter = store.SearchFilter{Limit: 300, Phase: store.PhaseFinal, Sessions: true,
		Roles: []string{"user", "assistant"}, ExcludeSources: []string{"subagent", "tool"}}
)

type coverageRow struct {
	kind, query string
	index       store.Index
	// matches: rows matching the sessions call's MATCH expression that
	// its filter lets through; -1 unknown.
	matches int

	msgP50, msgP99 time.Duration
	msgComplete    bool
	native         time.Duration
	overlapWhy     string // non-empty: no overlap (why)
	overlap, tie   int
	denom          int

	sesP50, sesP99 time.Duration
	sesComplete    bool
	sesRef         string // "bm25", "uncapped", or "n/a: ..."
	sesRefTime     time.Duration
	sesEqual       string // against sesRef: "equal", "equal*", "k/10"
	sesEq          bool
	sesBM25        string // against the message bm25 grouped by session
	sesBM25Eq      bool
	// refMark, sesMark: "†" when the reference ran the first phase's
	// MATCH expression (covReference).
	refMark, sesMark string
}

// covReference is the FTS5 table and MATCH expression the native reference
// runs for a final-phase answer res: its own, when it names a known index
// and its expression; otherwise (a final phase that reports another index,
// or none) the first phase's for the same query and filter, which issue 23
// leaves as it is, marked "†". why says when there is none.
func covReference(b *testing.B, ctx context.Context, st *store.Store, query string, f store.SearchFilter, res store.SearchResult) (table, expr, why, mark string) {
	table, expr, why = store.NativeMatch(res)
	if !store.NativeUnknown(why) {
		return table, expr, why, ""
	}
	f.Phase = store.PhaseFirst
	first, err := st.SearchMessages(ctx, query, f)
	if err != nil {
		b.Fatal(err)
	}
	if t, e, w := store.NativeMatch(first); w == "" {
		return t, e, "", "†"
	}
	return table, expr, why, ""
}

func measureCoverage(b *testing.B, ctx context.Context, st *store.Store, kind, query string, runs int) coverageRow {
	r := coverageRow{kind: kind, query: query, matches: -1}
	msg, p50, p99 := covTimeSearch(b, ctx, st, query, covMessagesFilter, runs)
	r.index, r.msgP50, r.msgP99, r.msgComplete = msg.Index, p50, p99, msg.Complete
	ses, p50, p99 := covTimeSearch(b, ctx, st, query, covSessionsFilter, runs)
	r.sesP50, r.sesP99, r.sesComplete = p50, p99, ses.Complete

	// Messages: overlap@10 with FTS5's bm25 over every match.
	ids := covHitIDs(msg.Hits)
	t0 := time.Now()
	var top []store.ScoredRow
	var scores map[int64]float64
	var err error
	table, expr, why, mark := covReference(b, ctx, st, query, covMessagesFilter, msg)
	r.refMark = mark
	if why == "" {
		if top, scores, err = st.NativeTop(ctx, table, expr, covMessagesFilter, 10, ids); err != nil {
			b.Fatal(err)
		}
	}
	r.native = time.Since(t0)
	switch {
	case why != "":
		r.overlapWhy = why
	case len(top) == 0:
		r.overlapWhy = "n/a: no native match"
	default:
		r.overlap, r.tie = store.TieAwareOverlap(ids, top, scores, 10)
		r.denom = len(top)
	}

	// Sessions: top 10 against the message ranking grouped by session
	// (bm25) and, for a plain query, against the same call uncapped.
	got := covSessionOrder(ses.Hits, 10)
	t0 = time.Now()
	var all []store.ScoredRow
	var matches int
	table, expr, why, mark = covReference(b, ctx, st, query, covSessionsFilter, ses)
	r.sesMark = mark
	if why == "" {
		if all, matches, err = st.NativeSessions(ctx, table, expr, covSessionsFilter); err != nil {
			b.Fatal(err)
		}
	}
	bm25Time := time.Since(t0)
	if why != "" {
		r.sesBM25 = why
	} else {
		r.matches = matches
		best := map[string]float64{}
		for _, s := range all {
			best[s.Session] = s.Score
		}
		want := make([]string, 0, 10)
		for _, s := range all[:min(len(all), 10)] {
			want = append(want, s.Session)
		}
		cut := 0.0
		if len(all) > 0 {
			cut = all[min(len(all), 10)-1].Score
		}
		r.sesBM25, r.sesBM25Eq = covCompareSessions(got, want, best, &cut)
	}
	if ses.Words == nil {
		r.sesRef, r.sesRefTime, r.sesEqual, r.sesEq = "bm25"+r.sesMark, bm25Time, r.sesBM25, r.sesBM25Eq
		if why != "" {
			r.sesRef, r.sesEqual = why, ""
		}
		return r
	}
	// A plain query: the store's own session ranking, computed again the
	// slow, obvious way over every match (store.PlainReference).
	r.sesRef = "reference"
	t0 = time.Now()
	want := store.PlainReference(b, st, query, covSessionsFilter)
	r.sesRefTime = time.Since(t0)
	r.sesEqual, r.sesEq = covCompareSessions(got, want[:min(len(want), 10)], nil, nil)
	return r
}

// covTimeSearch runs query once to warm, then runs times, and returns the last
// answer with the p50 and p99 (nearest rank) latencies.
func covTimeSearch(b *testing.B, ctx context.Context, st *store.Store, query string, f store.SearchFilter, runs int) (store.SearchResult, time.Duration, time.Duration) {
	res, err := st.SearchMessages(ctx, query, f)
	if err != nil {
		b.Fatal(err)
	}
	ds := make([]time.Duration, 0, runs)
	for range runs {
		t0 := time.Now()
		if res, err = st.SearchMessages(ctx, query, f); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	return res, ds[len(ds)/2], ds[min(len(ds)-1, (len(ds)*99+99)/100-1)]
}

func covHitIDs(hits []store.Hit) []int64 {
	out := make([]int64, len(hits))
	for i, h := range hits {
		out[i] = h.MessageID
	}
	return out
}

// covSessionOrder is the sessions of hits in first-appearance order, at most k.
func covSessionOrder(hits []store.Hit, k int) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		if len(out) == k {
			break
		}
		if !seen[h.SessionID] {
			seen[h.SessionID] = true
			out = append(out, h.SessionID)
		}
	}
	return out
}

// covCompareSessions says whether got equals want; with best (each session's
// native best bm25) and cut (the reference's 10th), "equal*" when every
// one of got scores no worse than the cut and there are as many.
func covCompareSessions(got, want []string, best map[string]float64, cut *float64) (string, bool) {
	if slices.Equal(got, want) {
		return "equal", true
	}
	if best != nil && len(got) == len(want) {
		ok := true
		for i, id := range got {
			sc, found := best[id]
			if !found || sc > *cut+1e-9 || i > 0 && sc < best[got[i-1]]-1e-9 {
				ok = false
				break
			}
		}
		if ok {
			return "equal*", true
		}
	}
	in := map[string]bool{}
	for _, id := range want {
		in[id] = true
	}
	common := 0
	for _, id := range got {
		if in[id] {
			common++
		}
	}
	return fmt.Sprintf("%d/%d", common, len(want)), false
}

func covMS(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

func covYesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// formatCoverage renders rows as a markdown table and summary lines.
func formatCoverage(rows []coverageRow, title string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\nrank coverage, %s\n\n", title)
	sb.WriteString("| query | kind | index | matches | msgs p50 ms | msgs p99 ms | msgs complete | native ms | overlap@10 | overlap@10 ties | sessions p50 ms | sessions p99 ms | sessions complete | session reference | reference ms | sessions top 10 | sessions vs bm25 grouped |\n")
	sb.WriteString("|---|---|---|--:|--:|--:|---|--:|--:|--:|--:|--:|---|---|--:|---|---|\n")
	for _, r := range rows {
		matches := "-"
		if r.matches >= 0 {
			matches = strconv.Itoa(r.matches)
		}
		ov, ovt := r.overlapWhy, r.overlapWhy
		if r.overlapWhy == "" {
			ov = fmt.Sprintf("%.2f (%d/%d)%s", float64(r.overlap)/float64(r.denom), r.overlap, r.denom, r.refMark)
			ovt = fmt.Sprintf("%.2f%s", float64(r.tie)/float64(r.denom), r.refMark)
		}
		eq := r.sesEqual
		if eq == "" {
			eq = "-"
		}
		fmt.Fprintf(&sb, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			strings.ReplaceAll(r.query, "|", `\|`), r.kind, r.index, matches, covMS(r.msgP50), covMS(r.msgP99), covYesNo(r.msgComplete), covMS(r.native),
			ov, ovt, covMS(r.sesP50), covMS(r.sesP99), covYesNo(r.sesComplete), r.sesRef, covMS(r.sesRefTime), eq, r.sesBM25+r.sesMark)
	}
	mean, meanTie, equal, n := coverageMeans(rows)
	bm25Equal, bm25N := 0, 0
	for _, r := range rows {
		if !strings.HasPrefix(r.sesBM25, "n/a") {
			bm25N++
			if r.sesBM25Eq {
				bm25Equal++
			}
		}
	}
	var worstMsg, worstSes coverageRow
	incomplete := 0
	for _, r := range rows {
		if r.msgP99 > worstMsg.msgP99 {
			worstMsg = r
		}
		if r.sesP99 > worstSes.sesP99 {
			worstSes = r
		}
		if !r.msgComplete {
			incomplete++
		}
	}
	measured := 0
	for _, r := range rows {
		if r.overlapWhy == "" {
			measured++
		}
	}
	fmt.Fprintf(&sb, "\nmean overlap@10 (messages, %d queries with a native reference): %.2f plain, %.2f tie-aware\n", measured, mean, meanTie)
	fmt.Fprintf(&sb, "sessions top 10 equal to the session reference: %d of %d queries; to the message bm25 grouped by session: %d of %d\n", equal, n, bm25Equal, bm25N)
	fmt.Fprintf(&sb, "messages Complete=false: %d of %d queries\n", incomplete, len(rows))
	for _, r := range rows {
		if r.refMark != "" || r.sesMark != "" {
			sb.WriteString("†: the final phase named no FTS5 table and expression; the reference ran the first phase's\n")
			break
		}
	}
	fmt.Fprintf(&sb, "worst p99: messages %s ms (`%s`), sessions %s ms (`%s`)\n\n", covMS(worstMsg.msgP99), worstMsg.query, covMS(worstSes.sesP99), worstSes.query)
	return sb.String()
}

// coverageMeans are the mean overlaps over queries with a native reference
// and how many of the queries with a session reference are equal to it.
func coverageMeans(rows []coverageRow) (mean, meanTie float64, equal, n int) {
	var m int
	for _, r := range rows {
		if r.overlapWhy == "" {
			mean += float64(r.overlap) / float64(r.denom)
			meanTie += float64(r.tie) / float64(r.denom)
			m++
		}
		if r.sesEqual != "" {
			n++
			if r.sesEq {
				equal++
			}
		}
	}
	if m > 0 {
		mean, meanTie = mean/float64(m), meanTie/float64(m)
	}
	return mean, meanTie, equal, n
}
