package kiro

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	journalID = "6f1d2c3b-4a5e-4f60-8172-93a4b5c6d7e8"
	subID     = "8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d"
	v3ID      = "sess_7c9e6679-7425-40de-944b-e07fc1f90ae7"
)

// buildDB writes data.sqlite3 into dir from the fixture's SQL with the
// native shell.
func buildDB(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not on PATH")
	}
	db := filepath.Join(dir, "data.sqlite3")
	fx := it.Fixtures(t, "kiro")
	if out, err := exec.Command("sqlite3", "-bail", db, ".read "+filepath.Join(fx, "schema.sql"), ".read "+filepath.Join(fx, "seed.sql")).CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
	return db
}

func TestImportConversationsV2(t *testing.T) {
	dir := t.TempDir()
	buildDB(t, dir)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, dir)
	if rep.Files != 1 || rep.Sessions != 3 || rep.Messages != 8 || rep.Malformed != 0 {
		t.Fatalf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	k1, k2 := d["c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"], d["d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a"]
	if k1.Model != "" || k1.Cwd != "/srv/app" || k1.Title != "list the open ports" || len(k1.Msgs) != 4 || k1.Msgs[2].ToolName != "execute_bash" {
		t.Errorf("first conversation %+v %v", k1.Session, k1.Msgs)
	}
	if k2.Model != "claude-sonnet-4.5" || !k2.StartedAt.Equal(it.Time("2026-03-02T08:00:00Z")) || k2.EndedAt.UnixMilli() != 1772438402500 {
		t.Errorf("second conversation %+v", k2.Session)
	}
}

// journal is what the CLI journal of journalID imports as.
var journal = []it.Msg{
	{Role: "user", Content: "why does `make test` fail on CI but pass on my laptop?"},
	{Role: "assistant", Content: "Let me look at the CI workflow first.",
		Reasoning: "A test that passes locally and fails on CI is often time zone or locale dependent; read the workflow first.",
		ToolCalls: it.Calls("tooluse_R1", "read", `{"operations":[{"mode":"Line","path":".github/workflows/ci.yml"}]}`)},
	{Role: "tool", Content: "runs-on: ubuntu-latest\nenv:\n  TZ: UTC", ToolCallID: "tooluse_R1", ToolName: "read"},
	{Role: "assistant", ToolCalls: it.Calls("tooluse_S1", "shell", `{"command":"TZ=UTC make test","summary":"run the tests as CI does"}`)},
	{Role: "tool", Content: `{"exit_status":"2","stdout":"--- FAIL: TestDeadline (expected 09:00, got 07:00)","stderr":""}`, ToolCallID: "tooluse_S1", ToolName: "shell", Finish: "error"},
	{Role: "assistant", Content: "TestDeadline builds its clock in the local time zone; CI runs in UTC, your laptop in Europe/Berlin."},
	{Role: "user", Content: "fix it, and ask a sub-agent to check the other tests for the same mistake"},
	{Role: "assistant", Content: "Fixing the test, and sending a sub-agent through the rest.", ToolCalls: it.CallsOf(
		it.Call{ID: "tooluse_W1", Name: "write", Args: `{"command":"strReplace","path":"billing/deadline_test.go","oldStr":"time.Local","newStr":"time.UTC"}`},
		it.Call{ID: "tooluse_T1", Name: "use_subagent", Args: `{"task":"find tests that build times in time.Local"}`})},
	{Role: "tool", Content: "Replaced 1 occurrence", ToolCallID: "tooluse_W1", ToolName: "write"},
	{Role: "tool", Content: "Only deadline_test.go used time.Local.", ToolCallID: "tooluse_T1", ToolName: "use_subagent"},
	{Role: "assistant", Content: "Fixed: the test now uses UTC, and no other test depends on the local zone."},
}

// v3 is what the shared store's session imports as.
var v3 = []it.Msg{
	{Role: "user", Content: "Add a /health endpoint to app.py"},
	{Role: "assistant", Reasoning: "The route belongs next to the app object; read app.py first.", ToolCalls: it.Calls("tc-1", "readFile", `{"path":"app.py"}`)},
	{Role: "tool", Content: "from fastapi import FastAPI\napp = FastAPI()", ToolCallID: "tc-1", ToolName: "readFile"},
	{Role: "assistant", Content: "Adding the route.", ToolCalls: it.Calls("tc-2", "fsWrite", `{"path":"app.py","text":"@app.get(\"/health\")\ndef health():\n    return {\"status\": \"ok\"}\n"}`)},
	{Role: "tool", Content: "permission denied: app.py is read-only", ToolCallID: "tc-2", ToolName: "fsWrite", Finish: "error"},
	{Role: "assistant", Content: "app.py is read-only, so I could not write it; run `chmod u+w app.py` and ask again.", Finish: "end_turn"},
}

