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
