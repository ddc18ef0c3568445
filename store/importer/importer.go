// Package importer brings other agents' histories into a recall database.
//
// Each source (one agent's on-disk format) lives in its own sub-package and
// registers itself in init, so adding a source is one new folder plus a
// blank import where the registry is used. Every source is incremental: it
// remembers per file how far it read (store.ImportFile) and writes the
// messages and that position in the same transaction, so an import killed at
// any point resumes without duplicates and never leaves half a session.
package importer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/recall-dev/recall/store"
)

// Source is one agent's history format.
type Source interface {
	// Name is the session source name the imported sessions get
	// ("claude-code", "codex", "gemini-cli", "hermes", "jsonl").
	Name() string
	// DefaultPaths are where the agent keeps its history on this machine.
	DefaultPaths() []string
	// Discover lists the files (or databases) under paths that Import reads,
	// parents before the children that point at them. Missing paths are
	// not an error.
	Discover(paths []string) ([]string, error)
	// Import brings one file up to date in st. Problems inside the file are
	// counted in the report; an error means the file could not be imported.
	Import(ctx context.Context, st *store.Store, file string) (Report, error)
}

// Finisher is implemented by sources with work that spans files (Claude
// Code summaries naming a message in another file); Run calls Finish once
// after the last file.
type Finisher interface {
	Finish(ctx context.Context, st *store.Store) (Report, error)
}

// Grouper is implemented by sources whose files belong together: a Claude
// Code session's sub-agent transcripts go with its main transcript, which
// they name as parent. Run keeps a group's files in Discover order and
// orders the groups by their newest file. Without it every file is its own
// group.
type Grouper interface {
	Group(file string) string
}

// Retainer is implemented by sources whose agent deletes old history.
type Retainer interface {
	// RetentionNotice is a one-line warning when a cleanup setting applies
	// on this machine, else "".
	RetentionNotice() string
}

var (
	regMu   sync.Mutex
	sources = map[string]Source{}
	aliases = map[string]string{}
)

// Register adds a source under its Name and the given aliases (the short
// names typed on the command line, such as "claude").
func Register(s Source, alias ...string) {
	regMu.Lock()
	defer regMu.Unlock()
	sources[s.Name()] = s
	for _, a := range alias {
		aliases[a] = s.Name()
	}
}

// Lookup finds a registered source by name or alias.
func Lookup(name string) (Source, bool) {
	regMu.Lock()
	defer regMu.Unlock()
	if n, ok := aliases[name]; ok {
		name = n
	}
	s, ok := sources[name]
	return s, ok
}

