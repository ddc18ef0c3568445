package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// mm is message n of the mirrored session "m1" under source key key.
func mm(key, text string, n int) Message {
	return Message{SessionID: "m1", Source: "cli", Role: "user", Content: text, SourceKey: key, Timestamp: at(n)}
}

// mirror runs MirrorSession on st in one transaction.
func mirror(t *testing.T, st *Store, msgs ...Message) (inserted, rewritten int) {
	t.Helper()
	err := st.Write(context.Background(), func(tx *Tx) error {
		if err := tx.UpsertSession(Session{ID: "m1", Source: "cli", StartedAt: at(0)}); err != nil {
			return err
		}
		n, err := tx.MirrorSession("m1", "cli", append([]Message(nil), msgs...))
		inserted, rewritten = n, tx.Rewritten()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return inserted, rewritten
}

// transcript renders session m1's rows in order: text, "~" for an earlier
// version; and the rows' ids by text.
func transcript(t *testing.T, st *Store) (string, map[string]int64) {
	t.Helper()
	c := rawConn(t, st.Path(), true)
	var out []string
	ids := map[string]int64{}
	err := c.query(`SELECT id, content, COALESCE(display_kind, ''), active, compacted FROM messages WHERE session_id = 'm1' ORDER BY id`, nil, func(s stmtRow) error {
		text, kind := s.ColumnText(1), s.ColumnText(2)
		ids[text] = s.ColumnInt64(0)
		switch {
		case kind == DisplayKindEarlier && s.ColumnInt(3) == 0 && s.ColumnInt(4) == 1:
			text += "~"
		case kind != "" || s.ColumnInt(3) != 1:
			text += fmt.Sprintf("(%d,%d%s)", s.ColumnInt(3), s.ColumnInt(4), kind)
		}
		out = append(out, text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, " "), ids
}

// TestMirrorSession: the stored copy of a session reads as its source
// shows it now, in the source's order, and keeps every text it held; rows
// that can stay where they are keep their ids, and mirroring again changes
// nothing.
func TestMirrorSession(t *testing.T) {
	a, b, c, d := mm("k1", "alpha", 1), mm("k2", "bravo", 2), mm("k3", "charlie", 3), mm("k4", "delta", 4)
	for _, tc := range []struct {
		name  string
		steps [][]Message
		want  string
		// of the last step
		inserted, rewritten int
		stable              []string // texts whose rows keep their ids through the last step
	}{
		{name: "unchanged", steps: [][]Message{{a, b, c}, {a, b, c}}, want: "alpha bravo charlie", stable: []string{"alpha", "bravo", "charlie"}},
		{name: "taken back", steps: [][]Message{{a, b, c, d}, {a, b}}, want: "alpha bravo charlie~ delta~",
			rewritten: 2, stable: []string{"alpha", "bravo", "charlie", "delta"}},
		{name: "restored", steps: [][]Message{{a, b, c, d}, {a, b}, {a, b, c, d}}, want: "alpha bravo charlie delta",
			stable: []string{"alpha", "bravo", "charlie", "delta"}},
		{name: "written again under new keys", steps: [][]Message{{a, b, c}, {mm("k7", "alpha", 1), mm("k8", "bravo", 2), mm("k9", "xray", 9)}},
			want: "alpha bravo charlie~ xray", inserted: 1, rewritten: 1, stable: []string{"alpha", "bravo", "charlie"}},
		{name: "written again, twice", steps: [][]Message{{a, b, c}, {mm("k7", "alpha", 1), mm("k9", "xray", 9)}, {mm("k7", "alpha", 1), mm("k9", "xray", 9)}},
			want: "alpha bravo~ charlie~ xray", stable: []string{"alpha", "bravo", "charlie", "xray"}},
		{name: "new in the middle", steps: [][]Message{{a, c}, {a, b, c}}, want: "alpha bravo charlie", inserted: 1, stable: []string{"alpha"}},
		{name: "summary first", steps: [][]Message{{a, b, c}, {mm("k5", "summary", 5), mm("k6", "bravo", 2), mm("k7", "charlie", 3)}},
			want: "alpha~ summary bravo charlie", inserted: 1, rewritten: 1},
		{name: "text changed", steps: [][]Message{{a, b, c}, {a, mm("k2", "bravissimo", 2), c}}, want: "alpha bravo~ bravissimo charlie",
			rewritten: 1, stable: []string{"alpha"}},
		{name: "text changed, seen again", steps: [][]Message{{a, b, c}, {a, mm("k2", "bravissimo", 2), c}, {a, mm("k2", "bravissimo", 2), c}},
			want: "alpha bravo~ bravissimo charlie", stable: []string{"alpha", "bravo", "bravissimo", "charlie"}},
		{name: "text changed back", steps: [][]Message{{a, b, c}, {a, mm("k2", "bravissimo", 2), c}, {a, b, c}},
			want: "alpha bravo~ bravissimo~ bravo charlie", rewritten: 1, stable: []string{"alpha"}},
		{name: "all gone", steps: [][]Message{{a, b}, {}}, want: "alpha~ bravo~", rewritten: 2, stable: []string{"alpha", "bravo"}},
		{name: "state follows", steps: [][]Message{{a, b}, {a, func() Message { m := b; m.Inactive, m.Compacted = true, true; return m }()}},
			want: "alpha bravo(0,1)", stable: []string{"alpha", "bravo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := mustOpen(t)
			var before map[string]int64
			var inserted, rewritten int
			for _, step := range tc.steps {
				_, before = transcript(t, st)
				inserted, rewritten = mirror(t, st, step...)
			}
			got, after := transcript(t, st)
			if got != tc.want {
				t.Errorf("rows %q, want %q", got, tc.want)
			}
			if inserted != tc.inserted || rewritten != tc.rewritten {
				t.Errorf("last step: %d inserted, %d rewritten; want %d and %d", inserted, rewritten, tc.inserted, tc.rewritten)
			}
			for _, text := range tc.stable {
				if before[text] != after[text] {
					t.Errorf("%s moved from row %d to %d", text, before[text], after[text])
				}
			}
			ftsIntegrity(t, rawConn(t, st.Path(), false), allFTS...)
			s, err := st.Stats(context.Background())
			if err != nil || s.MessagesRewritten != int64(strings.Count(got, "~")) {
				t.Errorf("stats: %d messages_rewritten (%v), want %d", s.MessagesRewritten, err, strings.Count(got, "~"))
			}
			for _, word := range strings.Fields(strings.NewReplacer("~", "", "(0,1)", "").Replace(got)) {
				if res := search(t, st, word, SearchFilter{}); len(res.Hits) == 0 {
					t.Errorf("%s is not found after the mirror", word)
				}
			}
			sess, err := st.Session(context.Background(), "m1")
			live := len(strings.Fields(got)) - strings.Count(got, "~") - strings.Count(got, "(0,1)")
			if err != nil || sess.MessageCount != live {
				t.Errorf("message_count %d (%v), want %d", sess.MessageCount, err, live)
			}
		})
	}
}

// TestMirrorKeepsUnkeyedAndForgotten: a row stored without a source key
// stays where it is, and a message `recall forget` deleted does not come
// back, even when the rows around it are written again in a new order.
func TestMirrorKeepsUnkeyedAndForgotten(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	a, b, c, d := mm("k1", "alpha", 1), mm("k2", "bravo", 2), mm("k3", "charlie", 3), mm("k4", "delta", 4)
	mirror(t, st, a, b, d)
	err := st.Write(ctx, func(tx *Tx) error {
		_, err := tx.InsertMessages([]Message{{SessionID: "m1", Role: "user", Content: "unkeyed", Timestamp: at(5)}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_, ids := transcript(t, st)
	if _, err := st.Forget(ctx, nil, []int64{ids["bravo"]}, ForgetOptions{}); err != nil {
		t.Fatal(err)
	}
	// charlie goes between bravo and delta: delta and the unkeyed row move.
	inserted, _ := mirror(t, st, a, b, c, d)
	if got, _ := transcript(t, st); got != "alpha charlie delta unkeyed" || inserted != 1 {
		t.Errorf("rows %q, %d inserted; want alpha charlie delta unkeyed, 1", got, inserted)
	}
}

// TestReplaceCopy: a fuller copy of a conversation takes the place of the
// stored one, which keeps what only it held: a message the copy lacks, one
// whose reasoning the copy's does not have, and the text of one the copy
// gives other text under the same key (an earlier version where it was).
func TestReplaceCopy(t *testing.T) {
	st := mustOpen(t)
	b := mm("k2", "bravo", 2)
	b.Reasoning = "why bravo"
	mirror(t, st, mm("k1", "alpha", 1), b, mm("k3", "charlie", 3), mm("k4", "delta", 4))
	rewritten := 0
	err := st.Write(context.Background(), func(tx *Tx) error {
		msgs := []Message{mm("j1", "alpha", 1), mm("j2", "bravo", 2), mm("k3", "changed", 3), mm("k4", "delta", 4)}
		if err := tx.ReplaceCopy("m1", msgs); err != nil {
			return err
		}
		_, err := tx.InsertMessages(msgs)
		rewritten = tx.Rewritten()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := transcript(t, st); got != "bravo charlie~ alpha bravo changed delta" || rewritten != 1 {
		t.Errorf("rows %q, %d rewritten; want bravo charlie~ alpha bravo changed delta, 1", got, rewritten)
	}
}
