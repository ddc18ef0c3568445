package importer_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestOddFilesNotRead: a named pipe and a symlink to /dev/zero named like
// transcripts are reported, one problem line each, and never opened; the
// real transcripts beside them are imported. The old code blocked in
// open(2) on the pipe forever and read /dev/zero at full CPU.
func TestOddFilesNotRead(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := it.CopyTree(t, it.Fixtures(t, "claude"))
	proj := filepath.Join(dir, "projects", "-home-dev-api")
	fifo := filepath.Join(proj, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(proj, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	src := mustSource(t, "claude")
	type result struct {
		rep importer.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := importer.Run(context.Background(), st, src, []string{dir}, importer.Options{})
		done <- result{rep, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("import still running after 60 s: it is stuck on the pipe or /dev/zero")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.rep.Failed != 2 || r.rep.Messages == 0 {
		t.Errorf("report %s, want 2 failed and the transcripts imported", r.rep.Summary())
	}
	want := map[string]string{fifo: "named pipe", zero: "character device"}
	for _, p := range r.rep.Problems {
		if w, ok := want[p.File]; ok && strings.Contains(p.Msg, w) && strings.Contains(p.Msg, "not a regular file") {
			delete(want, p.File)
		}
	}
	if len(want) > 0 {
		t.Errorf("no problem line for %v; problems: %v", want, r.rep.Problems)
	}
	// Given by name, too.
	rep, err := importer.Run(context.Background(), st, src, []string{fifo}, importer.Options{})
	if err != nil || rep.Failed != 1 {
		t.Errorf("named pipe given by name: %s, %v", rep.Summary(), err)
	}
}

// TestUnreadableTranscriptSkipped: a transcript the user may not read
// (mode 0000 for a normal user; simulated, since tests run as root) is
// skipped with a problem line naming it, and the run goes on. The old code
// took the error for the database's ("state.db: permission denied") and
// stopped the import there.
func TestUnreadableTranscriptSkipped(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "claude"))
	bad := filepath.Join(dir, "projects", "-home-dev-api", "2b8e6d14-5a3c-4f7b-9e02-c6d1a8f5b930.jsonl")
	defer importer.SetOpenFile(func(path string) (*os.File, error) {
		if path == bad {
			return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EACCES}
		}
		return os.Open(path)
	})()
	st := it.Open(t)
	rep, err := importer.Run(context.Background(), st, mustSource(t, "claude"), []string{dir}, importer.Options{})
	if err != nil {
		t.Fatalf("the run stopped: %v", err)
	}
	if rep.Failed != 1 || rep.Files == 0 || rep.Messages == 0 {
		t.Errorf("report %s, want 1 failed and the other files imported", rep.Summary())
	}
	found := false
	for _, p := range rep.Problems {
		if p.File == bad && strings.Contains(p.Msg, "permission denied") && !strings.Contains(p.Msg, st.Path()) {
			found = true
		}
	}
	if !found {
		t.Errorf("no problem line naming %s (and not the database); problems: %v", bad, rep.Problems)
	}
}
