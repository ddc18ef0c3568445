package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/recall-dev/recall/recall/secrets"
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
	showSecrets := fs.Bool("show-secrets", false, "keep API keys, tokens and passwords in titles and previews (by default each is replaced by [REDACTED:rule])")
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
	rows, err := secrets.ReaderFor(st, *showSecrets).RecentSessions(env.Ctx, store.ListOptions{Limit: *limit, Sources: splitList(*source), Machines: splitList(*machine), Cwd: hereDir(*here)})
	if err != nil {
		return err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	short := shortIDsOf(env, st, ids)
	if *asJSON {
		out := make([]recentJSON, 0, len(rows))
		for _, r := range rows {
			j := recentJSON{sessionJSON: toSessionJSON(r.Session), LastActive: isoTime(r.LastActive), Preview: r.Preview}
			j.ShortID = short.of(r.ID)
			if j.Title == "" {
				j.Title = r.Preview
			}
			out = append(out, j)
		}
		return printJSON(env.Stdout, out)
	}
	// Columns are measured in display cells (a CJK title takes two a
	// character) and are as wide as their widest value on the page; the id
	// comes last, whole, never cut. The title takes what is left: when that
	// is too little to read (long ids on 80 columns), each session takes two
	// lines, the title under the rest, so no row is wider than the terminal.
	now, width := time.Now(), env.termWidth()
	type row struct{ when, source, msgs, title, id string }
	out := make([]row, len(rows))
	var whenW, sourceW, msgsW, idW int
	for i, r := range rows {
		title := r.Title
		if title == "" {
			title = r.Preview
		}
		out[i] = row{termtext.RelTime(now, r.LastActive), termtext.Truncate(sourceLabel(r.Session), 28),
			plural(r.MessageCount, "msg", "msgs"), field(title), short.shown(r.ID)}
		whenW, sourceW = max(whenW, termtext.Width(out[i].when)), max(sourceW, termtext.Width(out[i].source))
		msgsW, idW = max(msgsW, termtext.Width(out[i].msgs)), max(idW, termtext.Width(out[i].id))
	}
	const minTitle = 20
	headW := whenW + 2 + sourceW + 2 + msgsW + 2
	room := width - headW - 2 - idW
	for _, r := range out {
		head := termtext.PadRight(r.when, whenW) + "  " + termtext.PadRight(r.source, sourceW) + "  " + termtext.PadRight(r.msgs, msgsW) + "  "
		if room >= minTitle {
			fmt.Fprintf(env.Stdout, "%s%s  %s\n", head, termtext.PadRight(termtext.Truncate(r.title, room), room), r.id)
			continue
		}
		fmt.Fprintf(env.Stdout, "%s%s\n  %s\n", head, r.id, termtext.Truncate(r.title, max(10, width-2)))
	}
	if len(rows) == 0 {
		fmt.Fprintln(env.Stderr, noRecentSessions(env, st, splitList(*source), *here))
	}
	return nil
}

// noRecentSessions says why recent listed nothing: the source filter (and
// which sources the database holds), the repository scope, or an empty
// database; only the last is told to import.
func noRecentSessions(env *Env, st *store.Store, sources []string, here bool) string {
	have, err := st.Sources(env.Ctx)
	switch {
	case err == nil && len(have) == 0:
		return "no sessions yet: import some with 'recall import all', or try 'recall demo'"
	case len(sources) > 0 && here:
		return fmt.Sprintf("no sessions from %s run in this repository", strings.Join(sources, ", "))
	case len(sources) > 0 && err == nil:
		return fmt.Sprintf("no sessions from %s (this database holds: %s)", strings.Join(sources, ", "), strings.Join(have, ", "))
	case len(sources) > 0:
		return fmt.Sprintf("no sessions from %s", strings.Join(sources, ", "))
	case here:
		return "no sessions run in this repository (recall recent lists them all)"
	}
	return "no sessions"
}
