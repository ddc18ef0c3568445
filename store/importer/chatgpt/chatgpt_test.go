package chatgpt

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/internal/export"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	convA = "6751a3f0-1c2d-8000-9f3e-0b1c2d3e4f50" // a branch: a regenerated answer
	convB = "6751b000-2222-8000-aaaa-111122223333" // o3 thoughts, a python call, an image
	convC = "6751c111-3333-8000-bbbb-444455556666" // empty
	convD = "6751d222-4444-8000-cccc-777788889999" // archived, web.run
)

func at(sec float64) time.Time { return epoch(sec) }

func fixture(t *testing.T) string {
	return filepath.Join(it.Fixtures(t, "chatgpt"), "conversations.json")
}

func check(t *testing.T, st *store.Store) {
	t.Helper()
	d := it.Dump(t, st)
	// An archived conversation is archived in recall too: left out of the
	// recent list, still searched.
	d[convD] = one(t, st, convD)
	if len(d) != 3 || it.Count(d) != 12 {
		t.Fatalf("%d sessions, %d messages: want 3 and 12 (%v)", len(d), it.Count(d), it.IDs(d))
	}
	if _, ok := d[convC]; ok {
		t.Errorf("the empty conversation was imported")
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: convA, Source: "chatgpt", Model: "gpt-4o", Title: "Nginx reload drops connections",
			StartedAt: at(1733403000.5), EndedAt: at(1733403400.25), MessageCount: 4}, []it.Msg{
			{Role: "user", Content: "nginx -s reload drops websocket connections, why?"},
			// a1-old, on the branch not shown, is left out.
			{Role: "assistant", Content: "Old workers close idle websockets after worker_shutdown_timeout.", Finish: "stop"},
			{Role: "user", Content: "how do I keep them open longer?"},
			{Role: "assistant", Content: "Set worker_shutdown_timeout 10m; in the http block.", Finish: "stop"},
		}},
		{store.Session{ID: convB, Source: "chatgpt", Model: "o3", Title: "CSV column mean",
			StartedAt: at(1733410000), EndedAt: at(1733410100), MessageCount: 4, ToolCallCount: 1}, []it.Msg{
			{Role: "user", Content: "[image]\n\nwhat is the mean of the price column in this table?"},
			{Role: "assistant", ToolCalls: it.Calls("call", "python", "import pandas as pd\nprint(pd.Series([3.5, 4.0, 5.25]).mean())"),
				Reasoning: "The image shows a table with a price column; I should compute it in python."},
			{Role: "tool", Content: "4.25", ToolCallID: "call", ToolName: "python"},
			{Role: "assistant", Content: "The mean price is 4.25.", Finish: "stop"},
		}},
		{store.Session{ID: convD, Source: "chatgpt", Model: "gpt-4o", Title: "Plan a trip to Lisbon",
			StartedAt: at(1733300000), EndedAt: at(1733300050), MessageCount: 4, ToolCallCount: 1, Archived: true}, []it.Msg{
			{Role: "user", Content: "three days in Lisbon in March: what should I see?"},
			{Role: "assistant", ToolCalls: it.Calls("s", "web.run", "Search results")},
			{Role: "tool", Content: "Belem Tower, Alfama, LX Factory", ToolCallID: "s", ToolName: "web.run"},
			{Role: "assistant", Content: "Day 1 Belem, day 2 Alfama, day 3 Sintra.", Finish: "stop"},
		}},
	} {
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}
}

func TestImportJSON(t *testing.T) {
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, fixture(t))
	if rep.Files != 1 || rep.Sessions != 3 || rep.Messages != 12 || rep.Skipped != 5 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	check(t, st)
	rep = it.Run(t, st, &Source{}, fixture(t))
	if rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("again: %+v", rep)
	}
}

