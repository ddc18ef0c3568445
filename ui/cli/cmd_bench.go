package cli

import (
	"fmt"
	"github.com/recall-dev/recall/ui/termtext"
	"sort"
	"time"

	"github.com/recall-dev/recall/store"
)

type benchJSON struct {
	Query         string  `json:"query"`
	Index         string  `json:"index"`
	MedianMS      float64 `json:"median_ms"`
	P99MS         float64 `json:"p99_ms"`
	FinalMedianMS float64 `json:"final_median_ms"`
	FinalP99MS    float64 `json:"final_p99_ms"`
	Hits          int     `json:"hits"`
	FinalIndex    string  `json:"final_index"`
	Complete      bool    `json:"final_complete"`
}

// runBench measures each query the way the TUI runs it: Typing set, limit
// 50; "first" is the newest-first phase that paints the list, "final" the
// bm25-ranked phase that replaces it.
func runBench(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	reps := fs.Int("reps", 20, "repetitions per query")
	asJSON := fs.Bool("json", false, "print JSON")
	words, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return usageError("at least one QUERY is required")
	}
	if *reps < 1 || *reps > 100000 {
		return usageError("--reps must be between 1 and 100000, got %d", *reps)
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	var out []benchJSON
	for _, q := range words {
		r := benchJSON{Query: q}
		var first, final []time.Duration
		for i := 0; i < *reps+1; i++ {
			t0 := time.Now()
			a, err := st.SearchMessages(env.Ctx, q, store.SearchFilter{Typing: true, Limit: 50, Phase: store.PhaseFirst})
			if err != nil {
				return err
			}
			t1 := time.Now()
			b, err := st.SearchMessages(env.Ctx, q, store.SearchFilter{Typing: true, Limit: 50, Phase: store.PhaseFinal})
			if err != nil {
				return err
			}
			t2 := time.Now()
			if i == 0 {
				continue // warm-up: page cache and prepared statements
			}
			first = append(first, t1.Sub(t0))
			final = append(final, t2.Sub(t1))
			r.Index, r.Hits, r.FinalIndex, r.Complete = string(a.Index), len(b.Hits), string(b.Index), b.Complete
		}
		r.MedianMS, r.P99MS = quantileMS(first, 0.5), quantileMS(first, 0.99)
		r.FinalMedianMS, r.FinalP99MS = quantileMS(final, 0.5), quantileMS(final, 0.99)
		out = append(out, r)
	}
	if *asJSON {
		return printJSON(env.Stdout, out)
	}
	fmt.Fprintf(env.Stdout, "%-28s %-10s %10s %10s %10s %10s %6s\n", "query", "index", "first p50", "first p99", "final p50", "final p99", "hits")
	for _, r := range out {
		// The query column is padded in display cells: %-28s counts bytes,
		// and put a CJK query's row three columns off.
		fmt.Fprintf(env.Stdout, "%s %-10s %8.2fms %8.2fms %8.2fms %8.2fms %6d\n", termtext.PadRight(termtext.Truncate(field(r.Query), 28), 28), r.Index, r.MedianMS, r.P99MS, r.FinalMedianMS, r.FinalP99MS, r.Hits)
	}
	return nil
}

// quantileMS is the q-quantile (nearest rank) in milliseconds.
func quantileMS(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q*float64(len(s))+0.5) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(s) {
		i = len(s) - 1
	}
	return float64(s[i].Microseconds()) / 1000
}
