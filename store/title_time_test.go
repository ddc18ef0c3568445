package store

import (
	"testing"
	"time"
)

// TestRepeatedTitleNumberedByTime: two sessions renamed to the same title
// are "T" (the one that started first) and "T #2", whichever is written
// first, and stay so when they are written again (an import re-reading
// them); a third, older still, takes "T" and the others move up.
func TestRepeatedTitleNumberedByTime(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 12, 5, 10, m, 0, 0, time.UTC) }
	st := openTestStore(t)
	write := func(id string, started time.Time) {
		t.Helper()
		err := st.Write(t.Context(), func(tx *Tx) error {
			return tx.UpdateSession(Session{ID: id, Source: "claude-code", Title: "Quokka hunt", StartedAt: started})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check := func(label string, want map[string]string) {
		t.Helper()
		for id, title := range want {
			s, err := st.Session(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			if s.Title != title {
				t.Errorf("%s: %s titled %q, want %q", label, id, s.Title, title)
			}
		}
	}
	write("newer", at(30))
	write("older", at(10))
	check("newer written first", map[string]string{"older": "Quokka hunt", "newer": "Quokka hunt #2"})
	write("newer", at(30))
	write("older", at(10))
	check("written again", map[string]string{"older": "Quokka hunt", "newer": "Quokka hunt #2"})
	write("oldest", at(1))
	check("an older one arrives", map[string]string{"oldest": "Quokka hunt", "older": "Quokka hunt #2", "newer": "Quokka hunt #3"})
}