// Sources returns every registered source, sorted by name.
func Sources() []Source {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]Source, 0, len(sources))
	for _, s := range sources {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// MaxProblems is how many problems a Report keeps verbatim; the rest are
// only counted.
const MaxProblems = 10

// Problem is one record (or file) that could not be imported.
type Problem struct {
	File string
	Line int // 0 when the problem is the whole file
	Msg  string
}

// String formats the problem as file:line: message.
func (p Problem) String() string {
	switch {
	case p.File == "":
		return fmt.Sprintf("line %d: %s", p.Line, p.Msg)
	case p.Line == 0:
		return p.File + ": " + p.Msg
	}
	return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
}

// Report counts what an import did.
type Report struct {
	Files     int // files read (changed since the last import)
	Unchanged int // files skipped because nothing changed
	Failed    int // files that could not be imported at all
	Deferred  int // files passed over this run (locked by their app), read on the next
	Sessions  int // sessions created or updated
	Messages  int // messages inserted
	Rewritten int // stored messages the source rewrote or took back: the earlier text kept
	Skipped   int // records skipped on purpose: bookkeeping, meta and unknown record types
	// SkipReasons counts the skipped records by why (Tally.Skip): a record
	// type the agent keeps for itself ("progress"), "empty messages", ...
	// Skipped counts some with no reason given.
	SkipReasons map[string]int
	Malformed   int // records that could not be parsed
	Problems    []Problem
	// ParseTime and WriteTime split the elapsed time between reading the
	// source and writing SQLite (for benchmarks).
	ParseTime, WriteTime time.Duration
}

// Skip counts a record skipped on purpose, and why ("empty messages", or
// the record's type when the agent keeps it for itself).
func (r *Report) Skip(why string) { r.SkipN(why, 1) }

// SkipN counts n records skipped for the same reason.
func (r *Report) SkipN(why string, n int) {
	r.Skipped += n
	r.skipped(why, n)
}

func (r *Report) skipped(why string, n int) {
	if why == "" {
		return
	}
	if r.SkipReasons == nil {
		r.SkipReasons = map[string]int{}
	}
	r.SkipReasons[why] += n
}

// Problemf records a malformed record at file:line.
func (r *Report) Problemf(file string, line int, format string, a ...any) {
	r.Malformed++
	r.note(Problem{File: file, Line: line, Msg: fmt.Sprintf(format, a...)})
}

func (r *Report) note(p Problem) {
	if len(r.Problems) < MaxProblems {
		r.Problems = append(r.Problems, p)
	}
}

// Add folds o into r.
func (r *Report) Add(o Report) {
	r.Files += o.Files
	r.Unchanged += o.Unchanged
	r.Failed += o.Failed
	r.Deferred += o.Deferred
	r.Sessions += o.Sessions
	r.Messages += o.Messages
	r.Rewritten += o.Rewritten
	r.Skipped += o.Skipped
	for why, n := range o.SkipReasons {
		r.skipped(why, n)
	}
	r.Malformed += o.Malformed
	r.ParseTime += o.ParseTime
	r.WriteTime += o.WriteTime
	for _, p := range o.Problems {
		r.note(p)
	}
}

// Summary is the one-line final summary: "6 files (2 unchanged), 6
// sessions, 38 messages imported, 178 records skipped, 1 malformed", with
// the counts that are 0 left out of the parentheses and the tail.
func (r Report) Summary() string {
	var b strings.Builder
	b.WriteString(Count(r.AllFiles(), "file", "files"))
	var why []string
	for _, c := range []struct {
		n    int
		what string
	}{{r.Unchanged, "unchanged"}, {r.Failed, "failed"}, {r.Deferred, "passed over until the next run"}} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(why) > 0 {
		b.WriteString(" (" + strings.Join(why, ", ") + ")")
	}
	fmt.Fprintf(&b, ", %s, %s imported", Count(r.Sessions, "session", "sessions"), Count(r.Messages, "message", "messages"))
	if r.Rewritten > 0 {
		fmt.Fprintf(&b, ", %d rewritten (earlier text kept)", r.Rewritten)
	}
	if r.Skipped > 0 {
		b.WriteString(", " + Count(r.Skipped, "record", "records") + " skipped")
	}
	if r.Malformed > 0 {
		fmt.Fprintf(&b, ", %d malformed", r.Malformed)
	}
	return b.String()
}

// SkipSummary groups the skipped records by why, the most first (those
// with no reason given last, as "other"): "96 progress, 40
// file-history-snapshot, 8 empty messages and 3 more"; "" when none were
// skipped.
func (r Report) SkipSummary() string {
	type reason struct {
		why string
		n   int
	}
	var list []reason
	named := 0
	for why, n := range r.SkipReasons {
		list = append(list, reason{why, n})
		named += n
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].n != list[j].n {
			return list[i].n > list[j].n
		}
		return list[i].why < list[j].why
	})
	if other := r.Skipped - named; other > 0 {
		list = append(list, reason{"other", other})
	}
	const shown = 6
	var parts []string
	rest := 0
	for i, c := range list {
		if i < shown {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.why))
		} else {
			rest += c.n
		}
	}
	out := strings.Join(parts, ", ")
	if rest > 0 {
		out += fmt.Sprintf(" and %d more", rest)
	}
	return out
}

// AllFiles is every file the run looked at: imported, unchanged, failed
// or passed over.
func (r Report) AllFiles() int { return r.Files + r.Unchanged + r.Failed + r.Deferred }

// Count is n with the noun for n: "1 file", "2 files".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Progress is reported after each file.
type Progress struct {
	Source     string
	File       string
	FilesDone  int
	FilesTotal int
	// BytesDone and BytesTotal are the sizes of the files done and of all
	// of them: files differ a hundredfold in size, so an ETA goes by bytes.
	BytesDone, BytesTotal int64
	Messages              int // inserted so far in this run
	Elapsed               time.Duration
}

// Options tunes Run.
type Options struct {
	// Progress, when set, is called after every file from Run's goroutine.
	Progress func(Progress)
	// Files, when set, replaces Discover: exactly these files are imported
	// (recall watch passes the files it saw change).
	Files []string
}

