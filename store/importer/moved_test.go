package importer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	_ "github.com/recall-dev/recall/store/importer/all"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

func mustSource(t *testing.T, name string) importer.Source {
	t.Helper()
	src, ok := importer.Lookup(name)
	if !ok {
		t.Fatalf("source %s not registered", name)
	}
	return src
}

func runSource(t *testing.T, st *store.Store, src importer.Source, paths ...string) importer.Report {
	t.Helper()
	rep, err := importer.Run(context.Background(), st, src, paths, importer.Options{})
	if err != nil {
		t.Fatalf("import %s: %v", src.Name(), err)
	}
	return rep
}

// TestMovedTranscriptNotImportedTwice: a Claude Code transcript renamed in
// its folder, or moved to another project folder, is the same file (its
// first record is unchanged): the next import adds nothing, and the
// sessions and messages are what they were. The old code imported every
// message again under a second session named after the new file.
func TestMovedTranscriptNotImportedTwice(t *testing.T) {
	const main = "projects/-home-dev-webapp/7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17.jsonl"
	for _, tc := range []struct{ name, to string }{
		{"renamed", "projects/-home-dev-webapp/renamed.jsonl"},
		{"moved", "projects/-home-dev-api/elsewhere/7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := it.CopyTree(t, it.Fixtures(t, "claude"))
			st := it.Open(t)
			src := mustSource(t, "claude")
			first := runSource(t, st, src, dir)
			if first.Messages == 0 {
				t.Fatal("the fixture imported no messages")
			}
			before := it.Dump(t, st)
			to := filepath.Join(dir, tc.to)
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(dir, main), to); err != nil {
				t.Fatal(err)
			}
			again := runSource(t, st, src, dir)
			if again.Messages != 0 || again.Sessions != 0 {
				t.Errorf("after the move: %s, want 0 sessions and 0 messages", again.Summary())
			}
			after := it.Dump(t, st)
			if it.Count(after) != it.Count(before) || len(after) != len(before) {
				t.Errorf("after the move %d sessions / %d messages, before %d / %d", len(after), it.Count(after), len(before), it.Count(before))
			}
			// The moved file goes on from where it was: a new line is imported once.
			it.Append(t, to, `{"type":"user","sessionId":"7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17","uuid":"moved-1","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"after the move"}}`+"\n")
			grown := runSource(t, st, src, dir)
			if grown.Messages != 1 {
				t.Errorf("after appending a line to the moved file: %s, want 1 message", grown.Summary())
			}
		})
	}
}