// checkAll checks the sessions of the whole fixture: one per conversation,
// the journalled one read from its journal only.
func checkAll(t *testing.T, st *store.Store) {
	t.Helper()
	d := it.Dump(t, st)
	if ids := it.IDs(d); len(ids) != 5 {
		t.Fatalf("sessions %v", ids)
	}
	it.SameSession(t, d[journalID].Session, store.Session{ID: journalID, Source: SourceName, Model: "claude-sonnet-4.5",
		Title: "make test fails on CI but not locally", Cwd: "/home/dev/billing",
		StartedAt: it.Time("2026-09-01T17:51:14.500361Z"), EndedAt: it.Time("2026-09-01T17:53:40.874564Z"),
		MessageCount: 11, ToolCallCount: 4, InputTokens: 38350, OutputTokens: 813, CacheReadTokens: 30000})
	it.SameMsgs(t, journalID, d[journalID].Msgs, journal)
	msgs, err := st.Messages(t.Context(), journalID)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a time.Time, b string) bool { return a.Sub(it.Time(b)).Abs() < time.Microsecond }
	if !near(msgs[0].Timestamp, "2026-09-01T17:51:14Z") || !near(msgs[1].Timestamp, "2026-09-01T17:51:58.12Z") ||
		!near(msgs[10].Timestamp, "2026-09-01T17:53:40.874564Z") {
		t.Errorf("times: prompt %v, first answer %v (the turn's end), last %v", msgs[0].Timestamp, msgs[1].Timestamp, msgs[10].Timestamp)
	}

	sub := d[subID]
	if sub.ParentID != journalID || !strings.Contains(sub.ModelConfig, journalID) || sub.Model != "claude-haiku-4.5" ||
		sub.Title != "find tests that build times in time.Local" || len(sub.Msgs) != 4 || sub.Msgs[0].Kind != store.DisplayKindAgent {
		t.Errorf("sub-agent %+v %v", sub.Session, sub.Msgs)
	}

	it.SameSession(t, d[v3ID].Session, store.Session{ID: v3ID, Source: SourceName, Model: "claude-sonnet-4.5", Title: "Add a /health endpoint",
		Cwd: "/home/dev/api", StartedAt: it.Time("2026-09-03T09:50:00Z"), EndedAt: it.Time("2026-09-03T09:50:31Z"), MessageCount: 6, ToolCallCount: 2})
	it.SameMsgs(t, v3ID, d[v3ID].Msgs, v3)
}

func TestImportAllStores(t *testing.T) {
	for _, order := range []string{"database first", "all at once"} {
		t.Run(order, func(t *testing.T) {
			root := it.CopyTree(t, it.Fixtures(t, "kiro"))
			db := buildDB(t, root)
			st := it.Open(t)
			if order == "database first" {
				if rep := it.Run(t, st, &Source{}, db); rep.Sessions != 3 {
					t.Fatalf("database alone: %+v", rep)
				}
			}
			rep := it.Run(t, st, &Source{}, root)
			if rep.Malformed != 0 {
				t.Fatalf("report %+v: %s", rep, it.Problems(rep))
			}
			checkAll(t, st)
			// The database changes (kiro-cli rewrote the conversation):
			// its copy is still left to the journal.
			if out, err := exec.Command("sqlite3", db, "UPDATE conversations_v2 SET updated_at = updated_at + 1").CombinedOutput(); err != nil {
				t.Fatalf("%v %s", err, out)
			}
			if rep := it.Run(t, st, &Source{}, root); rep.Messages != 0 {
				t.Errorf("again: %+v", rep)
			}
			checkAll(t, st)
		})
	}
}

