package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// TestRefreshOnOutsideWrite: a session written by another writer (here the
// same store, as `recall watch` would through its own process) appears in
// the browse list without a keystroke.
func TestRefreshOnOutsideWrite(t *testing.T) {
	d := engineDriver(t, "")
	be := d.m.backend.(*EngineBackend)
	st := be.Store.(*store.Store)
	d.pump("baseline token", func() bool { return d.m.polled && !d.m.searching })
	if strings.Contains(d.screen(), "Freshly imported session") {
		t.Fatal("the new session is on screen before it was written")
	}
	err := st.Write(context.Background(), func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "fresh-1", Source: "claude-code", Title: "Freshly imported session",
			StartedAt: testNow.Add(-time.Minute)}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]store.Message{{SessionID: "fresh-1", Role: "user", Content: "written while the TUI was open",
			Timestamp: testNow.Add(-time.Minute)}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	d.pump("refreshed list", func() bool { return strings.Contains(d.screen(), "Freshly imported session") })
}

// TestStatusShowsRunningImport: a TUI opened while an import runs shows the
// import's progress on the status line, and drops it when the import is
// done or stopped updating (killed).
func TestStatusShowsRunningImport(t *testing.T) {
	d := engineDriver(t, "")
	st := d.m.backend.(*EngineBackend).Store.(*store.Store)
	record := func(p store.ImportProgress) {
		t.Helper()
		if err := st.Write(context.Background(), func(tx *store.Tx) error { return tx.SetImportProgress(p) }); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	running := store.ImportProgress{Source: "claude-code", FilesDone: 312, FilesTotal: 500, Messages: 41200,
		BytesDone: 250, BytesTotal: 1000, Started: now.Add(-14 * time.Second), Updated: now}
	record(running)
	want := "importing claude-code 312/500 files · 41,200 msgs · ETA 0:42"
	d.pump("import progress", func() bool { return strings.Contains(d.screen(), want) })

	killed := running
	killed.Updated = time.Now().Add(-store.ImportStale - time.Second)
	record(killed)
	d.pump("stale import dropped", func() bool { return !strings.Contains(d.screen(), "importing") })

	record(running)
	d.pump("import progress again", func() bool { return strings.Contains(d.screen(), want) })
	done := running
	done.Done, done.Updated = true, time.Now()
	record(done)
	d.pump("finished import dropped", func() bool { return !strings.Contains(d.screen(), "importing") })
}
