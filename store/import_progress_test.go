package store

import (
	"context"
	"testing"
	"time"
)

// TestImportProgress: an import's progress is seen by another reader of
// the database while it runs, with an ETA from the bytes done; a record
// left by an import that died (no update for ImportStale) or that reached
// its last file is not a running import; clearing removes it.
func TestImportProgress(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	reader := mustOpenPath(t, st.Path(), Options{})
	t0 := time.Now()
	p := ImportProgress{Source: "claude-code", FilesDone: 10, FilesTotal: 40, BytesDone: 25 << 20, BytesTotal: 100 << 20,
		Messages: 4000, Started: t0.Add(-10 * time.Second), Updated: t0, PID: 42}
	if err := st.SetImportProgress(ctx, p); err != nil {
		t.Fatal(err)
	}
	got, running, err := reader.RunningImport(ctx)
	if err != nil || !running || got.Source != "claude-code" || got.Messages != 4000 || got.PID != 42 {
		t.Fatalf("running import %+v, %v, %v", got, running, err)
	}
	if eta, ok := got.ETA(); !ok || eta < 29*time.Second || eta > 31*time.Second {
		t.Errorf("ETA %v, %v: a quarter of the bytes in 10 s leaves 30 s", eta, ok)
	}
	for name, q := range map[string]ImportProgress{
		"died":     {FilesDone: 1, FilesTotal: 9, Updated: t0.Add(-ImportStale - time.Second)},
		"finished": {FilesDone: 9, FilesTotal: 9, Updated: t0},
		"never":    {},
	} {
		if q.Running(t0) {
			t.Errorf("%s: counted as running", name)
		}
	}
	if err := st.ClearImportProgress(ctx); err != nil {
		t.Fatal(err)
	}
	if _, running, err := reader.RunningImport(ctx); running || err != nil {
		t.Errorf("after clearing: running %v, %v", running, err)
	}
}
