package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall/llm"
	"github.com/recall-dev/recall/recall/sessionsearch"
	"github.com/recall-dev/recall/store"
)

// The fixture history, written by writeFixture:
//
//	r1     cli, "Docker networking", 40 messages; #20 (user) and #21 mention
//	       the overlay network; the root of a lineage
//	c1     r1's compression continuation: "overlay network" again, and "migrat..."
//	other  telegram: an overlay network question
//	sub    subagent (hidden): an overlay network subtask
//	cjk    cli: 数据库 (Chinese), 改 (one character)
//	big    cli: a 60,000-character tool dump and answer about the overlay network
//	k01..k12  twelve lineages that all mention kubernetes, for limit clamping
const fixtureT0 = 1_780_000_000 // 2026-05-28

type fixture struct {
	path string
	ids  map[string]int64 // label -> message id
}

func writeFixture(t testing.TB) fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	at := func(min int) time.Time { return time.Unix(fixtureT0+int64(min)*60, 0) }
	type msg struct {
		label, session, role, content string
	}
	var msgs []msg
	sessions := []store.Session{
		{ID: "r1", Source: "cli", Model: "gpt-x", Title: "Docker networking", StartedAt: at(0), EndReason: "compression"},
		{ID: "c1", Source: "cli", Model: "gpt-x", ParentID: "r1", StartedAt: at(100)},
		{ID: "other", Source: "telegram", StartedAt: at(200)},
		{ID: "sub", Source: "subagent", StartedAt: at(300)},
		{ID: "cjk", Source: "cli", Title: "数据库迁移", StartedAt: at(400)},
		{ID: "big", Source: "cli", StartedAt: at(500)},
	}
	for i := 1; i <= 40; i++ {
		role := "user"
		if i%2 == 0 {
			role = "assistant"
		}
		content := fmt.Sprintf("step %d of setting up the staging box", i)
		switch i {
		case 20:
			content = "the overlay network keeps failing after the deploy"
		case 21:
			content = "I recreated the overlay network with `docker network create -d overlay web`."
		}
		msgs = append(msgs, msg{fmt.Sprintf("r1-%d", i), "r1", role, content})
	}
	msgs = append(msgs,
		msg{"c1-1", "c1", "user", "continuing: the overlay network is fine now, next the migration"},
		msg{"c1-2", "c1", "assistant", "The migration ran: `./migrate up` applied 3 files."},
		msg{"other-1", "other", "user", "what is an overlay network anyway"},
		msg{"other-2", "other", "assistant", "An overlay network spans several Docker hosts."},
		msg{"sub-1", "sub", "user", "overlay network subtask"},
		msg{"cjk-1", "cjk", "user", "请帮我修改数据库配置，连接池太小了"},
		msg{"cjk-2", "cjk", "assistant", "已把数据库连接池改为 50"},
		msg{"big-1", "big", "user", "why does the overlay network drop packets?"},
		msg{"big-2", "big", "tool", strings.Repeat("packet trace line with nothing special in it\n", 1400)},
		msg{"big-3", "big", "assistant", strings.Repeat("Long analysis. ", 2000) + "The overlay network MTU was 1500; set it to 1450. " + strings.Repeat("More detail. ", 2000)},
	)
	for i := 1; i <= 12; i++ {
		id := fmt.Sprintf("k%02d", i)
		sessions = append(sessions, store.Session{ID: id, Source: "codex", StartedAt: at(600 + i)})
		msgs = append(msgs, msg{id + "-1", id, "user", fmt.Sprintf("kubernetes question number %d", i)})
	}
	ids := map[string]int64{}
	err = st.Write(ctx, func(tx *store.Tx) error {
		for _, s := range sessions {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		for i, m := range msgs {
			batch := []store.Message{{SessionID: m.session, Role: m.role, Content: m.content, Timestamp: at(i)}}
			if _, err := tx.InsertMessages(batch); err != nil {
				return err
			}
			ids[m.label] = batch[0].ID
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{path: path, ids: ids}
}

// connect serves the fixture in-process and returns a client session over
// the SDK's in-memory transport.
func connect(t *testing.T, fx fixture, cfg *llm.Config, timeout time.Duration) *mcp.ClientSession {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, fx.path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tool := sessionsearch.New(st, sessionsearch.Options{LLM: cfg, SummaryTimeout: timeout})
	srv := New(tool, Options{})
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// answer is one tools/call's text, decoded, and whether it was an error.
type answer struct {
	text    string
	isError bool
	v       map[string]any
}

func call(t *testing.T, cs *mcp.ClientSession, args map[string]any) answer {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
	if err != nil {
		t.Fatalf("call %v: %v", args, err)
	}
	return decodeResult(t, res)
}

func decodeResult(t testing.TB, res *mcp.CallToolResult) answer {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content blocks, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want text", res.Content[0])
	}
	a := answer{text: tc.Text, isError: res.IsError}
	if err := json.Unmarshal([]byte(tc.Text), &a.v); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, tc.Text)
	}
	validate(t, []byte(tc.Text))
	return a
}

// validate checks an answer against assets/schema/session_search.schema.json.
func validate(t testing.TB, doc []byte) {
	t.Helper()
	var schema jsonschema.Schema
	if err := json.Unmarshal(assets.SessionSearchSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("answer does not match the schema: %v\n%.2000s", err, doc)
	}
}

func results(a answer) []map[string]any {
	var out []map[string]any
	rs, _ := a.v["results"].([]any)
	for _, r := range rs {
		out = append(out, r.(map[string]any))
	}
	return out
}

func msgIDs(v any) []int64 {
	var out []int64
	list, _ := v.([]any)
	for _, m := range list {
		out = append(out, int64(m.(map[string]any)["id"].(float64)))
	}
	return out
}
