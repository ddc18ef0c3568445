package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/muesli/termenv"
	"golang.org/x/term"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/jsonl"

	// Sources register themselves in init; package all links every one.
	_ "github.com/recall-dev/recall/store/importer/all"
)

// shownProblems is how many problems the text summary lists per source.
const shownProblems = 5

// importResult is one source's import.
type importResult struct {
	Source  string
	Report  importer.Report
	Elapsed time.Duration
	Err     error // fatal: the source could not be imported at all
	Notice  string
	// wrong is set when the paths named hold another importer's format
	// and nothing was imported (Err says which command reads them);
	// nothing when every record of them was malformed; unreadable when the
	// agent's files were found but cannot be read (importer.Unreadable).
	wrong, nothing, unreadable bool
}

// failed is true when the source imported nothing because of a fatal error
// (or because every one of its files failed).
func (r importResult) failed() bool {
	if r.wrong || r.nothing || r.unreadable {
		return true
	}
	if r.Err != nil {
		return r.Report.Files == 0 && r.Report.Messages == 0 && r.Report.Rewritten == 0
	}
	return r.Report.Failed > 0 && r.Report.Files == 0 && r.Report.Unchanged == 0
}

func (r importResult) rate() float64 {
	if s := r.Elapsed.Seconds(); s > 0 {
		return float64(r.Report.Messages) / s
	}
	return 0
}

type problemJSON struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

type importJSON struct {
	Source    string `json:"source"`
	Files     int    `json:"files"`
	Unchanged int    `json:"unchanged"`
	Failed    int    `json:"failed"`
	// Deferred counts the files passed over this run (a database locked
	// by its app): read on the next; problems says which and why.
	Deferred int `json:"deferred"`
	Sessions int `json:"sessions"`
	Messages int `json:"messages"`
	// Rewritten counts stored messages the source rewrote: the new text in
	// place, the earlier kept as an earlier version.
	Rewritten int `json:"rewritten"`
	Skipped   int `json:"skipped"`
	// SkippedBy counts the skipped records by why (a record type the agent
	// keeps for itself, "empty messages", ...); the rest had none given.
	SkippedBy       map[string]int `json:"skipped_by"`
	Malformed       int            `json:"malformed"`
	Problems        []problemJSON  `json:"problems"`
	Seconds         float64        `json:"seconds"`
	MessagesPerSec  float64        `json:"messages_per_second"`
	Error           string         `json:"error,omitempty"`
	Unreadable      bool           `json:"unreadable,omitempty"` // the agent's files were found, and cannot be read (error says why)
	RetentionNotice string         `json:"retention_notice,omitempty"`
}

