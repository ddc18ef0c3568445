package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// TestMessagesTextIsReadable: `recall messages` prints a snippet for a
// person as recall shows evidence elsewhere: a hit inside a tool call's
// JSON reads as the command, not as escaped JSON; --json keeps the stored
// snippet.
func TestMessagesTextIsReadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 9, 8, 9, 0, 0, 0, time.UTC)
	err = st.Write(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "s1", Source: "claude-code", Title: "dns", StartedAt: t0}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]store.Message{{SessionID: "s1", Role: "assistant", Timestamp: t0,
			ToolCalls: `[{"id":"c1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"docker network connect \\\"$NET\\\" db\\nfollowup\"}"}}]`}})
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, false, "--db", path, "messages", "followup")
	if code != 0 || !strings.Contains(out, ">>>followup<<<") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, raw := range []string{`\"`, `\n`, `[{"`, `"arguments"`} {
		if strings.Contains(out, raw) {
			t.Errorf("text output shows raw JSON %q:\n%s", raw, out)
		}
	}
	_, js, _ := runCLI(t, false, "--db", path, "messages", "--json", "followup")
	if !strings.Contains(js, `\\\"`) && !strings.Contains(js, `\\n`) {
		t.Errorf("--json lost the stored snippet bytes:\n%s", js)
	}
}
