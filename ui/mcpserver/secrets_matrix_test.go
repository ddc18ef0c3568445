package mcpserver

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/llm/llmtest"
	"github.com/recall-dev/recall/recall/secrets/secretstest"
	"github.com/recall-dev/recall/store"
)

// TestSecretsMatrixMCP: every form of secret of issue 30 in every
// placement is gone from every answer of session_search over MCP
// (discover with its offline summaries, read, scroll, browse, and a
// discover with model summaries) and from every request body the model
// was sent for those summaries (a real local endpoint recording them).
func TestSecretsMatrixMCP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	cells, err := secretstest.Load(context.Background(), st, secretstest.Forms, secretstest.Placements)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	fake := &llmtest.FakeServer{Reply: func(string) []string { return []string{"A deploy ", "was set up."} }}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cs := connect(t, fixture{path: path}, &llm.Config{BaseURL: srv.URL + "/v1", Model: "fake", MaxRetries: -1}, 20*time.Second)

	checks, paths := 0, map[string]bool{}
	check := func(what string, c secretstest.Cell, text string) {
		t.Helper()
		checks++
		paths[what] = true
		if leak := c.Form.Leaks(text); leak != "" {
			t.Errorf("%s, %s: shows %q", what, c.Name(), leak)
		}
	}
	roles := "user,assistant,tool,system"
	browse := call(t, cs, map[string]any{"limit": 10})
	for i, c := range cells {
		read := call(t, cs, map[string]any{"session_id": c.SessionID})
		check("read", c, read.text)
		msgs, _ := read.v["messages"].([]any)
		if len(msgs) < 2 {
			t.Fatalf("read %s: %s", c.SessionID, read.text)
		}
		second := msgs[1].(map[string]any)["id"].(float64)
		for _, tc := range []struct {
			what string
			args map[string]any
		}{
			{"discover (offline summaries)", map[string]any{"query": c.Word, "role_filter": roles}},
			{"scroll", map[string]any{"session_id": c.SessionID, "around_message_id": int64(second)}},
		} {
			a := call(t, cs, tc.args)
			if a.isError {
				t.Fatalf("%s %v: %s", tc.what, tc.args, a.text)
			}
			check(tc.what, c, a.text)
		}
		before := len(fake.Bodies())
		a := call(t, cs, map[string]any{"query": c.Word, "role_filter": roles, "summarize": true})
		check("discover (model summaries)", c, a.text)
		bodies := fake.Bodies()[before:]
		if len(bodies) == 0 {
			t.Fatalf("%s: no summary request reached the model: %.500s", c.Name(), a.text)
		}
		check("summary prompt", c, strings.Join(bodies, "\n"))
		if i >= len(cells)-10 { // browse lists the ten newest sessions
			check("browse", c, browse.text)
		}
	}
	t.Logf("MCP matrix: %d forms × %d placements × %d paths: %d checks", len(secretstest.Forms), len(secretstest.Placements), len(paths), checks)
}
