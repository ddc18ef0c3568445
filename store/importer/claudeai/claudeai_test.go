package claudeai

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	convA = "1f0e2d3c-aaaa-4bbb-8ccc-000000000001" // thinking, a tool call and result, an attachment
	convB = "1f0e2d3c-aaaa-4bbb-8ccc-000000000002" // empty
	convC = "1f0e2d3c-aaaa-4bbb-8ccc-000000000003" // a regenerated answer (branch)
)

func at(s string) time.Time { return parseTime(s) }

func TestImport(t *testing.T) {
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
