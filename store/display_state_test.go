package store

import (
	"context"
	"testing"
)

// TestDisplayStateRoundTrip: active, compacted and display_kind are written
// as given and read back, on the trigger path and the bulk path alike;
// rewound rows and hidden rows are not part of a session's messages.
func TestDisplayStateRoundTrip(t *testing.T) {
	for _, n := range []int{1, bulkMin} {
		st := mustOpen(t)
		ctx := context.Background()
		if err := st.CreateSession(ctx, Session{ID: "s", Source: "test", StartedAt: at(0)}); err != nil {
			t.Fatal(err)
		}
		states := []Message{
			{Role: "user", Content: "live docker"},
			{Role: "user", Content: "compacted docker", Inactive: true, Compacted: true},
			{Role: "user", Content: "rewound docker", Inactive: true},
			{Role: "user", Content: "<local-command-stdout> docker", DisplayKind: "agent"},
			{Role: "user", Content: "hidden docker", DisplayKind: "hidden"},
		}
		var msgs []Message
		for len(msgs) < n || len(msgs) < len(states) {
			m := states[len(msgs)%len(states)]
			m.SessionID, m.Timestamp = "s", at(len(msgs))
			msgs = append(msgs, m)
		}
		if _, err := st.AppendMessages(ctx, msgs); err != nil {
			t.Fatal(err)
		}
		got, err := st.Messages(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]Message{}
		for _, m := range got {
			seen[m.Content] = m
		}
		if _, ok := seen["rewound docker"]; ok {
			t.Errorf("batch of %d: a rewound row is among the session's messages", n)
		}
		if _, ok := seen["hidden docker"]; ok {
			t.Errorf("batch of %d: a hidden row is among the session's messages", n)
		}
		if m := seen["compacted docker"]; !m.Inactive || !m.Compacted {
			t.Errorf("batch of %d: compacted row read back as %+v", n, m)
		}
		if m := seen["<local-command-stdout> docker"]; m.DisplayKind != "agent" || m.Inactive {
			t.Errorf("batch of %d: agent-written row read back as %+v", n, m)
		}
		if m := seen["live docker"]; m.Inactive || m.Compacted || m.DisplayKind != "" {
			t.Errorf("batch of %d: live row read back as %+v", n, m)
		}
	}
}