// TestIncremental: journals are read as they grow, an answer the file ends
// inside is stored and replaced whole when the rest arrives.
func TestIncremental(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "kiro"))
	files := []string{filepath.Join(root, "sessions", "cli", journalID+".jsonl"),
		filepath.Join(root, "sessions", "5d0e1f2a3b4c5d6e", v3ID, "messages.jsonl")}
	full := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		full[f] = string(b)
		lines := strings.SplitAfter(string(b), "\n")
		it.Write(t, f, strings.Join(lines[:8], "")) // the v3 file ends inside the second answer
	}
	st := it.Open(t)
	for _, f := range files {
		it.Run(t, st, &Source{}, f)
	}
	d := it.Dump(t, st)
	if n := len(d[v3ID].Msgs); n != 4 || d[v3ID].Msgs[3].Content != "Adding the route." {
		t.Fatalf("half written: %v", d[v3ID].Msgs)
	}
	for _, f := range files {
		it.Write(t, f, full[f])
		it.Run(t, st, &Source{}, f)
	}
	d = it.Dump(t, st)
	it.SameMsgs(t, journalID, d[journalID].Msgs, journal)
	it.SameMsgs(t, v3ID, d[v3ID].Msgs, v3)
}

// TestJournalKeepsWhatOnlyTheDatabaseHad: a conversation recall read from
// data.sqlite3 before its journal appeared is taken over by the journal,
// but turns only the database's copy held (kiro-cli began the journal after
// them) stay, first, as they were; the journal's own turns are not doubled.
// Before, the database's copy was deleted whole and those turns were gone.
func TestJournalKeepsWhatOnlyTheDatabaseHad(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "kiro"))
	db := buildDB(t, root)
	early := `{"user": {"content": {"Prompt": {"prompt": "which CI runner image do we use?"}}, "timestamp": "2026-09-01T17:40:00Z"},
		"assistant": {"Response": {"message_id": "a-0", "content": "ubuntu-latest, pinned by the billing workflow."}}}`
	sql := `UPDATE conversations_v2 SET value = json_set(value, '$.history',
		json((SELECT json_group_array(json(e)) FROM (SELECT '` + strings.ReplaceAll(early, "\n", " ") + `' AS e UNION ALL
			SELECT value FROM json_each(json_extract(conversations_v2.value, '$.history')))))) WHERE conversation_id = '` + journalID + `';`
	if out, err := exec.Command("sqlite3", "-bail", db, sql).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	st := it.Open(t)
	if rep := it.Run(t, st, &Source{}, db); rep.Sessions != 3 || rep.Malformed != 0 {
		t.Fatalf("database alone: %+v", rep)
	}
	if n := len(it.Dump(t, st)[journalID].Msgs); n != 4 {
		t.Fatalf("the database's copy has %d rows, want 4", n)
	}
	it.Run(t, st, &Source{}, root)
	want := append([]it.Msg{{Role: "user", Content: "which CI runner image do we use?"},
		{Role: "assistant", Content: "ubuntu-latest, pinned by the billing workflow."}}, journal...)
	it.SameMsgs(t, journalID, it.Dump(t, st)[journalID].Msgs, want)
	res, err := st.SearchMessages(t.Context(), "runner", store.SearchFilter{})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("search runner: %+v, %v", res.Hits, err)
	}
}

// TestDatabaseRewriteKeepsEarlierText: kiro-cli rewrites a conversation in
// data.sqlite3 (an answer regenerated under the same turn): recall reads it
// as Kiro has it now and keeps the answer it had as an earlier version,
// still found by search, as every importer of a rewriting source does.
func TestDatabaseRewriteKeepsEarlierText(t *testing.T) {
	dir := t.TempDir()
	db := buildDB(t, dir)
	st := it.Open(t)
	it.Run(t, st, &Source{}, db)
	const id = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"
	sql := `UPDATE conversations_v2 SET value = replace(value, 'Only 8080 is open.', 'Ports 8080 and 9090 are open.'), updated_at = updated_at + 1 WHERE conversation_id = '` + id + `';`
	if out, err := exec.Command("sqlite3", "-bail", db, sql).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if rep := it.Run(t, st, &Source{}, db); rep.Rewritten != 1 || rep.Messages != 0 {
		t.Errorf("re-import: %+v, want 1 rewritten, 0 new", rep)
	}
	var live, earlier []string
	for _, m := range it.Dump(t, st)[id].Msgs {
		if m.Kind == store.DisplayKindEarlier {
			earlier = append(earlier, m.Content)
		} else if m.Role == "assistant" && m.Content != "" {
			live = append(live, m.Content)
		}
	}
	if strings.Join(live, "|") != "Ports 8080 and 9090 are open." || strings.Join(earlier, "|") != "Only 8080 is open." {
		t.Errorf("answers %q, earlier versions %q", live, earlier)
	}
	res, err := st.SearchMessages(t.Context(), `"only 8080"`, store.SearchFilter{})
	if err != nil || len(res.Hits) != 1 {
		t.Errorf("search the earlier text: %+v, %v", res.Hits, err)
	}
}
