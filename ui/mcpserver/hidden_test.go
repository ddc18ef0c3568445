package mcpserver

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// TestHiddenRowsNeverMatch: text an agent keeps from the person (Gemini
// CLI's <session_context>, stored hidden) is never what an agent's search
// finds, whatever the query's syntax, nor one of the words a session is
// said to match.
func TestHiddenRowsNeverMatch(t *testing.T) {
	fx := writeFixture(t)
	ctx := context.Background()
	st, err := store.Open(ctx, fx.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(fixtureT0+900*60, 0)
	err = st.Write(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "gem", Source: "gemini-cli", StartedAt: at}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]store.Message{
			{SessionID: "gem", Role: "user", Content: "<session_context> GEMINI-MD-MARKER-heron: deploy with care </session_context>", DisplayKind: store.DisplayKindHidden, Timestamp: at},
			{SessionID: "gem", Role: "user", Content: "find the quokka notes", Timestamp: at.Add(time.Second)},
			{SessionID: "gem", Role: "assistant", Content: "The quokka notes are in notes.txt", Timestamp: at.Add(2 * time.Second)},
		})
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, fx, nil, 0)
	for _, q := range []string{`"GEMINI-MD-MARKER-heron"`, `GEMINI-MD-MARKER-heron`, `heron OR zzzqqq`, `NEAR(gemini heron)`,
		`content:heron`, `hero*`, `heron`, `quokka heron`} {
		for _, r := range results(call(t, cs, map[string]any{"query": q})) {
			if r["session_id"] == "gem" && !strings.Contains(q, "quokka") {
				t.Errorf("%q: found session gem by its hidden row: %v", q, r)
			}
			for _, w := range toStrings(r["matched_words"]) {
				if strings.EqualFold(w, "heron") || strings.EqualFold(w, "gemini") {
					t.Errorf("%q: %s said to match %q, only in its hidden row", q, r["session_id"], w)
				}
			}
		}
	}
}
