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
	machine := fs.String("machine", "", "only sessions from these `M,..` machines (a synced host's name; local for this machine's)")
	asJSON := fs.Bool("json", false, "print JSON")
	here := fs.Bool("here", false, "only sessions run in this repository (or directory)")
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
	rows, err := st.RecentSessions(env.Ctx, store.ListOptions{Limit: *limit, Sources: splitList(*source), Machines: splitList(*machine), Cwd: hereDir(*here)})
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
	// Columns are measured in display cells (a CJK title takes two a
	// character), the title is cut to what the terminal has left, so rows
	// line up and never wrap; the id comes last, whole.
	now, width := time.Now(), env.termWidth()
	srcWidth := 12 // wider for a session synced from another machine (source@host)
	for _, r := range rows {
		srcWidth = max(srcWidth, min(28, termtext.Width(sourceLabel(r.Session))))
	}
	for _, r := range rows {
		title := r.Title
		if title == "" {
			title = r.Preview
		}
		id := displayID(r.ID)
		head := fmt.Sprintf("%s %s %s  ", termtext.PadRight(termtext.RelTime(now, r.LastActive), 11),
			termtext.PadRight(termtext.Truncate(sourceLabel(r.Session), srcWidth), srcWidth), termtext.PadRight(plural(r.MessageCount, "msg", "msgs"), 9))
		room := max(10, width-termtext.Width(head)-termtext.Width(id)-2)
		fmt.Fprintf(env.Stdout, "%s%s  %s\n", head, termtext.PadRight(termtext.Truncate(field(title), room), room), id)
	}
	if len(rows) == 0 {
		fmt.Fprintln(env.Stderr, "no sessions yet: import some with 'recall import all', or try 'recall demo'")
	}
	return nil
}
