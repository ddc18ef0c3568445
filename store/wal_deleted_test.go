package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWALDeletedUnderRunningProgram: the -wal deleted while a store (a
// TUI) has the database open: the next open says so in one line, not "a
// read-only snapshot" nor "a Hermes database", leaves -wal and -shm 0600,
// and once the first store closes (checkpointing from the file it still
// holds) the transactions are all there.
func TestWALDeletedUnderRunningProgram(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	a, err := Open(ctx, path, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.CreateSession(ctx, Session{ID: "s", Source: "cli", StartedAt: time.Unix(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AppendMessages(ctx, []Message{{SessionID: "s", Role: "user", Content: "kept through a deleted wal"}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the -wal holds nothing to lose: %v", err)
	}
	if err := os.Remove(path + "-wal"); err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{}, {ReadOnly: true}, {Create: true}} {
		b, err := Open(ctx, path, opts)
		if err == nil {
			b.Close()
			t.Fatalf("open %+v succeeded with the -wal gone", opts)
		}
		msg := err.Error()
		if !errors.Is(err, ErrWALDeleted) || !strings.Contains(msg, "-wal file was deleted") || strings.Contains(msg, "snapshot") || strings.Contains(msg, "Hermes database") {
			t.Errorf("open %+v: %v", opts, err)
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if fi, err := os.Stat(path + suffix); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v, want 0600", suffix, fi.Mode().Perm())
		}
	}
	a.Close()
	b := mustOpenPath(t, path, Options{})
	msgs, err := b.Messages(ctx, "s")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("after the first store closed: %d messages, %v", len(msgs), err)
	}
}
