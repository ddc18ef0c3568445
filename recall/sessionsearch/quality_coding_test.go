package sessionsearch

import (
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// codingResult is coding-dev's scores: recall's and the baseline's, over
// every query and per style (keyword, question, symptom), and the queries
// whose first session is not a relevant one, with the rank it came at.
type codingResult struct {
	dir        string
	ours, base scoreboard
	byStyle    map[string]*scoreboard
	styles     []string
	misses     []string
}

func (r codingResult) print() {
	fmt.Printf("coding-dev %s (%d queries)\n  recall    %s\n  bm25-OR   %s\n", r.dir, r.ours.n, &r.ours, &r.base)
	for _, s := range r.styles {
		fmt.Printf("    %-9s recall   %s\n", s, r.byStyle[s])
	}
	if len(r.misses) > 0 {
		fmt.Printf(" not first:\n%s\n", strings.Join(r.misses, "\n"))
	}
}

// codingDev runs coding-dev's queries (dir/queries.tsv: id, style, query,
// the relevant sessions) over its corpus (dir/data/corpus.jsonl.gz,
// imported as `recall import jsonl` does) through session_search, as
// `recall search --json --sessions 10` (the dataset's eval_coding.py) asks.
func codingDev(b testing.TB, dir string) codingResult {
	ctx := context.Background()
	f, err := os.Open(filepath.Join(dir, "data", "corpus.jsonl.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatalf("coding-dev corpus: %v", err)
	}
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "coding-dev.db"), store.Options{Create: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	if _, err := jsonl.ImportReader(ctx, st, "corpus.jsonl", zr); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "queries.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	tool := New(st, Options{})
	r := codingResult{dir: dir, byStyle: map[string]*scoreboard{}}
	for i, line := range strings.Split(string(data), "\n") {
		if i == 0 || strings.TrimSpace(line) == "" {
			continue // the header
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			b.Fatalf("queries.tsv line %d: %d columns, want id, style, query, relevant", i+1, len(cols))
		}
		id, style, q, rel := cols[0], cols[1], cols[2], strings.Split(cols[3], ",")
		got := discoverSessions(b, tool, q)
		r.ours.add(got, rel)
		r.base.add(baselineSessions(b, st, q), rel)
		if r.byStyle[style] == nil {
			r.byStyle[style] = &scoreboard{}
			r.styles = append(r.styles, style)
		}
		r.byStyle[style].add(got, rel)
		if len(got) == 0 || !slices.Contains(rel, got[0]) {
			at := "-" // not in the ten
			if k := slices.IndexFunc(got, func(s string) bool { return slices.Contains(rel, s) }); k >= 0 {
				at = fmt.Sprint(k + 1)
			}
			r.misses = append(r.misses, fmt.Sprintf("  %s %-9s at %2s  %q", id, style, at, q))
		}
	}
	return r
}
