package sessionsearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// BenchmarkQuality measures search quality, not speed: session recall@1/5/10,
// MRR and empty answers of session_search (limit 10, as an agent asks it)
// on LoCoMo (a published long-term conversational memory benchmark; the
// dataset is never part of the project: pass its folder) with the keyword
// queries and the questions as asked, per category, beside a plain
// baseline computed in the same run (the query's words ORed in FTS5
// syntax, ranked by bm25, the first 300 hits, each session ranked by its
// best hit); then the judged set of coding queries over the demo history
// (testdata/judged-demo.tsv), which needs no dataset.
//
//	RECALL_LOCOMO=/path/to/locomo-dev go test ./recall/sessionsearch -run '^$' -bench Quality -benchtime 1x
func BenchmarkQuality(b *testing.B) {
	for b.Loop() {
		judged(b)
		if dir := os.Getenv("RECALL_LOCOMO"); dir != "" {
			locomo(b, dir)
		} else {
			fmt.Println("LoCoMo: RECALL_LOCOMO is not set (the folder of locomo-conv-*.jsonl and questions.jsonl); skipped")
		}
	}
}

// scoreboard accumulates session recall for one system and query style.
type scoreboard struct {
	n, empty      int
	r1, r5, r10   int
	mrr           float64
	missedAt10    []string
	byCat         map[int]*scoreboard
	byCatOrdering []int
}

func (s *scoreboard) add(ranked []string, want []string) {
	s.n++
	if len(ranked) == 0 {
		s.empty++
	}
	for i, id := range ranked {
		if slices.Contains(want, id) {
			s.mrr += 1 / float64(i+1)
			if i < 1 {
				s.r1++
			}
			if i < 5 {
				s.r5++
			}
			if i < 10 {
				s.r10++
			}
			return
		}
	}
}

func (s *scoreboard) cat(c int) *scoreboard {
	if s.byCat == nil {
		s.byCat = map[int]*scoreboard{}
	}
	if s.byCat[c] == nil {
		s.byCat[c] = &scoreboard{}
		s.byCatOrdering = append(s.byCatOrdering, c)
	}
	return s.byCat[c]
}

func (s *scoreboard) String() string {
	if s.n == 0 {
		return "n=0"
	}
	p := func(k int) float64 { return 100 * float64(k) / float64(s.n) }
	return fmt.Sprintf("R@1 %5.1f  R@5 %5.1f  R@10 %5.1f  MRR %.3f  empty %4d  (n=%d)", p(s.r1), p(s.r5), p(s.r10), s.mrr/float64(s.n), s.empty, s.n)
}

// discoverSessions asks session_search as an agent does and returns the
// sessions of its answer, best first.
func discoverSessions(b testing.TB, tool *Tool, query string) []string {
	resp := tool.Call(context.Background(), Request{Query: query, Limit: recall.MaxSessions, Fields: []string{"session_id"}})
	if resp.IsError {
		b.Fatalf("session_search %q: %s", query, resp.JSON)
	}
	var env Discover
	if err := json.Unmarshal(resp.JSON, &env); err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, r := range env.Results {
		out = append(out, r.SessionID)
	}
	return out
}

var wordRun = regexp.MustCompile(`[A-Za-z0-9]+`)

// baselineSessions is the plain bm25-OR anchor: every word of the query
// quoted and ORed, the first 300 hits by bm25, sessions by their best hit.
func baselineSessions(b *testing.B, st *store.Store, query string) []string {
	var terms []string
	for _, w := range wordRun.FindAllString(query, -1) {
		terms = append(terms, `"`+w+`"`)
	}
	if len(terms) == 0 {
		return nil
	}
	res, err := st.SearchMessages(context.Background(), strings.Join(terms, " OR "),
		store.SearchFilter{Limit: recall.DiscoverScanLimit, Roles: recall.DefaultRoles})
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		if !slices.Contains(out, h.SessionID) {
			out = append(out, h.SessionID)
		}
	}
	return out[:min(len(out), recall.MaxSessions)]
}

func openImported(b testing.TB, name string, data []byte) *store.Store {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), name+".db"), store.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := jsonl.ImportReader(ctx, st, name, bytes.NewReader(data)); err != nil {
		b.Fatal(err)
	}
	return st
}

