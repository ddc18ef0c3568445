package recall

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
)

// fixture is testdata/history.json loaded into a real store in a temp dir.
type fixture struct {
	st  *store.Store
	ids map[string][]int64 // message ids per session, in order
}

// openFixture builds the fixture database; every test gets its own file.
func openFixture(t testing.TB) *fixture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "history.json"))
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Sessions []struct {
			ID, Source, Title, Parent, Model string
			Started                          int64
		}
		Messages []struct {
			Session, Role, Content string
			ToolName               string `json:"tool_name"`
			ToolCalls              string `json:"tool_calls"`
		}
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "state.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, ids: map[string][]int64{}}
	started := map[string]time.Time{}
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, s := range h.Sessions {
			started[s.ID] = time.Unix(s.Started, 0)
			if err := tx.UpsertSession(store.Session{ID: s.ID, Source: s.Source, Title: s.Title, ParentID: s.Parent,
				Model: s.Model, StartedAt: started[s.ID]}); err != nil {
				return err
			}
		}
		msgs := make([]store.Message, len(h.Messages))
		for i, m := range h.Messages {
			msgs[i] = store.Message{SessionID: m.Session, Role: m.Role, Content: m.Content, ToolName: m.ToolName,
				ToolCalls: m.ToolCalls, Timestamp: started[m.Session].Add(time.Duration(i) * time.Minute)}
		}
		if _, err := tx.InsertMessages(msgs); err != nil {
			return err
		}
		clear(f.ids)
		for _, m := range msgs {
			f.ids[m.SessionID] = append(f.ids[m.SessionID], m.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}
