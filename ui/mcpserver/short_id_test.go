package mcpserver

import (
	"context"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// TestReadByShortID: READ takes the short id people see (`recall recent`,
// the TUI): the shortest unique prefix of the source's own id, with
// @source where two sources share the id.
func TestReadByShortID(t *testing.T) {
	fx := writeFixture(t)
	const id = "3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a0b"
	ctx := context.Background()
	st, err := store.Open(ctx, fx.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, src := range []string{"copilot-cli", "qwen-code"} {
		err := st.Write(ctx, func(tx *store.Tx) error {
			at := time.Unix(fixtureT0+int64(600+i)*60, 0)
			if err := tx.UpsertSession(store.Session{ID: id, Source: src, StartedAt: at}); err != nil {
				return err
			}
			_, err := tx.InsertMessages([]store.Message{{SessionID: id, Source: src, Role: "user", Content: "hello from " + src, Timestamp: at}})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	short, err := st.ShortIDs(ctx, []string{id + "@qwen-code"})
	st.Close()
	if err != nil || short[id+"@qwen-code"] != "3f2a9c1e@qwen-code" {
		t.Fatalf("short id %v, %v", short, err)
	}
	cs := connect(t, fx, nil, 0)
	a := call(t, cs, map[string]any{"session_id": "3f2a9c1e@qwen-code"})
	if a.isError || a.v["session_id"] != id+"@qwen-code" {
		t.Errorf("READ 3f2a9c1e@qwen-code: %.400s", a.text)
	}
}