func (r importResult) json() importJSON {
	out := importJSON{
		Source: r.Source, Files: r.Report.Files, Unchanged: r.Report.Unchanged, Failed: r.Report.Failed, Deferred: r.Report.Deferred,
		Sessions: r.Report.Sessions, Messages: r.Report.Messages, Rewritten: r.Report.Rewritten, Skipped: r.Report.Skipped, SkippedBy: map[string]int{},
		Malformed: r.Report.Malformed, Problems: []problemJSON{},
		Seconds: round3(r.Elapsed.Seconds()), MessagesPerSec: round3(r.rate()), RetentionNotice: r.Notice, Unreadable: r.unreadable,
	}
	for _, p := range r.Report.Problems {
		out.Problems = append(out.Problems, problemJSON{File: p.File, Line: p.Line, Message: p.Msg})
	}
	for why, n := range r.Report.SkipReasons {
		out.SkippedBy[why] = n
	}
	if r.Err != nil {
		out.Error = r.Err.Error()
	}
	return out
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

// knownSources lists the registered sources for an error message, each with
// the short alias it answers to: "claude-code (claude), codex, ...".
func knownSources() string {
	short := map[string]string{}
	for _, a := range []string{"claude", "gemini", "hermes", "codex", "jsonl", "qwen", "copilot"} {
		if s, ok := importer.Lookup(a); ok && s.Name() != a {
			short[s.Name()] = a
		}
	}
	var names []string
	for _, s := range importer.Sources() {
		n := s.Name()
		if a := short[n]; a != "" {
			n += " (" + a + ")"
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// lookupSource resolves a source name or alias, or returns the one-line error.
func lookupSource(name string) (importer.Source, error) {
	src, ok := importer.Lookup(name)
	if !ok {
		return nil, usageError("unknown source %q (known: %s, or all)", name, knownSources())
	}
	return src, nil
}

// installedSources are the registered sources, other than the generic jsonl
// one, with at least one default location present on this machine.
func installedSources() []importer.Source {
	var out []importer.Source
	for _, s := range importer.Sources() {
		if s.Name() == jsonl.SourceName {
			continue
		}
		for _, p := range s.DefaultPaths() {
			if _, err := os.Stat(p); err == nil {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

func runImport(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	asJSON := fs.Bool("json", false, "print the report(s) as JSON (an object; an array for 'all')")
	lockTimeout := fs.Duration("lock-timeout", defaultLockTimeout, "how long to wait for a write lock another program holds without writing, once for the whole run, before failing")
	args, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usageError("a SOURCE is required (%s, or all)", knownSources())
	}
	name, paths := args[0], args[1:]
	if name == "batch" {
		return importBatch(env, paths, *asJSON)
	}

	var srcs []importer.Source
	all := name == "all"
	if all {
		if len(paths) > 0 {
			return usageError("'import all' reads each source's default location and takes no PATH")
		}
		srcs = installedSources()
	} else {
		src, err := lookupSource(name)
		if err != nil {
			return err
		}
		if src.Name() == jsonl.SourceName && len(paths) == 0 {
			return usageError("jsonl needs a FILE (or - for standard input)")
		}
		if pr, ok := src.(importer.PathRequired); ok && len(paths) == 0 {
			return usageError("%s has no default location: name %s", src.Name(), pr.PathHint())
		}
		for _, p := range paths {
			if p == "-" && src.Name() != jsonl.SourceName {
				return usageError("only jsonl reads standard input (-)")
			}
		}
		srcs = []importer.Source{src}
	}
	if all && len(srcs) == 0 {
		if *asJSON {
			return printJSON(env.Stdout, []importJSON{})
		}
		fmt.Fprintln(env.Stderr, "recall import: no agent history found in the default locations; name a SOURCE and PATH to import from elsewhere")
		return nil
	}

	st, err := env.openReceiving("import")
	if err != nil {
		return err
	}
	defer st.Close()
	boundImportMemory()

	if *lockTimeout <= 0 {
		return usageError("--lock-timeout must be positive, got %s", *lockTimeout)
	}
	ln := watchLock(st, env.Stderr, "recall import", *lockTimeout)
	// Records an older recall kept under relative paths, by their absolute
	// ones where they resolve from here.
	if err := importer.AbsolutePaths(env.Ctx, st); err != nil {
		return lockTimeoutError(err, *lockTimeout)
	}
	pr := newImportProgress(env, st, *asJSON)
	defer pr.finish()
	// Rows and the unicode61 index first, the trigram index in one pass
	// after (store/deferred_trigram.go): words are searchable at about
	// twice the rate, and searches cover the rows the pass has not reached.
	st.SetDeferTrigram(true)
	var results []importResult
	for _, src := range srcs {
		if env.Ctx.Err() != nil {
			break
		}
		r := importSource(env, st, src, paths, pr)
		pr.done()
		ln.clear()
		if store.IsDatabaseFault(r.Err) {
			// One line naming the database and what to do; a held lock
			// was waited for once and ends the whole run.
			return lockTimeoutError(r.Err, *lockTimeout)
		}
		if !*asJSON {
			printImportResult(env.Stdout, r)
		}
		results = append(results, r)
	}
	st.SetDeferTrigram(false)
	if env.Ctx.Err() == nil {
		if err := pr.indexTrigram(); err != nil {
			if store.IsDatabaseFault(err) || env.Ctx.Err() == nil {
				return lockTimeoutError(err, *lockTimeout)
			}
		}
	}
	if !*asJSON {
		printImportTotal(env, st, results)
	}
	printNotices(env, results, *asJSON)
	if env.Ctx.Err() == nil {
		warnAtRisk(env, st, srcs)
	}
	if !*asJSON && env.Ctx.Err() == nil {
		printNextStep(env, st, results)
	}
	if *asJSON {
		var err error
		if all {
			out := make([]importJSON, 0, len(results))
			for _, r := range results {
				out = append(out, r.json())
			}
			err = printJSON(env.Stdout, out)
		} else if len(results) > 0 {
			err = printJSON(env.Stdout, results[0].json())
		}
		if err != nil {
			return err
		}
	}
	if env.Ctx.Err() != nil {
		return errors.New("interrupted; what was imported is kept, run the import again to continue")
	}
	return importOutcome(env, results, *asJSON)
}

// importMemoryLimit is the soft limit on the Go heap of an import. What an
// import holds at once is bounded (a batch, one message, a conversation's
// index), but the collector lets garbage grow to twice the live heap
// before it runs: a data export's million-message conversation peaked at
// 300 MB RSS with 70 MB live. With the limit it collects sooner (its CPU
// is capped by the runtime when live data nears the limit, as while one
// 60 MB message is stored), and the import stays under 200 MB.
const importMemoryLimit = 96 << 20

// boundImportMemory sets importMemoryLimit unless GOMEMLIMIT says otherwise.
func boundImportMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(importMemoryLimit)
	}
}

// importOutcome fails the command only when nothing could be imported
// because of fatal errors; otherwise the errors of single sources are
// reported on stderr.
func importOutcome(env *Env, results []importResult, asJSON bool) error {
	var errs []string
	allFailed := len(results) > 0
	for _, r := range results {
		if !r.failed() {
			allFailed = false
		}
		if r.Err != nil {
			errs = append(errs, r.Source+": "+r.Err.Error())
		} else if r.failed() {
			errs = append(errs, r.Source+": every file failed")
		}
	}
	if allFailed {
		return errors.New(strings.Join(errs, "; "))
	}
	if !asJSON {
		for _, e := range errs {
			fmt.Fprintln(env.Stderr, "recall import: "+e)
		}
	}
	return nil
}

// importSource runs one source over paths (its default location when empty);
// for jsonl, "-" reads standard input.
func importSource(env *Env, st *store.Store, src importer.Source, paths []string, pr *importProgress) importResult {
	res := importResult{Source: src.Name()}
	if rt, ok := src.(importer.Retainer); ok {
		res.Notice = rt.RetentionNotice()
	}
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	var files []string
	stdin := false
	for _, p := range paths {
		if p == "-" {
			stdin = true
			continue
		}
		if _, err := os.Stat(p); err != nil {
			res.Err = pathError(err, p)
			res.Elapsed = time.Since(start)
			return res
		}
		files = append(files, p)
	}
	if u, ok := src.(importer.Unreadable); ok {
		// Found, never read: say what and why (Windsurf's encrypted chats).
		if len(files) == 0 {
			files = src.DefaultPaths()
		}
		found, err := src.Discover(files)
		if err != nil {
			res.Err = err
			return res
		}
		res.Err, res.unreadable = errors.New(u.Unreadable(found)), true
		res.Report.Skipped = len(found)
		return res
	}
	if len(files) > 0 || !stdin {
		rep, err := importer.Run(env.Ctx, st, src, files, importer.Options{Progress: pr.update})
		res.Report = rep
		if err != nil && !errors.Is(err, context.Canceled) {
			res.Err = err
		}
		if err == nil && len(files) > 0 {
			if werr := wrongFormat(src, files, rep); werr != nil {
				res.Err, res.wrong = werr, true
			} else if nerr := nothingImportable(src, rep); nerr != nil {
				res.Err, res.nothing = nerr, true
			}
		}
	}
	if stdin && env.Ctx.Err() == nil {
		rep, err := jsonl.ImportReader(env.Ctx, st, "-", env.Stdin)
		res.Report.Add(rep)
		if err != nil && !errors.Is(err, context.Canceled) && res.Err == nil {
			res.Err = err
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

func pathError(err error, p string) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: no such file or directory", p)
	}
	return err
}

// printImportResult prints a source's summary line and its first problems.
func printImportResult(w io.Writer, r importResult) {
	if r.Err != nil && r.failed() && !r.nothing {
		return // the error goes to stderr (importOutcome)
	}
	fmt.Fprintf(w, "%s: %s in %s (%s msg/s)\n", r.Source, r.Report.Summary(), fmtSeconds(r.Elapsed), fmtRate(r.rate()))
	if why := r.Report.SkipSummary(); why != "" {
		fmt.Fprintln(w, "  records skipped, by kind: "+termtext.Sanitize(why))
	}
	for i, p := range r.Report.Problems {
		if i == shownProblems {
			break
		}
		fmt.Fprintln(w, "  "+termtext.Sanitize(p.String()))
	}
	if more := r.Report.Malformed + r.Report.Failed + r.Report.Deferred - min(len(r.Report.Problems), shownProblems); more > 0 && len(r.Report.Problems) > 0 {
		fmt.Fprintf(w, "  ... and %d more\n", more)
	}
	if r.Err != nil && !r.nothing {
		fmt.Fprintf(w, "  stopped early: %v\n", r.Err)
	}
}

// printNotices prints each distinct retention notice once, on stderr.
func printNotices(env *Env, results []importResult, asJSON bool) {
	seen := map[string]bool{}
	for _, r := range results {
		if r.Notice != "" && !seen[r.Notice] {
			seen[r.Notice] = true
			fmt.Fprintln(env.Stderr, "note: "+r.Notice)
		}
	}
}

func fmtSeconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

// fmtRate prints a rate with thousands separators: 48,210.
func fmtRate(f float64) string { return termtext.Thousands(int64(f + 0.5)) }

// importProgress draws a progress bar on a terminal (stderr, else stdout
// when it is not carrying JSON); elsewhere it stays silent and the final
// summary line is the only output.
type importProgress struct {
	w    io.Writer
	bar  progress.Model
	last time.Time
	drew bool
	// The progress is also recorded in the database (store.ImportProgress)
	// for a TUI opened meanwhile, at most every saveEvery.
	env     *Env
	st      *store.Store
	started time.Time
	saved   time.Time
}

// saveEvery bounds how often the progress is written to the database: each
// write is a transaction of its own between the import's.
const saveEvery = 500 * time.Millisecond

func newImportProgress(env *Env, st *store.Store, asJSON bool) *importProgress {
	p := &importProgress{env: env, st: st, started: time.Now()}
	switch {
	case isTerminal(env.Stderr):
		p.w = env.Stderr
	case env.StdoutIsTerminal && !asJSON:
		p.w = env.Stdout
	default:
		return p
	}
	p.bar = progress.New(progress.WithDefaultGradient(), progress.WithWidth(30), progress.WithoutPercentage(),
		progress.WithColorProfile(termenv.NewOutput(p.w).EnvColorProfile()))
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// update is importer.Options.Progress: record the progress for other
// processes, and redraw the bar at most ten times a second.
func (p *importProgress) update(pg importer.Progress) {
	if p == nil {
		return
	}
	p.record(pg)
	if p.w == nil {
		return
	}
	now := time.Now()
	if pg.FilesDone < pg.FilesTotal && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	frac := 0.0
	switch {
	case pg.BytesTotal > 0:
		// By bytes: one data export of 300 MB is a single file.
		frac = float64(pg.BytesDone) / float64(pg.BytesTotal)
	case pg.FilesTotal > 0:
		frac = float64(pg.FilesDone) / float64(pg.FilesTotal)
	}
	rate := 0.0
	if s := pg.Elapsed.Seconds(); s > 0 {
		rate = float64(pg.Messages) / s
	}
	eta := ""
	if d, ok := (store.ImportProgress{FilesDone: pg.FilesDone, FilesTotal: pg.FilesTotal, BytesDone: pg.BytesDone,
		BytesTotal: pg.BytesTotal, Started: now.Add(-pg.Elapsed), Updated: now}).ETA(); ok {
		eta = "  ETA " + termtext.Clock(d)
	}
	fmt.Fprintf(p.w, "\r%-12s %s %d/%d files  %s msgs  %s msg/s%s\x1b[K",
		pg.Source, p.bar.ViewAs(frac), pg.FilesDone, pg.FilesTotal, termtext.Thousands(int64(pg.Messages)), fmtRate(rate), eta)
	p.drew = true
}

// record writes the progress to the database, throttled; the last file's
// always (the bar's end is what a TUI shows last).
func (p *importProgress) record(pg importer.Progress) {
	if p.st == nil {
		return
	}
	now := time.Now()
	if pg.FilesDone < pg.FilesTotal && now.Sub(p.saved) < saveEvery {
		return
	}
	p.saved = now
	// A failure to record is no reason to stop the import: the TUI just
	// shows less.
	_ = p.st.SetImportProgress(p.env.Ctx, store.ImportProgress{Source: pg.Source, FilesDone: pg.FilesDone, FilesTotal: pg.FilesTotal,
		BytesDone: pg.BytesDone, BytesTotal: pg.BytesTotal, Messages: pg.Messages, Started: now.Add(-pg.Elapsed), Updated: now, PID: os.Getpid()})
}

// indexTrigram runs the deferred trigram pass, with a line saying how many
// rows it has left on a terminal.
func (p *importProgress) indexTrigram() (err error) {
	total, err := p.st.DeferredTrigram(p.env.Ctx)
	if err != nil || total == 0 {
		return err
	}
	t0 := time.Now()
	defer func() {
		if err != nil && p.env.Ctx.Err() == nil {
			// The rows are committed and found by a scan meanwhile: say so,
			// and who finishes the index.
			err = fmt.Errorf("the substring (trigram) index of %s messages is pending, searches find them by a scan until it is done, and the next import, watch, TUI or MCP server finishes it: %w",
				termtext.Thousands(total), errors.Unwrap(err))
		}
	}()
	err = p.st.IndexDeferredTrigram(p.env.Ctx, func(left int64) {
		if p.w != nil {
			fmt.Fprintf(p.w, "\rindexing substrings (trigram) %s %s/%s rows\x1b[K", p.bar.ViewAs(1-float64(left)/float64(total)),
				termtext.Thousands(total-left), termtext.Thousands(total))
			p.drew = true
		}
	})
	p.done()
	if err == nil && p.w != nil {
		fmt.Fprintf(p.w, "trigram index: %s rows in %s\n", termtext.Thousands(total), fmtSeconds(time.Since(t0)))
	}
	return err
}

// finish removes the progress record when the import ends, however it ends.
func (p *importProgress) finish() {
	if p != nil && p.st != nil && !p.saved.IsZero() {
		_ = p.st.ClearImportProgress(context.WithoutCancel(p.env.Ctx))
	}
}

// done erases the bar before the summary line is printed.
func (p *importProgress) done() {
	if p != nil && p.drew {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drew = false
	}
}

// sourceNames lists sources for messages.
func sourceNames(srcs []importer.Source) string {
	names := make([]string, 0, len(srcs))
	for _, s := range srcs {
		names = append(names, s.Name())
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
