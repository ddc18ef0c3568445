package batch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func open(t *testing.T, name string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), name+".db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func write(t *testing.T, st *store.Store, sess store.Session, msgs ...store.Message) {
	t.Helper()
	err := st.Write(context.Background(), func(tx *store.Tx) error {
		if err := tx.UpsertSession(sess); err != nil {
			return err
		}
		for i := range msgs {
			msgs[i].SessionID = sess.ID
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func msg(role, content string, min int, key string) store.Message {
	return store.Message{Role: role, Content: content, Timestamp: t0.Add(time.Duration(min) * time.Minute), SourceKey: key}
}

// export writes st's batch for a receiver whose watermark of st is after
// (the receiver's machine excluded) into a file.
func export(t *testing.T, st *store.Store, after store.Watermark, exclude string) (string, Header) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "batch.zst")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := NewWriter(f)
	if err != nil {
		t.Fatal(err)
	}
	w.AfterID, w.TombstonesAfter, w.Exclude = after.MessageID, after.TombstoneAt, exclude
	if _, err := st.ExportBatch(context.Background(), store.ExportOptions{AfterID: after.MessageID, TombstonesAfter: after.TombstoneAt, Exclude: exclude}, w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path, w.Header()
}

// sync moves what from has that to lacks, as `recall sync` does.
func sync(t *testing.T, from, to *store.Store) store.ApplyReport {
	t.Helper()
	ctx := context.Background()
	me, err := to.ThisMachine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	them, err := from.ThisMachine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, err := to.PeerWatermark(ctx, them.ID)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := export(t, from, w, me.ID)
	_, rep, err := ApplyFile(ctx, to, path)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func texts(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	ctx := context.Background()
	list, err := st.RecentSessions(ctx, store.ListOptions{Limit: 1000, IncludeChildren: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range list {
		msgs, err := st.Messages(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		var c []string
		for _, m := range msgs {
			c = append(c, m.Content)
		}
		out[s.Source+" "+s.NativeID+" @"+s.Machine] = strings.Join(c, ",")
	}
	return out
}

// TestSyncBothWays: two databases exchange sessions both ways; each keeps
// its identity (source, own id) and the machine it came from; a second
// run, or one the other way, adds nothing; new messages travel alone.
func TestSyncBothWays(t *testing.T) {
	ctx := context.Background()
	a, b := open(t, "a"), open(t, "b")
	write(t, a, store.Session{ID: "s1", Source: "claude-code", Title: "on a", Cwd: "/src/a", StartedAt: t0},
		msg("user", "docker network on a", 0, "k1"), msg("assistant", "use a bridge", 1, "k2"))
	write(t, a, store.Session{ID: "u1", Source: "aider", StartedAt: t0}, msg("user", "no key here", 2, ""))
	// Two identical messages without keys (same role, text and time) are two.
	write(t, a, store.Session{ID: "u2", Source: "aider", StartedAt: t0}, msg("user", "again", 3, ""), msg("user", "again", 3, ""))
	// b has a session of its own with the same id and source: another
	// machine's, so another session.
	write(t, b, store.Session{ID: "s1", Source: "claude-code", Title: "on b", StartedAt: t0}, msg("user", "b's own s1", 0, "k1"))

	if rep := sync(t, a, b); rep.Messages != 5 || rep.Sessions != 3 || !rep.NewMachine {
		t.Errorf("first pull: %+v", rep)
	}
	if rep := sync(t, a, b); rep.Messages != 0 || rep.Sessions != 0 {
		t.Errorf("second pull: %+v, want nothing", rep)
	}
	if rep := sync(t, b, a); rep.Messages != 1 || rep.Sessions != 1 {
		t.Errorf("pull the other way: %+v, want b's own session alone", rep)
	}
	ma, _ := a.ThisMachine(ctx)
	mb, _ := b.ThisMachine(ctx)
	wantB := map[string]string{
		"claude-code s1 @":         "b's own s1",
		"claude-code s1 @" + ma.ID: "docker network on a,use a bridge",
		"aider u1 @" + ma.ID:       "no key here",
		"aider u2 @" + ma.ID:       "again,again",
	}
	if got := texts(t, b); !same(got, wantB) {
		t.Errorf("b = %v, want %v", got, wantB)
	}
	if got := texts(t, a); got["claude-code s1 @"+mb.ID] != "b's own s1" || got["claude-code s1 @"] != "docker network on a,use a bridge" || len(got) != 4 {
		t.Errorf("a = %v", got)
	}
	// New messages travel alone, to the right session.
	write(t, a, store.Session{ID: "s1", Source: "claude-code"}, msg("user", "and podman?", 5, "k3"))
	if rep := sync(t, a, b); rep.Messages != 1 || rep.Sessions != 1 {
		t.Errorf("incremental pull: %+v", rep)
	}
	if got := texts(t, b)["claude-code s1 @"+ma.ID]; got != "docker network on a,use a bridge,and podman?" {
		t.Errorf("after the incremental pull: %q", got)
	}
	// b's copy of a's session keeps its identity and metadata.
	s, err := b.Session(ctx, "s1@claude-code")
	if err != nil || s.Machine != ma.ID || s.Host != ma.Name || s.Title != "on a" || s.Cwd != "/src/a" || s.NativeID != "s1" {
		t.Errorf("a's s1 on b = %+v, %v", s, err)
	}
	// Nothing goes back and forth: a third machine's pull from b gets a's
	// sessions once, named by a.
	c := open(t, "c")
	sync(t, b, c)
	sync(t, a, c)
	if got := texts(t, c); len(got) != 4 || got["claude-code s1 @"+ma.ID] != "docker network on a,use a bridge,and podman?" {
		t.Errorf("c = %v", got)
	}
}

func same(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestSyncForgetTravels: a session or message forgotten on one machine is
// forgotten on the other by the next sync, and no sync brings it back.
func TestSyncForgetTravels(t *testing.T) {
	ctx := context.Background()
	a, b := open(t, "a"), open(t, "b")
	write(t, a, store.Session{ID: "gone", Source: "codex", StartedAt: t0}, msg("user", "sk-live secret", 0, "g1"))
	write(t, a, store.Session{ID: "kept", Source: "codex", StartedAt: t0}, msg("user", "fine", 0, "f1"), msg("user", "password hunter2", 1, "f2"))
	sync(t, a, b)
	sync(t, b, a)
	// Forgotten on b (the copy), then on a (the origin).
	var msgID int64
	kept, _ := b.ResolveSessionID(ctx, "kept")
	msgs, _ := b.Messages(ctx, kept)
	for _, m := range msgs {
		if strings.Contains(m.Content, "hunter2") {
			msgID = m.ID
		}
	}
	if _, err := b.Forget(ctx, nil, []int64{msgID}, store.ForgetOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Forget(ctx, []string{"gone"}, nil, store.ForgetOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep := sync(t, a, b); rep.ForgottenSessions != 1 || rep.ForgottenMessages != 1 {
		t.Errorf("pull a's tombstone: %+v", rep)
	}
	if rep := sync(t, b, a); rep.ForgottenMessages != 1 {
		t.Errorf("pull b's tombstone: %+v", rep)
	}
	// The tombstones settle: after a round or two nothing travels again.
	for i := 0; i < 2; i++ {
		sync(t, a, b)
		sync(t, b, a)
	}
	if ra, rb := sync(t, a, b), sync(t, b, a); ra.Tombstones != 0 || rb.Tombstones != 0 {
		t.Errorf("tombstones still travel: %d and %d", ra.Tombstones, rb.Tombstones)
	}
	for name, st := range map[string]*store.Store{"a": a, "b": b} {
		for _, q := range []string{"hunter2", "secret"} {
			res, err := st.SearchMessages(ctx, q, store.SearchFilter{})
			if err != nil || len(res.Hits) != 0 {
				t.Errorf("%s: %s still found: %v, %v", name, q, res.Hits, err)
			}
		}
	}
	// A third machine that copied a before the forget does not bring it back.
	c := open(t, "c2")
	write(t, c, store.Session{ID: "x", Source: "codex", StartedAt: t0}, msg("user", "c's", 0, "x1"))
	path, _ := export(t, c, store.Watermark{}, "")
	if _, _, err := ApplyFile(ctx, b, path); err != nil {
		t.Fatal(err)
	}
	if got := texts(t, a)["codex kept @"]; got != "fine" {
		t.Errorf("a's kept = %q", got)
	}
}

// TestBatchRejectedWhole: a batch cut short, altered, of a newer format or
// not a batch at all is rejected before anything is written.
func TestBatchRejectedWhole(t *testing.T) {
	ctx := context.Background()
	a, b := open(t, "a"), open(t, "b")
	for i := 0; i < 50; i++ {
		write(t, a, store.Session{ID: "s" + string(rune('a'+i%26)) + string(rune('a'+i/26)), Source: "codex", StartedAt: t0},
			msg("user", strings.Repeat("words to compress ", 50)+string(rune('a'+i)), i, "k"))
	}
	path, _ := export(t, a, store.Watermark{}, "")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	variant := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, body, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := bytes.Clone(raw)
	flipped[len(flipped)/2] ^= 0x40
	newer := newerBatch(t)
	for _, tc := range []struct {
		name, path, want string
	}{
		{"truncated", variant("cut", raw[:len(raw)*2/3]), "cut short"},
		{"truncated at a frame", variant("cut2", raw[:len(raw)-4]), "cut short"},
		{"a flipped byte", variant("flip", flipped), "damaged"},
		{"empty", variant("empty", nil), "empty"},
		{"not a batch", variant("text", []byte("hello\n")), "damaged"},
		{"newer format", newer, "batch format 99"},
	} {
		_, _, err := ApplyFile(ctx, b, tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
		if s, _ := b.Stats(ctx); s.Sessions != 0 || s.Messages != 0 {
			t.Fatalf("%s: %d sessions, %d messages written", tc.name, s.Sessions, s.Messages)
		}
	}
	// The whole one applies; replayed, it adds nothing.
	if _, rep, err := ApplyFile(ctx, b, path); err != nil || rep.Messages != 50 {
		t.Fatalf("whole batch: %+v, %v", rep, err)
	}
	if _, rep, err := ApplyFile(ctx, b, path); err != nil || rep.Messages != 0 || rep.Present != 50 {
		t.Errorf("replayed: %+v, %v", rep, err)
	}
}

// newerBatch is a well-formed batch of a format this recall does not know.
func newerBatch(t *testing.T) string {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	w.line(Header{Format: FormatName, Version: 99, Machine: "m", MachineName: "future", Schema: 2000}, true)
	w.begun = true
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "newer.zst")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
