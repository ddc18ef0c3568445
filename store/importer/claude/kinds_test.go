package claude

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessX = "5d0c9a8e-3f41-4b7a-a2c6-1e9f7b3d8c20" // begins after /clear; no title record
	sessY = "9e4b2f71-c8d3-4a5e-b6f0-7a1d3c5e9b42" // begins with /model; titled by its summary
)

// wantX: what Claude Code wrote itself into user records is marked by its
// display kind, slash commands and shell escapes are stored readable, the
// empty command output is not a message, and the two queued messages are
// imported once each (the first at its enqueue, delivered mid-turn; the
// second as the prompt that repeated it). The caveat rows are stored with
// display kind "hidden", which no message query returns (Hermes's rule).
var wantX = []it.Msg{
	{Role: "user", Content: "/clear", Kind: "command"},
	{Role: "user", Content: "Add pagination to the orders endpoint"},
	{Role: "assistant", ToolCalls: it.Calls("toolu_X1", "Bash", `{"command":"rm -rf node_modules && npm install","description":"Reinstall dependencies"}`), Finish: "tool_use", Tokens: 40},
	{Role: "tool", Content: "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", ToolCallID: "toolu_X1", ToolName: "Bash"},
	{Role: "user", Content: "[Request interrupted by user for tool use]", Kind: "agent"},
	{Role: "user", Content: "Don't reinstall anything, just edit src/routes/orders.ts"},
	{Role: "assistant", ToolCalls: it.Calls("toolu_X2", "Read", `{"file_path":"/home/dev/shop/src/routes/orders.ts"}`), Finish: "tool_use", Tokens: 30},
	// Typed while Read ran: after the tool's result, not between the call
	// and its output (afterToolResults).
	{Role: "tool", Content: "export async function listOrders(req, res) {\n  const rows = await db.orders.findMany();\n  res.json(rows);\n}", ToolCallID: "toolu_X2", ToolName: "Read"},
	{Role: "user", Content: "use cursor pagination, not offsets"},
	{Role: "assistant", Content: "listOrders now takes ?cursor= and ?limit= and returns nextCursor, as you asked: cursor pagination on the order id.", Finish: "end_turn", Tokens: 60},
	{Role: "user", Content: "also update the OpenAPI spec"},
	{Role: "assistant", Content: "openapi.yaml documents cursor, limit and nextCursor.", Finish: "end_turn", Tokens: 25},
	{Role: "user", Content: "! git status --short", Kind: "command"},
	{Role: "user", Content: "M openapi.yaml\n M src/routes/orders.ts", Kind: "agent"},
	{Role: "user", Content: "/compact focus on tests", Kind: "command"},
	{Role: "user", Content: "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked for pagination of the orders endpoint; cursor pagination was added to listOrders and documented in openapi.yaml.\n\nPending Tasks:\n- Write tests for the cursor pagination.", Kind: "compaction"},
	{Role: "user", Content: "Compacted (ctrl+o to see full summary)\nPreCompact [hook] completed successfully", Kind: "agent"},
	{Role: "user", Content: "/review", Kind: "command"},
	{Role: "user", Content: "Review the changes on this branch: correctness first, then tests that are missing.", Kind: "agent"},
	{Role: "assistant", Content: "The cursor is not validated: a malformed cursor throws a 500.", Finish: "end_turn", Tokens: 30},
	{Role: "user", Content: "[Request interrupted by user]", Kind: "agent"},
	{Role: "user", Content: "Return 400 for a bad cursor and add a test"},
	{Role: "assistant", Content: "Bad cursors now get a 400; orders.test.ts covers it.", Finish: "end_turn", Tokens: 20},
}

var wantY = []it.Msg{
	{Role: "user", Content: "/model opus", Kind: "command"},
	{Role: "user", Content: "Set model to opus (claude-opus-4-5-20251101)", Kind: "agent"},
	{Role: "user", Content: "Why are refund webhooks retried forever?"},
	{Role: "assistant", Content: "The handler never returns 2xx when the refund is already recorded; return 200 for duplicates.", Finish: "end_turn", Tokens: 45},
}

