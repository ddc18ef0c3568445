package jsonl

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

var wantNotes = []it.Msg{
	{Role: "user", Content: "Rename --out to --output everywhere."},
	{Role: "assistant", Content: "Renamed the flag in cmd/root.go and the README.",
		ToolCalls: `[{"id":"c1","type":"function","function":{"name":"edit","arguments":"{\"path\":\"cmd/root.go\"}"}}]`, Finish: "tool_calls", Tokens: 31},
	{Role: "tool", Content: "edited cmd/root.go", ToolCallID: "c1", ToolName: "edit"},
}

var wantReview = []it.Msg{
	{Role: "user", Content: "Review the rename.\nCheck the docs too."},
	{Role: "assistant", Content: "Docs still mention --out in two places.", Reasoning: "grep the docs folder"},
}

func TestImportFixture(t *testing.T) {
	st := it.Open(t)
	file := filepath.Join(it.Fixtures(t, "jsonl"), "export.jsonl")
	rep := it.Run(t, st, Source{}, file)
	if rep.Files != 1 || rep.Messages != 5 || rep.Sessions != 2 || rep.Malformed != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	it.SameSession(t, d["notes-2026-06-01"].Session, store.Session{ID: "notes-2026-06-01", Source: "aider", Model: "gpt-4.1",
		Title: "Rename the CLI flags", StartedAt: time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC), MessageCount: 3, ToolCallCount: 1})
	it.SameSession(t, d["notes-2026-06-01-review"].Session, store.Session{ID: "notes-2026-06-01-review", Source: "jsonl",
		ParentID: "notes-2026-06-01", StartedAt: time.Unix(1780300900, 0), MessageCount: 2})
	it.SameMsgs(t, "notes", d["notes-2026-06-01"].Msgs, wantNotes)
	it.SameMsgs(t, "review", d["notes-2026-06-01-review"].Msgs, wantReview)
	msgs, _ := st.Messages(context.Background(), "notes-2026-06-01-review")
	if got := msgs[1].Timestamp; !got.Equal(time.UnixMilli(1780300920500)) { // milliseconds recognised
		t.Errorf("ms timestamp = %v", got)
	}

	rep = it.Run(t, st, Source{}, file)
	if rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
}

func TestGrownAndCorrupt(t *testing.T) {
	dir := it.CopyTree(t, it.Fixtures(t, "jsonl"))
	file := filepath.Join(dir, "export.jsonl")
	st := it.Open(t)
	it.Run(t, st, Source{}, dir)
	it.Append(t, file, `{"session_id":"notes-2026-06-01","role":"user","content":"Thanks.","timestamp":"2026-06-01T08:05:00Z"}
{"session_id":"notes-2026-06-01","role":"robot","content":"?","timestamp":"2026-06-01T08:05:01Z"}
{"session_id":"notes-2026-06-01","role":"assistant","timestamp":"2026-06-01T08:05:02Z"}
not json at all
{"session_id":"","role":"user","content":"x","timestamp":"2026-06-01T08:05:03Z"}
{"session_id":"notes-2026-06-01","role":"user","content":"bad time","timestamp":"yesterday"}
{"session_id":"notes-2026-06-01","role":"assistant","content":"You're welcome.","timestamp":"2026-06-01T08:05:04Z"}
{"session_id":"notes-2026-06-01","role":"user","content":"cut o`)
	rep := it.Run(t, st, Source{}, dir)
	if rep.Messages != 2 || rep.Malformed != 6 {
		t.Errorf("report = %+v", rep)
	}
	var got []string
	for _, p := range rep.Problems {
		got = append(got, strings.TrimPrefix(p.String(), file))
	}
	want := []string{`:7: unknown role "robot"`, `:8: record has no "content" (its keys: role, session_id, timestamp)`, `:9: invalid JSON: invalid character 'o' in literal null (expecting 'u')`,
		`:10: empty session_id`, `:11: bad timestamp: "yesterday" is neither RFC 3339 nor Unix seconds`, `:13: incomplete last line (left for the next import)`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	it.SameMsgs(t, "grown", it.Dump(t, st)["notes-2026-06-01"].Msgs, append(append([]it.Msg{}, wantNotes...),
		it.Msg{Role: "user", Content: "Thanks."}, it.Msg{Role: "assistant", Content: "You're welcome."}))
}

func TestImportReader(t *testing.T) {
	st := it.Open(t)
	in := `{"session_id":"s","role":"user","content":"hi","timestamp":"2026-06-01T08:00:00Z"}
{"session_id":"s","role":"assistant","content":"hello","timestamp":"2026-06-01T08:00:01Z"}
`
	for i, want := range []int{2, 0} { // the second read of the same stream adds nothing
		rep, err := ImportReader(context.Background(), st, "-", strings.NewReader(in))
		if err != nil || rep.Messages != want {
			t.Errorf("read %d: %+v, %v", i, rep, err)
		}
	}
}

func TestDiscover(t *testing.T) {
	dir := it.Fixtures(t, "jsonl")
	got, err := Source{}.Discover([]string{dir, filepath.Join(dir, "missing.jsonl")})
	if err != nil || len(got) != 1 || got[0] != filepath.Join(dir, "export.jsonl") {
		t.Errorf("Discover = %v, %v", got, err)
	}
}

// A record's cwd (and git_branch) is the session's: recall --here scopes by
// it and pick --resume prints its cd. Before, the field was dropped.
func TestCwdHonoured(t *testing.T) {
	st := it.Open(t)
	in := `{"session_id":"w","role":"user","content":"hi","timestamp":"2026-06-01T08:00:00Z"}
{"session_id":"w","role":"assistant","content":"hello","timestamp":"2026-06-01T08:00:01Z","cwd":"/src/app","git_branch":"main"}
`
	if _, err := ImportReader(context.Background(), st, "-", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	s, err := st.Session(context.Background(), "w")
	if err != nil || s.Cwd != "/src/app" || s.GitBranch != "main" {
		t.Errorf("session cwd %q branch %q, %v", s.Cwd, s.GitBranch, err)
	}
}