// TestImportZip: the export's zip is read as it was downloaded; a newer
// export at another path skips the conversations that did not change and
// replaces the one that did.
func TestImportZip(t *testing.T) {
	raw, err := os.ReadFile(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	zipped := func(name string, body []byte) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		for _, e := range []struct{ name, body string }{{"user.json", `{"id":"user-1"}`}, {"conversations.json", string(body)}, {"chat.html", "<html></html>"}} {
			w, _ := zw.Create(e.name)
			w.Write([]byte(e.body))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return p
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, zipped("export-1.zip", raw))
	if rep.Sessions != 3 || rep.Messages != 12 {
		t.Errorf("zip: %+v", rep)
	}
	check(t, st)
	// The next export: convD's last answer was edited.
	edited := []byte(string(raw))
	edited = bytesReplace(edited, "Day 1 Belem, day 2 Alfama, day 3 Sintra.", "Day 1 Belem, day 2 Alfama, day 3 Cascais.")
	rep = it.Run(t, st, &Source{}, zipped("export-2.zip", edited))
	if rep.Sessions != 1 || rep.Messages != 0 || rep.Rewritten != 1 {
		t.Errorf("second export: %+v, want only the changed conversation (1 session, 1 message rewritten)", rep)
	}
	// The answer reads as edited, in its place; the text it had is kept
	// after the conversation, as an earlier version.
	d := it.Dump(t, st)
	d[convD] = one(t, st, convD)
	msgs := d[convD].Msgs
	if len(msgs) != 5 || msgs[3].Content != "Day 1 Belem, day 2 Alfama, day 3 Cascais." || msgs[3].Kind != "" ||
		msgs[4].Content != "Day 1 Belem, day 2 Alfama, day 3 Sintra." || msgs[4].Kind != store.DisplayKindEarlier || it.Count(d) != 13 {
		t.Errorf("after the second export: %v, %d messages in all", msgs, it.Count(d))
	}
	if s := d[convD].Session; s.MessageCount != 4 {
		t.Errorf("message_count = %d, want 4 (an earlier version is not live)", s.MessageCount)
	}
}

// one reads a session the recent list leaves out (archived).
func one(t *testing.T, st *store.Store, id string) it.Session {
	t.Helper()
	ctx := context.Background()
	s, err := st.Session(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := st.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	out := it.Session{Session: s}
	for _, m := range msgs {
		out.Msgs = append(out.Msgs, it.Msg{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolName: m.ToolName,
			ToolCalls: m.ToolCalls, Reasoning: m.Reasoning, Finish: m.FinishReason, Tokens: m.TokenCount, Kind: m.DisplayKind})
	}
	return out
}

func bytesReplace(b []byte, old, new string) []byte {
	s := string(b)
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return []byte(s[:i] + new + s[i+len(old):])
		}
	}
	return b
}

// TestOddConversations: a conversation that is not an object is reported
// and passed over; one with a field of the wrong kind is imported without
// that field; a parent cycle in the mapping ends the walk.
func TestOddConversations(t *testing.T) {
	file := filepath.Join(t.TempDir(), "conversations.json")
	body := `[42,
	{"conversation_id":"y","title":7,"create_time":1733400000,"mapping":{"a":{"message":{"id":"m1","author":{"role":"user"},"content":{"content_type":"text","parts":[null, 5, "hi there"]}},"parent":null}},"current_node":"a"},
	{"conversation_id":"z","create_time":1733400000,"mapping":{"a":{"message":{"id":"m2","author":{"role":"user"},"content":{"content_type":"text","parts":["loop"]}},"parent":"b"},"b":{"message":null,"parent":"a"}},"current_node":"a"}]`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, file)
	if rep.Sessions != 2 || rep.Messages != 2 || rep.Malformed != 2 || len(rep.Problems) != 2 ||
		rep.Problems[0].Msg != "conversation: a number, not an object" ||
		rep.Problems[1].Msg != `conversation: "title" is a number, not text (imported without it)` {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameMsgs(t, "y", d["y"].Msgs, []it.Msg{{Role: "user", Content: "hi there"}})
	it.SameMsgs(t, "z", d["z"].Msgs, []it.Msg{{Role: "user", Content: "loop"}})
}

