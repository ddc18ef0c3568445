package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// printImportTotal ends an import's text output: for several sources the
// sum of their lines, and where it all went (the database), so a first
// `import all` says what it did and where.
func printImportTotal(env *Env, st *store.Store, results []importResult) {
	db := absPath(st.Path())
	if len(results) <= 1 {
		// A source that failed whole (unreadable, wrong format) said so on
		// stderr in one line; a database line would say it went somewhere.
		if len(results) == 1 && results[0].Err != nil && results[0].Report.Messages == 0 {
			return
		}
		fmt.Fprintln(env.Stdout, "database: "+db)
		return
	}
	var sum importer.Report
	var took time.Duration
	for _, r := range results {
		sum.Add(r.Report)
		took += r.Elapsed
	}
	fmt.Fprintf(env.Stdout, "total: %s, %s, %s imported from %d sources in %s, into %s\n",
		importer.Count(sum.AllFiles(), "file", "files"),
		importer.Count(sum.Sessions, "session", "sessions"), importer.Count(sum.Messages, "message", "messages"),
		len(results), fmtSeconds(took), db)
}

// printNextStep ends an import that brought anything in with what to run
// next (on stderr, after the notes): the TUI, on this database.
func printNextStep(env *Env, st *store.Store, results []importResult) {
	any := false
	for _, r := range results {
		any = any || r.Report.Sessions > 0 || r.Report.Unchanged > 0
	}
	if !any {
		return
	}
	cmd := "recall"
	if env.DBExplicit && os.Getenv("RECALL_DB") != env.DBPath {
		cmd += " --db " + shellWord(env.DBPath)
	}
	fmt.Fprintf(env.Stderr, "next: `%s` to browse and search them (`%s search QUERY` in a script)\n", cmd, cmd)
}

// absPath is p made absolute (p itself if that fails).
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