// newestFirst orders files so that the sessions written last are imported
// first: a first import of a long history is useful (searchable for the
// last weeks) within seconds, not when its oldest year is done. A file's
// time is its mtime; a group (Grouper) goes by its newest file and keeps
// its own order. Parents a child names before their own file is imported
// get a minimal row that the parent's import completes (WriteSessions).
func newestFirst(src Source, files []string) []string {
	g, _ := src.(Grouper)
	group := func(f string) string {
		if g != nil {
			return g.Group(f)
		}
		return f
	}
	newest := map[string]time.Time{}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			continue // Import reports it
		}
		if k := group(f); fi.ModTime().After(newest[k]) {
			newest[k] = fi.ModTime()
		}
	}
	out := slices.Clone(files)
	pos := map[string]int{} // Discover order of each group's first file
	for i, f := range files {
		if _, ok := pos[group(f)]; !ok {
			pos[group(f)] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		gi, gj := group(out[i]), group(out[j])
		if gi == gj {
			return false // the group's own order
		}
		if ti, tj := newest[gi], newest[gj]; !ti.Equal(tj) {
			return ti.After(tj)
		}
		return pos[gi] < pos[gj]
	})
	return out
}

// Run imports every file src discovers under paths (its DefaultPaths when
// paths is empty), newest first (newestFirst). A file that fails is reported and the others continue;
// only cancellation and a fault of the database itself (store.IsDatabaseFault)
// stop the run.
func Run(ctx context.Context, st *store.Store, src Source, paths []string, opt Options) (Report, error) {
	var rep Report
	files := opt.Files
	if files == nil {
		if len(paths) == 0 {
			paths = src.DefaultPaths()
		}
		var err error
		files, err = src.Discover(paths)
		if err != nil {
			return rep, fmt.Errorf("discover %s files: %w", src.Name(), err)
		}
	}
	// A file is recorded by its absolute path: a relative one holds only
	// from the folder the import ran in (run from another, `stats` counted
	// every session of `import jsonl assets/demo/*.jsonl` as deleted).
	files = Absolute(files)
	recheck := map[string]bool{}
	if opt.Files == nil {
		files = newestFirst(src, files)
		// Files an older recall may have merged a session of (store.RecheckFiles)
		// are read again, wherever they are.
		again, err := st.RecheckFiles(ctx, src.Name())
		if err != nil {
			return rep, fmt.Errorf("list %s files to read again: %w", src.Name(), err)
		}
		files = appendMissing(files, again)
		for _, f := range again {
			recheck[f] = true
		}
	}
	sizes := make([]int64, len(files))
	var total, done int64
	for i, f := range files {
		if fi, err := os.Stat(f); err == nil {
			sizes[i] = fi.Size()
			total += sizes[i]
		}
	}
	start := time.Now()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		ictx := ctx
		if opt.Progress != nil {
			// A large file (a data export) reports bytes within it.
			i, base, msgs := i, done, rep.Messages
			ictx = withFileProgress(ctx, func(b int64, n int) {
				opt.Progress(Progress{Source: src.Name(), File: f, FilesDone: i, FilesTotal: len(files),
					BytesDone: base + min(b, sizes[i]), BytesTotal: total, Messages: msgs + n, Elapsed: time.Since(start)})
			})
		}
		var r Report
		_, err := StatRegular(f)
		var nr *NotRegularError
		if !errors.As(err, &nr) {
			// A pipe or a device is never handed to the source: opening
			// a FIFO blocks, and /dev/zero never ends.
			r, err = src.Import(ictx, st, f)
		}
		done += sizes[i]
		if err == nil && recheck[f] {
			// A source that does not go through Commit (a database, an
			// export) read it again as it does: nothing more to split.
			err = st.Write(ctx, func(tx *store.Tx) error { return tx.DoneRecheck(f) })
		}
		if err != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			if store.IsDatabaseFault(err) {
				// A corrupt, full or unwritable database fails every file
				// alike: stop at the first one.
				rep.Add(r)
				return rep, err
			}
			r.Failed++
			r.note(Problem{File: f, Msg: fileErrMsg(f, err)})
		}
		rep.Add(r)
		if opt.Progress != nil {
			opt.Progress(Progress{Source: src.Name(), File: f, FilesDone: i + 1, FilesTotal: len(files),
				BytesDone: done, BytesTotal: total, Messages: rep.Messages, Elapsed: time.Since(start)})
		}
	}
	if fin, ok := src.(Finisher); ok {
		r, err := fin.Finish(ctx, st)
		rep.Add(r)
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// appendMissing appends to files those of more that exist and files does
// not hold.
func appendMissing(files, more []string) []string {
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	for _, f := range more {
		if !have[f] && IsFile(f) {
			have[f] = true
			files = append(files, f)
		}
	}
	return files
}