// TestStreamed: a conversation read through a spool in a temporary file
// and written in several batches of its own (the paths of a conversation
// of a million nodes, taken here with bounds lowered to a few bytes and
// rows) imports exactly as one read in memory, again too; a message longer
// than recall reads is skipped as too large without being held, the rest
// of its conversation kept.
func TestStreamed(t *testing.T) {
	defer export.SetLimits(64, 2, 1000)()
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, fixture(t))
	if rep.Files != 1 || rep.Sessions != 3 || rep.Messages != 12 || rep.Skipped != 5 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	check(t, st)
	raw, err := os.ReadFile(fixture(t))
	if err != nil {
		t.Fatal(err)
	}
	// The next export: convD's last answer grew past the longest string read.
	huge := strings.Repeat("Sintra ", 200)
	edited := bytesReplace(raw, "Day 1 Belem, day 2 Alfama, day 3 Sintra.", huge)
	file := filepath.Join(t.TempDir(), "conversations.json")
	if err := os.WriteFile(file, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	rep = it.Run(t, st, &Source{}, file)
	if rep.Sessions != 1 || rep.Messages != 0 || rep.Malformed != 1 || len(rep.Problems) != 1 ||
		!strings.Contains(rep.Problems[0].Msg, "too large: the message is 0.0 MB") {
		t.Errorf("second export: %+v, want convD again without its too large answer", rep)
	}
	kept := false
	for _, m := range one(t, st, convD).Msgs {
		kept = kept || m.Content == "Day 1 Belem, day 2 Alfama, day 3 Sintra."
	}
	if d := it.Dump(t, st); !kept || it.Count(d)+len(one(t, st, convD).Msgs) != 12 {
		t.Errorf("after the second export: the first answer kept %v, %d messages in all", kept, it.Count(d)+4)
	}
}

// TestRewriteKeepsEarlierText: an export can reuse a conversation's ids
// with other text (an edit, or an untrusted file). The message reads as the
// newest export has it, and the text it had before stays findable, as an
// earlier version that is not part of the live conversation; stats counts
// it, and the import says so.
func TestRewriteKeepsEarlierText(t *testing.T) {
	dir := t.TempDir()
	export := func(name, text string) string {
		p := filepath.Join(dir, name)
		body := `[{"conversation_id":"dup-1","title":"dup","create_time":1733400000,"current_node":"b","mapping":{
			"a":{"message":{"id":"m1","author":{"role":"user"},"create_time":1733400000,"content":{"content_type":"text","parts":["what changed?"]}},"parent":null},
			"b":{"message":{"id":"m2","author":{"role":"assistant"},"create_time":1733400010,"content":{"content_type":"text","parts":["` + text + `"]}},"parent":"a"}}}]`
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	st := it.Open(t)
	ctx := context.Background()
	it.Run(t, st, &Source{}, export("one.json", "version one of the answer"))
	rep := it.Run(t, st, &Source{}, export("two.json", "version two of the answer"))
	if rep.Messages != 0 || rep.Rewritten != 1 || !strings.Contains(rep.Summary(), "1 rewritten (earlier text kept)") {
		t.Errorf("second export: %+v (%s)", rep, rep.Summary())
	}
	it.Run(t, st, &Source{}, export("two-again.json", "version two of the answer"))
	msgs := it.Dump(t, st)["dup-1"].Msgs
	it.SameMsgs(t, "dup-1", msgs, []it.Msg{
		{Role: "user", Content: "what changed?"},
		{Role: "assistant", Content: "version two of the answer"},
		{Role: "assistant", Content: "version one of the answer", Kind: store.DisplayKindEarlier},
	})
	sess, err := st.Session(ctx, "dup-1")
	if err != nil || sess.MessageCount != 2 {
		t.Errorf("message_count = %d, %v; want 2 live messages", sess.MessageCount, err)
	}
	for _, q := range []string{`"version one"`, "version one"} {
		res, err := st.SearchMessages(ctx, q, store.SearchFilter{})
		if err != nil || len(res.Hits) == 0 || res.Hits[0].DisplayKind != store.DisplayKindEarlier {
			t.Errorf("search %s: %+v, %v; want the earlier version", q, res.Hits, err)
		}
	}
	s, err := st.Stats(ctx)
	if err != nil || s.MessagesRewritten != 1 || s.Messages != 3 {
		t.Errorf("stats: %d rewritten, %d messages, %v; want 1 and 3", s.MessagesRewritten, s.Messages, err)
	}
}