// TestDisplayKinds imports the fixture of records Claude Code writes
// itself: each is stored with its display kind, and neither a command nor
// such text titles or previews its session.
func TestDisplayKinds(t *testing.T) {
	st := it.Open(t)
	root := it.Fixtures(t, "claude-kinds")
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 2 || rep.Malformed != 0 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameMsgs(t, sessX, d[sessX].Msgs, wantX)
	it.SameMsgs(t, sessY, d[sessY].Msgs, wantY)
	list, err := st.RecentSessions(t.Context(), store.ListOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.SessionSummary{}
	for _, s := range list {
		got[s.ID] = s
	}
	for id, want := range map[string][2]string{
		sessX: {"", "Add pagination to the orders endpoint"},
		sessY: {"Refund webhook retries", "Why are refund webhooks retried forever?"},
	} {
		if s := got[id]; s.Title != want[0] || s.Preview != want[1] {
			t.Errorf("%s: title %q, preview %q; want %q, %q", id, s.Title, s.Preview, want[0], want[1])
		}
	}

	rep = it.Run(t, st, &Source{}, root)
	if rep.Files != 0 || rep.Unchanged != 2 || rep.Messages != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
}

// TestClassify covers the wrapper shapes one by one, including text that
// only looks like a wrapper.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		text, content, kind string
		meta, keep          bool
	}{
		{text: "<command-message>compact</command-message>\n<command-name>/compact</command-name>\n<command-args>focus on tests</command-args>", content: "/compact focus on tests", kind: "command", keep: true},
		{text: "<command-name>cost</command-name>", content: "/cost", kind: "command", keep: true},
		{text: "<local-command-stdout></local-command-stdout>", kind: "agent"},
		{text: "<local-command-stdout>  </local-command-stdout>", kind: "agent"},
		{text: "<local-command-stderr>Error: unknown model</local-command-stderr>", content: "Error: unknown model", kind: "agent", keep: true},
		{text: "<bash-input>ls</bash-input>", content: "! ls", kind: "command", keep: true},
		{text: "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>", content: "<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>", kind: "agent", keep: true},
		{text: "[Request interrupted by user]", content: "[Request interrupted by user]", kind: "agent", keep: true},
		{text: "expanded command prompt", content: "expanded command prompt", kind: "agent", meta: true, keep: true},
		// The person's own words about a tag stay a prompt.
		{text: "why does <command-name>/x</command-name> show up in my titles?", content: "why does <command-name>/x</command-name> show up in my titles?", keep: true},
		{text: "<command-name>/x</command-name> is what I see", content: "<command-name>/x</command-name> is what I see", keep: true},
		{text: "fix the [Request interrupted by user] marker parsing", content: "fix the [Request interrupted by user] marker parsing", keep: true},
	} {
		content, kind, keep := classify(tc.text, tc.meta, false)
		if content != tc.content && tc.keep || kind != tc.kind || keep != tc.keep {
			t.Errorf("classify(%q) = %q, %q, %v; want %q, %q, %v", tc.text, content, kind, keep, tc.content, tc.kind, tc.keep)
		}
	}
}

// queueLines are the records of a turn during which the person typed
// "also run the linter": the reply, the enqueue, and then what follows.
func queueLine(op, ts, content string) string {
	c := ""
	if content != "" {
		c = `,"content":"` + content + `"`
	}
	return `{"type":"queue-operation","operation":"` + op + `","timestamp":"` + ts + `","sessionId":"q"` + c + "}\n"
}

func qmsg(uuid, typ, ts, text string) string {
	body := `"message":{"role":"user","content":"` + text + `"}`
	if typ == "assistant" {
		body = `"message":{"id":"m-` + uuid + `","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"` + text + `"}]}`
	}
	return `{"type":"` + typ + `","sessionId":"q","cwd":"/w","uuid":"` + uuid + `","timestamp":"` + ts + `",` + body + "}\n"
}

