package claudeai

import (
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
	convA = "1f0e2d3c-aaaa-4bbb-8ccc-000000000001" // thinking, a tool call and result, an attachment
	convB = "1f0e2d3c-aaaa-4bbb-8ccc-000000000002" // empty
	convC = "1f0e2d3c-aaaa-4bbb-8ccc-000000000003" // a regenerated answer (branch)
)

func at(s string) time.Time { return parseTime(s) }

func TestImport(t *testing.T) { importFixture(t) }

// TestStreamed: the export read through a spool in a temporary file and
// written in batches of two rows (the paths a conversation of a million
// messages takes) imports exactly as read in memory; a message longer than
// recall reads is skipped as too large, never held, and the rest kept.
func TestStreamed(t *testing.T) {
	defer export.SetLimits(64, 2, 1000)()
	importFixture(t)
	long := strings.Repeat("rain ", 300)
	file := filepath.Join(t.TempDir(), "conversations.json")
	body := `[{"uuid":"big","name":"big","created_at":"2025-01-01T00:00:00Z","chat_messages":[
		{"uuid":"u1","sender":"human","created_at":"2025-01-01T00:00:00Z","text":"` + long + `","content":[{"type":"text","text":"` + long + `"}]},
		{"uuid":"u2","sender":"assistant","created_at":"2025-01-01T00:00:01Z","content":[{"type":"text","text":"a short answer"}]},
		{"uuid":"u3","sender":"human","created_at":"2025-01-01T00:00:02Z","text":"thanks"}]}]`
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, file)
	if rep.Sessions != 1 || rep.Messages != 2 || rep.Malformed != 1 || !strings.Contains(rep.Problems[0].Msg, "a user message of session big") ||
		!strings.Contains(rep.Problems[0].Msg, "too large") {
		t.Errorf("report = %+v", rep)
	}
	it.SameMsgs(t, "big", it.Dump(t, st)["big"].Msgs, []it.Msg{{Role: "assistant", Content: "a short answer"}, {Role: "user", Content: "thanks"}})
}

func importFixture(t *testing.T) {
	st := it.Open(t)
	file := filepath.Join(it.Fixtures(t, "claudeai"), "conversations.json")
	rep := it.Run(t, st, &Source{}, file)
	if rep.Files != 1 || rep.Sessions != 2 || rep.Messages != 9 || rep.Skipped != 1 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if len(d) != 2 || it.Count(d) != 9 {
		t.Fatalf("%d sessions, %d messages: want 2 and 9", len(d), it.Count(d))
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: convA, Source: "claude-ai", Title: "Postgres index not used",
			StartedAt: at("2025-03-01T10:00:00Z"), EndedAt: at("2025-03-01T10:05:30.5Z"), MessageCount: 6, ToolCallCount: 1}, []it.Msg{
			{Role: "user", Content: "why does postgres ignore my index on lower(email)?"},
			{Role: "assistant", Reasoning: "The query must use the same expression as the index.",
				ToolCalls: it.Calls("m2-1", "web_search", `{"query":"postgres expression index lower email not used"}`)},
			{Role: "tool", Content: "An index on lower(col) is used by WHERE lower(col) = ...", ToolCallID: "m2-1", ToolName: "web_search"},
			{Role: "assistant", Content: "Write the predicate as lower(email) = lower($1) so the planner can match the index."},
			{Role: "user", Content: "here is the plan\n\n[attachment plan.txt]\nSeq Scan on users  (cost=0.00..431.00 rows=1)\n\n[file screenshot.png]"},
			{Role: "assistant", Content: "The Seq Scan shows the cast: email is citext, so lower() is not the indexed expression."},
		}},
		{store.Session{ID: convC, Source: "claude-ai", Title: "Haiku about rain",
			StartedAt: at("2025-01-05T12:00:00Z"), EndedAt: at("2025-01-05T12:01:00Z"), MessageCount: 3}, []it.Msg{
			{Role: "user", Content: "write a haiku about rain"},
			// r2a, the answer regenerated away, is left out.
			{Role: "assistant", Content: "Grey sky lets go slow\npuddles hold the streetlight glow\nthe gutters hum low"},
			{Role: "user", Content: "perfect, thanks"},
		}},
	} {
		it.SameSession(t, d[tc.want.ID].Session, tc.want)
		it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
	}
}
