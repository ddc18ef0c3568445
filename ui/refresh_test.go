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

// TestImportProgressInStatus: while another process imports into the
// database, the status line says so, with files, messages and an ETA,
// and the list fills as it goes; when the import ends the line goes.
func TestImportProgressInStatus(t *testing.T) {
	d := engineDriver(t, "")
	st := d.m.backend.(*EngineBackend).Store.(*store.Store)
	d.pump("baseline token", func() bool { return d.m.polled && !d.m.searching })
	now := time.Now()
	err := st.SetImportProgress(context.Background(), store.ImportProgress{Source: "claude-code", FilesDone: 312, FilesTotal: 500,
		BytesDone: 60 << 20, BytesTotal: 100 << 20, Messages: 41200, Started: now.Add(-60 * time.Second), Updated: now})
	if err != nil {
		t.Fatal(err)
	}
	d.pump("import progress in the status line", func() bool {
		return strings.Contains(d.screen(), "importing claude-code 312/500 files · 41,200 msgs · ETA 0:40")
	})
	if err := st.ClearImportProgress(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.pump("the progress gone", func() bool { return !strings.Contains(d.screen(), "importing claude-code") })
}