// TestQueuedAcrossImports: a queued text imported while the turn was still
// running, then sent as the next prompt, is one message after the next
// import (the file is read again); popped back into the input box, it is
// dropped, whatever the import boundaries.
func TestQueuedAcrossImports(t *testing.T) {
	head := qmsg("u1", "user", "2026-06-05T08:00:00Z", "fix the build") +
		queueLine("enqueue", "2026-06-05T08:00:03Z", "also run the linter")
	for _, tc := range []struct {
		name string
		rest string
		want []it.Msg
	}{
		{"sent as the next prompt", qmsg("a1", "assistant", "2026-06-05T08:00:05Z", "fixed") +
			queueLine("dequeue", "2026-06-05T08:00:05.1Z", "") +
			qmsg("u2", "user", "2026-06-05T08:00:05.2Z", "also run the linter") +
			qmsg("a2", "assistant", "2026-06-05T08:00:09Z", "lint is clean"),
			[]it.Msg{{Role: "user", Content: "fix the build"}, {Role: "assistant", Content: "fixed"},
				{Role: "user", Content: "also run the linter"}, {Role: "assistant", Content: "lint is clean"}}},
		{"delivered mid-turn", queueLine("remove", "2026-06-05T08:00:04Z", "also run the linter") +
			qmsg("a1", "assistant", "2026-06-05T08:00:05Z", "fixed, and lint is clean") +
			qmsg("u2", "user", "2026-06-05T08:01:00Z", "also run the linter"),
			[]it.Msg{{Role: "user", Content: "fix the build"}, {Role: "user", Content: "also run the linter"},
				{Role: "assistant", Content: "fixed, and lint is clean"}, {Role: "user", Content: "also run the linter"}}},
		{"popped back for editing", queueLine("popAll", "2026-06-05T08:00:04Z", "") +
			qmsg("a1", "assistant", "2026-06-05T08:00:05Z", "fixed") +
			qmsg("u2", "user", "2026-06-05T08:00:20Z", "also run the linter with --fix"),
			[]it.Msg{{Role: "user", Content: "fix the build"}, {Role: "assistant", Content: "fixed"},
				{Role: "user", Content: "also run the linter with --fix"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, split := range []bool{false, true} {
				file := filepath.Join(t.TempDir(), "q.jsonl")
				st := it.Open(t)
				if split {
					it.Write(t, file, head)
					it.Run(t, st, &Source{}, file)
					if got := it.Dump(t, st)["q"].Msgs; len(got) != 2 || got[1].Content != "also run the linter" {
						t.Fatalf("mid-turn import: %v", got)
					}
					it.Append(t, file, tc.rest)
				} else {
					it.Write(t, file, head+tc.rest)
				}
				it.Run(t, st, &Source{}, file)
				it.SameMsgs(t, tc.name, it.Dump(t, st)["q"].Msgs, tc.want)
			}
		})
	}
}

// TestSteeringRemovedWithoutEnqueue: Claude Code 2.1.207 writes text typed
// while the agent ran, delivered to it mid-turn, as a queue-operation
// "remove" with no enqueue before it; that record is the only place the
// words are, so it is imported as the person's message at its time (once,
// whatever the import boundaries), while a remove that follows its enqueue
// adds nothing.
func TestSteeringRemovedWithoutEnqueue(t *testing.T) {
	head := qmsg("u1", "user", "2026-06-05T08:00:00Z", "fix the build")
	rest := queueLine("remove", "2026-06-05T08:00:04Z", "use make, not go build") +
		qmsg("a1", "assistant", "2026-06-05T08:00:05Z", "fixed with make") +
		queueLine("enqueue", "2026-06-05T08:00:06Z", "and lint") +
		queueLine("remove", "2026-06-05T08:00:06.5Z", "and lint") +
		qmsg("a2", "assistant", "2026-06-05T08:00:09Z", "lint is clean")
	want := []it.Msg{{Role: "user", Content: "fix the build"}, {Role: "user", Content: "use make, not go build"},
		{Role: "assistant", Content: "fixed with make"}, {Role: "user", Content: "and lint"}, {Role: "assistant", Content: "lint is clean"}}
	for _, split := range []bool{false, true} {
		file := filepath.Join(t.TempDir(), "q.jsonl")
		st := it.Open(t)
		if split {
			it.Write(t, file, head+rest[:strings.Index(rest, "\n")+1])
			it.Run(t, st, &Source{}, file)
			it.Append(t, file, rest[strings.Index(rest, "\n")+1:])
		} else {
			it.Write(t, file, head+rest)
		}
		it.Run(t, st, &Source{}, file)
		got := it.Dump(t, st)["q"].Msgs
		it.SameMsgs(t, "steering", got, want)
		msgs, err := st.Messages(t.Context(), "q")
		if err != nil || len(msgs) != len(want) || msgs[1].Timestamp.Sub(it.Time("2026-06-05T08:00:04Z")).Abs() > time.Millisecond {
			t.Errorf("steering row: %v, %v", msgs, err)
		}
	}
}

// TestReimportFixesOldRows: a file imported by the parser before display
// kinds (its rows stored with the raw wrappers and no kind, its state
// without a parser version) is read again in full by the next import, even
// though the file did not change, and its rows are replaced.
func TestReimportFixesOldRows(t *testing.T) {
	st := it.Open(t)
	root := it.Fixtures(t, "claude-kinds")
	file := filepath.Join(root, "projects", "-home-dev-shop", sessY+".jsonl")
	it.Run(t, st, &Source{}, file)
	ctx := context.Background()
	// Rewrite the database as the old parser left it.
	err := st.Write(ctx, func(tx *store.Tx) error {
		f, ok, err := tx.ImportFile(file)
		if err != nil || !ok {
			t.Fatalf("import state: %v %v", ok, err)
		}
		var saved map[string]json.RawMessage
		if err := json.Unmarshal([]byte(f.State), &saved); err != nil {
			return err
		}
		delete(saved, "v")
		raw, _ := json.Marshal(saved)
		f.State = string(raw)
		if err := tx.SetImportFile(f); err != nil {
			return err
		}
		if err := tx.DeleteSessionMessages(sessY); err != nil {
			return err
		}
		_, err = tx.InsertMessages([]store.Message{
			{SessionID: sessY, Role: "user", Content: "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>opus</command-args>", SourceKey: "claude:f1000000-0000-4000-8000-000000000001:user"},
			{SessionID: sessY, Role: "user", Content: "<local-command-stdout>Set model to opus</local-command-stdout>", SourceKey: "claude:f1000000-0000-4000-8000-000000000002:user"},
			{SessionID: sessY, Role: "user", Content: "Why are refund webhooks retried forever?", SourceKey: "claude:f1000000-0000-4000-8000-000000000003:user"},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(it.Dump(t, st)[sessY].Msgs[0].Content, "<command-name>") {
		t.Fatal("the old rows were not written")
	}
	rep, err := importer.Run(ctx, st, &Source{}, nil, importer.Options{Files: []string{file}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 1 {
		t.Errorf("re-import report = %+v (the unchanged file must be read again)", rep)
	}
	it.SameMsgs(t, "re-imported", it.Dump(t, st)[sessY].Msgs, wantY)
	rep = it.Run(t, st, &Source{}, file)
	if rep.Unchanged != 1 || rep.Files != 0 {
		t.Errorf("third import report = %+v", rep)
	}
}
