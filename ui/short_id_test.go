package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
)

// TestDetailHeaderShortID: through the real engine, the detail pane names
// its session by the short id `recall show` takes back (the shortest
// unique prefix of the source's own id, "@source" where two sources share
// it), not by the stored id cut to 24 cells.
func TestDetailHeaderShortID(t *testing.T) {
	const id = "3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a0b"
	st := openTestStore(t)
	ctx := context.Background()
	for i, src := range []string{"toolA", "toolB"} {
		err := st.Write(ctx, func(tx *store.Tx) error {
			when := testNow.Add(-time.Duration(i+1) * time.Minute)
			if err := tx.UpsertSession(store.Session{ID: id, Source: src, Title: "rotate the key with " + src, StartedAt: when}); err != nil {
				return err
			}
			_, err := tx.InsertMessages([]store.Message{{SessionID: id, Source: src, Role: "user", Content: "how do we rotate the key?", Timestamp: when}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions})
	d := newDriver(t, NewEngineBackend(eng, st), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 6 })
	d.pump("detail", func() bool { return d.m.detail.doc.shortID != "" })
	s := d.screen()
	if !strings.Contains(s, "· toolA · 3f2a9c1e@toolA") || strings.Contains(s, "3f2a9c1e-7b4d") {
		t.Fatalf("detail header does not name the session by its short id:\n%s", s)
	}
}