// judged runs the judged coding set over the demo history.
func judged(b *testing.B) {
	data, err := os.ReadFile("testdata/judged-demo.tsv")
	if err != nil {
		b.Fatal(err)
	}
	st := openImported(b, "demo", assets.DemoJSONL())
	tool := New(st, Options{})
	var ours, base scoreboard
	var misses []string
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			b.Fatalf("judged-demo.tsv: no tab in %q", line)
		}
		wants := strings.Split(want, ",")
		got := discoverSessions(b, tool, q)
		ours.add(got, wants)
		base.add(baselineSessions(b, st, q), wants)
		if len(got) == 0 || !slices.Contains(wants, got[0]) {
			first := "(none)"
			if len(got) > 0 {
				first = got[0]
			}
			misses = append(misses, fmt.Sprintf("  %-45q first %s", q, first))
		}
	}
	fmt.Printf("judged coding set (demo history, %d queries)\n  recall    %s\n  bm25-OR   %s\n", ours.n, &ours, &base)
	if len(misses) > 0 {
		fmt.Printf(" not first:\n%s\n", strings.Join(misses, "\n"))
	}
}

// locomoQuestion is one line of questions.jsonl.
type locomoQuestion struct {
	QID              string   `json:"qid"`
	Conversation     string   `json:"conversation"`
	Question         string   `json:"question"`
	Keywords         string   `json:"keywords"`
	Category         int      `json:"category"`
	EvidenceSessions []string `json:"evidence_sessions"`
}

var categoryNames = map[int]string{1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}

// locomo runs every question of dir, one database per conversation.
func locomo(b *testing.B, dir string) {
	f, err := os.Open(filepath.Join(dir, "questions.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	byConv := map[string][]locomoQuestion{}
	var convs []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var q locomoQuestion
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			b.Fatal(err)
		}
		if len(q.EvidenceSessions) == 0 {
			continue // not scored
		}
		if byConv[q.Conversation] == nil {
			convs = append(convs, q.Conversation)
		}
		byConv[q.Conversation] = append(byConv[q.Conversation], q)
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	styles := []string{"keywords", "question"}
	ours := map[string]*scoreboard{"keywords": {}, "question": {}}
	base := map[string]*scoreboard{"keywords": {}, "question": {}}
	missLog := os.Getenv("RECALL_LOCOMO_MISSES") // optional file: one line per miss at 5
	var misses []string
	for _, conv := range convs {
		data, err := os.ReadFile(filepath.Join(dir, conv))
		if err != nil {
			b.Fatal(err)
		}
		st := openImported(b, strings.TrimSuffix(conv, ".jsonl"), data)
		tool := New(st, Options{})
		for _, q := range byConv[conv] {
			for _, style := range styles {
				text := q.Keywords
				if style == "question" {
					text = q.Question
				}
				got := discoverSessions(b, tool, text)
				bl := baselineSessions(b, st, text)
				for _, sb := range []*scoreboard{ours[style], base[style]} {
					ranked := got
					if sb == base[style] {
						ranked = bl
					}
					if q.Category != 5 {
						sb.add(ranked, q.EvidenceSessions)
					}
					sb.cat(q.Category).add(ranked, q.EvidenceSessions)
				}
				if q.Category != 5 && !slices.ContainsFunc(got[:min(len(got), 5)], func(s string) bool { return slices.Contains(q.EvidenceSessions, s) }) {
					misses = append(misses, fmt.Sprintf("%s\t%s\t%d\t%q\twant %v\tgot %v", q.QID, style, q.Category, text, q.EvidenceSessions, got[:min(len(got), 5)]))
				}
			}
		}
	}
	fmt.Printf("LoCoMo %s (categories 1-4 in the headline; 5 apart)\n", dir)
	for _, style := range styles {
		fmt.Printf("  %-9s recall   %s\n  %-9s bm25-OR  %s\n", style, ours[style], "", base[style])
		for _, c := range []int{1, 2, 3, 4, 5} {
			if sb := ours[style].byCat[c]; sb != nil {
				fmt.Printf("    %-12s recall   %s\n    %-12s bm25-OR  %s\n", categoryNames[c], sb, "", base[style].byCat[c])
			}
		}
	}
	if missLog != "" {
		if err := os.WriteFile(missLog, []byte(strings.Join(misses, "\n")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
