package cli

import (
	"fmt"
	"sort"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/ui/termtext"
)

// statsJSON is `stats --json`: the store's figures and what an agent's
// retention will soon delete that recall has not imported.
type statsJSON struct {
	store.Stats
	RetentionAtRisk []importer.AtRisk `json:"retention_at_risk"`
}

func runStats(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	st, err := env.openForRead()
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := st.Stats(env.Ctx)
	if err != nil {
		return err
	}
	risk := atRisk(env, st, importer.Sources())
	if *asJSON {
		return printJSON(env.Stdout, statsJSON{Stats: s, RetentionAtRisk: risk})
	}
	w := env.Stdout
	fmt.Fprintf(w, "database        %s%s\n", field(s.Path), map[bool]string{true: " (read-only)", false: ""}[s.ReadOnly])
	fmt.Fprintf(w, "schema version  %d (Hermes) · recall %d · %s\n", s.SchemaVersion, s.RecallVersion, s.Layout)
	fmt.Fprintf(w, "sessions        %d\nmessages        %d\n", s.Sessions, s.Messages)
	if s.SessionsSourceGone > 0 {
		fmt.Fprintf(w, "  kept by recall %d sessions whose files the agent deleted\n", s.SessionsSourceGone)
	}
	if s.MessagesRewritten > 0 {
		fmt.Fprintf(w, "  rewritten     %d messages their source rewrote or took back (the earlier text kept, marked earlier version)\n", s.MessagesRewritten)
	}
	if s.SessionsQualified > 0 {
		fmt.Fprintf(w, "  same id       %d sessions stored as <id>@<source> (another source's session had the id)\n", s.SessionsQualified)
	}
	if s.FilesToRecheck > 0 {
		fmt.Fprintf(w, "  to split      %d files may hold sessions an older recall merged with another source's: recall import all reads them again\n", s.FilesToRecheck)
	}
	srcs := make([]string, 0, len(s.Sources))
	for k := range s.Sources {
		srcs = append(srcs, k)
	}
	sort.Slice(srcs, func(i, j int) bool {
		if a, b := s.Sources[srcs[i]], s.Sources[srcs[j]]; a != b {
			return a > b
		}
		return srcs[i] < srcs[j] // a stable order for equal counts
	})
	for _, k := range srcs {
		fmt.Fprintf(w, "  %-14s %d sessions\n", field(k), s.Sources[k])
	}
	if s.PendingTrigramRows > 0 {
		fmt.Fprintf(w, "pending         %s messages not in the substring (trigram) index yet: found by a scan meanwhile; the next import, watch, TUI or MCP server indexes them\n",
			termtext.Thousands(s.PendingTrigramRows))
	}
	if s.PendingCJKRows > 0 {
		fmt.Fprintf(w, "pending         %s messages a plain-SQLite writer added, not in the short-CJK index yet: found by a scan meanwhile\n",
			termtext.Thousands(s.PendingCJKRows))
	}
	fmt.Fprintf(w, "file size       %s (+ WAL %s)\n", humanBytes(s.FileBytes), humanBytes(s.WALBytes))
	for _, k := range []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"} {
		if v, ok := s.IndexBytes[k]; ok {
			fmt.Fprintf(w, "  %-24s %s\n", k, humanBytes(v))
		}
	}
	fmt.Fprintf(w, "sqlite          %s\nbackend         %s\n", s.SQLiteVersion, s.Backend)
	for _, r := range risk {
		fmt.Fprintln(w, "warning: "+r.String())
	}
	return nil
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
