package cli

import (
	"fmt"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
)

type recentJSON struct {
	sessionJSON
	LastActive string `json:"last_active"`
	Preview    string `json:"preview"`
}

func runRecent(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	limit := fs.Int("limit", 20, "number of sessions (1..10000)")
	source := fs.String("source", "", "only these `S,..` sources (comma-separated)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *limit < 1 || *limit > 10000 {
		return usageError("--limit must be between 1 and 10000, got %d", *limit)
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	rows, err := st.RecentSessions(env.Ctx, store.ListOptions{Limit: *limit, Sources: splitList(*source)})
	if err != nil {
		return err
	}
	if *asJSON {
		out := make([]recentJSON, 0, len(rows))
		for _, r := range rows {
			j := recentJSON{sessionJSON: toSessionJSON(r.Session), LastActive: isoTime(r.LastActive), Preview: r.Preview}
			if j.Title == "" {
				j.Title = r.Preview
			}
			out = append(out, j)
		}
		return printJSON(env.Stdout, out)
	}
	now := time.Now()
	for _, r := range rows {
		title := r.Title
		if title == "" {
			title = r.Preview
		}
		fmt.Fprintf(env.Stdout, "%-11s %-12s %4d msgs  %s  %s\n", termtext.RelTime(now, r.LastActive), field(r.Source), r.MessageCount, field(title), displayID(r.ID))
	}
	if len(rows) == 0 {
		fmt.Fprintln(env.Stderr, "no sessions yet: import some with 'recall import all', or try 'recall demo'")
	}
	return nil
}
