package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/recall-dev/recall/ui/termtext"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// fileSig is what a poll compares to tell that a file changed: size and
// mtime of the file and of its SQLite write-ahead log (a Hermes state.db
// changes through its -wal long before a checkpoint touches the file).
type fileSig struct {
	size, walSize int64
	mod, walMod   time.Time
}

func statSig(path string) (fileSig, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileSig{}, false
	}
	s := fileSig{size: fi.Size(), mod: fi.ModTime()}
	if wi, err := os.Stat(path + "-wal"); err == nil {
		s.walSize, s.walMod = wi.Size(), wi.ModTime()
	}
	return s, true
}

// watched is one source being followed, with the files it had at the last poll.
type watched struct {
	src  importer.Source
	seen map[string]fileSig
	// lastErr is the last error printed, so a persisting one is shown once.
	lastErr string
}

func runWatch(env *Env, c *Command, args []string) error {
	fs := newFlags(c, env)
	interval := fs.Duration("interval", 2*time.Second, "how often to look for changed files")
	once := fs.Bool("once", false, "import what changed once and exit")
	lockTimeout := fs.Duration("lock-timeout", defaultLockTimeout, "how long a poll waits for a write lock another program holds without writing (the next poll tries again)")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *interval < 100*time.Millisecond {
		return usageError("--interval must be at least 100ms, got %s", *interval)
	}
	var srcs []importer.Source
	if len(names) == 0 {
		srcs = installedSources()
		if len(srcs) == 0 {
			return errors.New("no agent history found in the default locations; name the SOURCE to watch")
		}
	}
	for _, n := range names {
		src, err := lookupSource(n)
		if err != nil {
			return err
		}
		if src.Name() == jsonl.SourceName {
			return usageError("jsonl has no default location to watch; import files with 'recall import jsonl FILE'")
		}
		if _, ok := src.(importer.PathRequired); ok {
			return usageError("%s has no default location to watch; import it with 'recall import %s PATH'", src.Name(), src.Name())
		}
		srcs = append(srcs, src)
	}

	st, err := env.Open(store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	if st.ReadOnly() {
		return errors.New("the database is read-only (a Hermes database or a newer schema); watch into a recall database with --db")
	}
	if err := applyRedactAtImport(st); err != nil {
		return err
	}
	if *lockTimeout <= 0 {
		return usageError("--lock-timeout must be positive, got %s", *lockTimeout)
	}
	watchLock(st, env.Stderr, "recall watch", *lockTimeout)
	if err := importer.AbsolutePaths(env.Ctx, st); err != nil {
		return err
	}
	// An import stopped before its trigram pass left rows for it: finish
	// them first (searches cover them meanwhile).
	if err := st.IndexDeferredTrigram(env.Ctx, nil); err != nil && env.Ctx.Err() == nil {
		return err
	}
	var ws []*watched
	for _, s := range srcs {
		if u, ok := s.(importer.Unreadable); ok {
			// Found, never read: said once, not polled.
			found, _ := s.Discover(s.DefaultPaths())
			fmt.Fprintf(env.Stderr, "recall watch: %s: %s\n", s.Name(), u.Unreadable(found))
			continue
		}
		ws = append(ws, &watched{src: s})
	}
	if len(ws) == 0 {
		return errors.New("nothing to watch that recall can read")
	}
	srcs = srcs[:0]
	for _, w := range ws {
		srcs = append(srcs, w.src)
	}
	if !*once {
		fmt.Fprintf(env.Stderr, "recall watch: following %s every %s (Ctrl-C to stop)\n", sourceNames(srcs), *interval)
	}
	notices := map[string]bool{}
	for _, w := range ws {
		if rt, ok := w.src.(importer.Retainer); ok {
			if n := rt.RetentionNotice(); n != "" && !notices[n] {
				notices[n] = true
				fmt.Fprintln(env.Stderr, "note: "+n)
			}
		}
	}
	tick := time.NewTicker(*interval)
	defer tick.Stop()
	for {
		for _, w := range ws {
			if env.Ctx.Err() != nil {
				return nil
			}
			if err := w.poll(env, st); err != nil {
				return err
			}
		}
		if *once {
			return nil
		}
		select {
		case <-env.Ctx.Done():
			return nil // Ctrl-C: everything committed so far is kept
		case <-tick.C:
		}
	}
}

// poll imports the files of one source that are new or changed since the
// last poll (all of them the first time; the importer's own bookkeeping
// skips what an earlier run already read) and prints a line if anything
// was imported. It returns only a fault of the database itself, which ends
// the watch.
func (w *watched) poll(env *Env, st *store.Store) error {
	start := time.Now()
	files, err := w.src.Discover(w.src.DefaultPaths())
	if err != nil {
		w.report(env, err)
		return nil
	}
	now := make(map[string]fileSig, len(files))
	var changed []string
	for _, f := range files {
		sig, ok := statSig(f)
		if !ok {
			continue
		}
		now[f] = sig
		if prev, ok := w.seen[f]; !ok || prev != sig {
			changed = append(changed, f)
		}
	}
	if len(changed) == 0 {
		w.seen = now
		return nil
	}
	rep, err := importer.Run(env.Ctx, st, w.src, nil, importer.Options{Files: changed})
	if err != nil && errors.Is(err, context.Canceled) {
		return nil // stopping; the next watch picks up the rest
	}
	if errors.Is(err, store.ErrLocked) {
		// Another program holds the lock: say so once, try at the next poll.
		w.report(env, err)
		return nil
	}
	if store.IsDatabaseFault(err) {
		return err
	}
	// Files that failed are retried at the next poll.
	for _, p := range rep.Problems {
		if p.Line == 0 {
			delete(now, p.File)
		}
	}
	w.seen = now
	if rep.Messages > 0 || rep.Sessions > 0 {
		line := fmt.Sprintf("%s %s: +%d messages, %d sessions updated, %d files",
			time.Now().Format("15:04:05"), w.src.Name(), rep.Messages, rep.Sessions, rep.Files)
		if rep.Malformed > 0 {
			line += fmt.Sprintf(", %d malformed", rep.Malformed)
		}
		fmt.Fprintf(env.Stdout, "%s (%s)\n", line, fmtSeconds(time.Since(start)))
	}
	if err == nil && (rep.Failed > 0 || rep.Deferred > 0) {
		for _, p := range rep.Problems {
			if p.Line == 0 {
				err = errors.New(p.String())
				break
			}
		}
	}
	w.report(env, err)
	return nil
}

// report prints an error once while it persists.
func (w *watched) report(env *Env, err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if msg != "" && msg != w.lastErr {
		fmt.Fprintf(env.Stderr, "recall watch: %s: %s\n", w.src.Name(), termtext.Sanitize(msg))
	}
	w.lastErr = msg
}
