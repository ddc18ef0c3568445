package ui

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/recall/syncer"
	"github.com/recall-dev/recall/store"
)

// TestSyncedSessionsShowTheirMachine: a session synced from another machine
// is listed as source@host, and the source filter (F3) offers that machine
// and this one ("@devbox", "@local"), each keeping only its own sessions.
func TestSyncedSessionsShowTheirMachine(t *testing.T) {
	ctx := context.Background()
	open := func(name string) *store.Store {
		st, err := store.Open(ctx, filepath.Join(t.TempDir(), name+".db"), store.Options{Create: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	write := func(st *store.Store, s store.Session, text string) {
		err := st.Write(ctx, func(tx *store.Tx) error {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
			_, err := tx.InsertMessages([]store.Message{{SessionID: s.ID, Role: "user", Content: text, Timestamp: s.StartedAt, SourceKey: s.ID + "-1"}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	remote, here := open("devbox"), open("laptop")
	write(remote, store.Session{ID: "r-1111", Source: "codex", Title: "flaky kafka consumer on the devbox", StartedAt: testNow.Add(-2 * time.Hour)}, "why does the kafka consumer rebalance")
	write(here, store.Session{ID: "l-2222", Source: "claude-code", Title: "laptop wifi drops", StartedAt: testNow.Add(-time.Hour)}, "the wifi drops after sleep")

	// What `recall sync devbox` does: the remote's batch applied here, the
	// machine noted under the ssh host it was reached by.
	them, err := remote.ThisMachine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	me, err := here.ThisMachine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var batch bytes.Buffer
	if _, err := syncer.New(remote, syncer.Config{}, nil).WriteBatch(ctx, &batch, syncer.ExportOptions{Exclude: me.ID}); err != nil {
		t.Fatal(err)
	}
	if _, rep, err := syncer.New(here, syncer.Config{}, nil).ApplyStream(ctx, &batch); err != nil || rep.Sessions != 1 {
		t.Fatalf("apply the devbox batch: %+v, %v", rep, err)
	}
	them.Host = "devbox"
	if err := here.Write(ctx, func(tx *store.Tx) error { return tx.NoteMachine(them) }); err != nil {
		t.Fatal(err)
	}

	eng := recall.New(here, recall.Options{Sessions: recall.MaxSessions})
	d := newDriver(t, NewEngineBackend(eng, here), 120, 30)
	d.pump("browse", func() bool { return len(d.m.list.items) == 2 && len(d.m.list.hosts) == 1 })
	s := d.screen()
	if !strings.Contains(s, "codex@devbox") {
		t.Errorf("the synced session's row does not name its machine (codex@devbox):\n%s", s)
	}
	if strings.Contains(s, "claude-code@") {
		t.Errorf("this machine's own session is shown with a machine:\n%s", s)
	}

	// F3 cycles all sources, each source, then each machine and @local.
	for _, want := range []struct{ chip, title string }{{"machine:devbox", "flaky kafka consumer"}, {"machine:local", "laptop wifi drops"}} {
		for i := 0; i < 8 && !strings.Contains(d.screen(), want.chip); i++ {
			d.key("f3")
			d.settle()
		}
		d.pump(want.chip, func() bool { return len(d.m.list.items) == 1 })
		s := d.screen()
		if !strings.Contains(s, want.chip) || !strings.Contains(rowTitle(d.m.list.items[0]), want.title) {
			t.Errorf("with %s the list holds %q, want %q alone:\n%s", want.chip, rowTitle(d.m.list.items[0]), want.title, s)
		}
	}
}
