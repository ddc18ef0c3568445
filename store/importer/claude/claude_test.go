package claude

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sessA = "7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17"
	sessB = "2b8e6d14-5a3c-4f7b-9e02-c6d1a8f5b930"
	child = sessA + "-agent-ab12cd3"
)

// wantA is the main session: a reply split over three lines sharing
// message.id (thinking, text, tool_use) is one message; the slash command
// (an isMeta record here) is a readable command row; bookkeeping records
// are not messages.
var wantA = []it.Msg{
	{Role: "user", Content: "Why does the login form submit twice when I press Enter?"},
	{Role: "assistant", Content: "Let me look for duplicate submit handlers.",
		ToolCalls: it.Calls("toolu_01", "Grep", `{"pattern":"onSubmit|onKeyDown","path":"src"}`),
		Reasoning: "The form probably has both an onSubmit handler and an Enter keydown handler.", Finish: "tool_use", Tokens: 64},
	{Role: "tool", Content: "src/LoginForm.tsx:12:  <form onSubmit={handleSubmit}>\nsrc/LoginForm.tsx:30:  onKeyDown={e => e.key === 'Enter' && handleSubmit(e)}",
		ToolCallID: "toolu_01", ToolName: "Grep"},
	{Role: "assistant", Content: "The form calls handleSubmit twice: once from onSubmit and once from the Enter keydown handler on line 30. Remove the onKeyDown handler; Enter already submits a form.",
		Finish: "end_turn", Tokens: 40},
	{Role: "user", Content: "/cost", Kind: "command"},
	{Role: "user", Content: "Use a subagent to check the other forms too."},
	{Role: "assistant", ToolCalls: it.Calls("toolu_02", "Task", `{"description":"Check other forms","prompt":"Find other forms with both an onSubmit and an Enter keydown handler.","subagent_type":"general-purpose"}`),
		Finish: "tool_use", Tokens: 30},
	{Role: "tool", Content: "SignupForm.tsx has the same double submit: onSubmit plus an Enter keydown handler.", ToolCallID: "toolu_02", ToolName: "Task"},
	{Role: "assistant", Content: "The subagent found the same bug in SignupForm.tsx; I removed the keydown handler from both forms.", Finish: "end_turn", Tokens: 25},
}

var wantChild = []it.Msg{
	{Role: "user", Content: "Find other forms with both an onSubmit and an Enter keydown handler."},
	{Role: "assistant", ToolCalls: it.Calls("toolu_11", "Glob", `{"pattern":"src/**/*Form.tsx"}`), Finish: "tool_use", Tokens: 18},
	{Role: "tool", Content: "src/LoginForm.tsx\nsrc/SignupForm.tsx", ToolCallID: "toolu_11", ToolName: "Glob"},
	{Role: "assistant", Content: "SignupForm.tsx has the same double submit: onSubmit plus an Enter keydown handler.", Finish: "end_turn", Tokens: 22},
}

var wantB = []it.Msg{
	{Role: "user", Content: "The API times out under load; the pg pool max is 10."},
	{Role: "user", Content: "also check the idle timeout"}, // typed while the agent worked (queue-operation)
	{Role: "assistant", Content: "Raise max to 30 and set idleTimeoutMillis to 10000 so idle clients are released.", Finish: "end_turn", Tokens: 35},
	{Role: "user", Content: "Done, latency is fine now. Thanks!"},
	{Role: "assistant", Content: "Great. Keep an eye on the pool wait time metric.", Finish: "end_turn", Tokens: 14},
}

func TestImportFixture(t *testing.T) {
	st := it.Open(t)
	root := it.Fixtures(t, "claude")
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 3 || rep.Messages != 18 || rep.Malformed != 0 || rep.Skipped != 3 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if got := strings.Join(it.IDs(d), " "); got != strings.Join([]string{sessB, sessA, child}, " ") {
		t.Fatalf("sessions = %s", got)
	}
	for _, tc := range []struct {
		id   string
		want store.Session
		msgs []it.Msg
	}{
		{sessA, store.Session{ID: sessA, Source: "claude-code", Model: "claude-sonnet-4-5-20250929",
			Title:     "login double submit", // custom-title beats ai-title and the summary naming its leaf
			StartedAt: it.Time("2026-06-02T09:14:05.120Z"), EndedAt: it.Time("2026-06-02T09:17:45Z"),
			InputTokens: 6000, OutputTokens: 159, CacheReadTokens: 37300, CacheWriteTokens: 500,
			Cwd: "/home/dev/webapp", GitBranch: "fix/login", MessageCount: 9, ToolCallCount: 2}, wantA},
		{child, store.Session{ID: child, Source: "claude-code", Model: "claude-haiku-4-5-20251001", ParentID: sessA, Title: "Check other forms", // agent-ab12cd3.meta.json
			ModelConfig: `{"_delegate_from":"` + sessA + `"}`,
			StartedAt:   it.Time("2026-06-02T09:16:23Z"), EndedAt: it.Time("2026-06-02T09:17:39Z"),
			InputTokens: 1750, OutputTokens: 40, Cwd: "/home/dev/webapp", GitBranch: "fix/login", MessageCount: 4, ToolCallCount: 1}, wantChild},
		{sessB, store.Session{ID: sessB, Source: "claude-code", Model: "claude-sonnet-4-5-20250929",
			Title:     "Tune Postgres connection pool", // summary record, leafUuid later in the same file
			StartedAt: it.Time("2026-06-03T14:02:00Z"), EndedAt: it.Time("2026-06-03T14:10:03Z"),
			InputTokens: 1860, OutputTokens: 49, Cwd: "/home/dev/api", GitBranch: "main", MessageCount: 5}, wantB},
	} {
		t.Run(tc.id, func(t *testing.T) {
			got := d[tc.id]
			sameSession(t, got.Session, tc.want)
			it.SameMsgs(t, tc.id, got.Msgs, tc.msgs)
		})
	}

	// A second run finds nothing new.
	rep = it.Run(t, st, &Source{}, root)
	if rep.Files != 0 || rep.Unchanged != 3 || rep.Messages != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
	if n := it.Count(it.Dump(t, st)); n != 18 {
		t.Errorf("after re-import: %d messages, want 18", n)
	}
}

func sameSession(t *testing.T, got, want store.Session) {
	t.Helper()
	it.SameSession(t, got, want)
}

func TestGrownFile(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "claude"))
	file := filepath.Join(root, "projects", "-home-dev-webapp", sessA+".jsonl")
	st := it.Open(t)
	src := &Source{}
	it.Run(t, st, src, root)

	line := func(typ, uuid, ts, body string) string {
		return `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/webapp","sessionId":"` + sessA +
			`","version":"2.1.3","gitBranch":"fix/login","type":"` + typ + `",` + body + `,"uuid":"` + uuid + `","timestamp":"` + ts + `"}` + "\n"
	}
	reply := func(id, content, stop string, out int) string {
		return `"message":{"id":"` + id + `","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[` + content +
			`],"stop_reason":` + stop + `,"usage":{"input_tokens":100,"output_tokens":` + strconv.Itoa(out) + `}}`
	}
	// New turn: only the two new messages are added.
	it.Append(t, file, line("user", "d1", "2026-06-02T10:00:00Z", `"message":{"role":"user","content":"Now add a test for it."}`)+
		line("assistant", "d2", "2026-06-02T10:00:05Z", reply("msg_01E", `{"type":"text","text":"Added LoginForm.test.tsx."}`, "null", 7)))
	rep := it.Run(t, st, src, root)
	if rep.Files != 1 || rep.Unchanged != 2 || rep.Messages != 2 {
		t.Errorf("grown report = %+v", rep)
	}
	want := append(append([]it.Msg{}, wantA...),
		it.Msg{Role: "user", Content: "Now add a test for it."},
		it.Msg{Role: "assistant", Content: "Added LoginForm.test.tsx.", Tokens: 7})
	it.SameMsgs(t, "grown", it.Dump(t, st)[sessA].Msgs, want)

	// The reply continues on a new line (same message.id) after the import
	// saw its first half: the file is read again and the halves merged.
	it.Append(t, file, line("assistant", "d3", "2026-06-02T10:00:06Z",
		reply("msg_01E", `{"type":"tool_use","id":"toolu_09","name":"Bash","input":{"command":"npm test"}}`, `"tool_use"`, 19)))
	rep = it.Run(t, st, src, root)
	if rep.Files != 1 || len(rep.Problems) != 0 {
		t.Errorf("continued report = %+v", rep)
	}
	want[len(want)-1] = it.Msg{Role: "assistant", Content: "Added LoginForm.test.tsx.",
		ToolCalls: it.Calls("toolu_09", "Bash", `{"command":"npm test"}`), Finish: "tool_use", Tokens: 19}
	d := it.Dump(t, st)
	it.SameMsgs(t, "continued", d[sessA].Msgs, want)
	if got := d[sessA].InputTokens; got != 6100 {
		t.Errorf("input tokens after the merge = %d, want 6100 (each reply counted once)", got)
	}
	if n := it.Count(d); n != 20 {
		t.Errorf("%d messages, want 20", n)
	}
}

func TestCorruptAndTornLines(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "claude"))
	file := filepath.Join(root, "projects", "-home-dev-api", sessB+".jsonl")
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	// Line 4 (the queue-operation record) is cut in half; a new last line is
	// still being written.
	lines[3] = lines[3][:25] + "\n"
	torn := `{"parentUuid":"c1000000-0000-4000-8000-000000000004","type":"user","message":{"role":"user","content":"one more`
	it.Write(t, file, strings.Join(lines, "")+torn)

	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, file)
	if rep.Malformed != 2 || len(rep.Problems) != 2 {
		t.Fatalf("report = %+v", rep)
	}
	for i, want := range []string{file + ":4: invalid JSON", file + ":8: incomplete last line"} {
		if got := rep.Problems[i].String(); !strings.HasPrefix(got, want) {
			t.Errorf("problem %d = %q, want prefix %q", i, got, want)
		}
	}
	// The torn queue-operation line was the queued message's only record.
	unqueued := append(append([]it.Msg{}, wantB[:1]...), wantB[2:]...)
	it.SameMsgs(t, "corrupt", it.Dump(t, st)[sessB].Msgs, unqueued)

	// The writer finishes the line: the next import takes it.
	it.Append(t, file, ` question","uuid":"c1000000-0000-4000-8000-000000000005"},"sessionId":"`+sessB+`","uuid":"c1000000-0000-4000-8000-000000000005","timestamp":"2026-06-03T14:11:00Z"}`+"\n")
	rep = it.Run(t, st, &Source{}, file)
	if rep.Messages != 1 || rep.Malformed != 0 {
		t.Errorf("completed report = %+v", rep)
	}
	want := append(append([]it.Msg{}, unqueued...), it.Msg{Role: "user", Content: "one more question"})
	it.SameMsgs(t, "completed", it.Dump(t, st)[sessB].Msgs, want)
}

func TestDiscover(t *testing.T) {
	root := it.Fixtures(t, "claude")
	web := filepath.Join(root, "projects", "-home-dev-webapp")
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"config root", []string{root}, []string{
			filepath.Join(root, "projects", "-home-dev-api", sessB+".jsonl"),
			filepath.Join(web, sessA+".jsonl"),
			filepath.Join(web, sessA, "subagents", "agent-ab12cd3.jsonl"),
		}},
		{"project folder", []string{web}, []string{
			filepath.Join(web, sessA+".jsonl"),
			filepath.Join(web, sessA, "subagents", "agent-ab12cd3.jsonl"),
		}},
		{"one file", []string{filepath.Join(web, sessA+".jsonl")}, []string{filepath.Join(web, sessA+".jsonl")}},
		{"missing", []string{filepath.Join(root, "nope")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Source{}).Discover(tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestRetentionNotice(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", it.Fixtures(t, "claude"))
	if got := (&Source{}).RetentionNotice(); !strings.Contains(got, "older than 45 days") {
		t.Errorf("notice = %q", got)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "none"))
	if got := (&Source{}).RetentionNotice(); got != "" {
		t.Errorf("notice without Claude Code = %q", got)
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"claude", "claude-code"} {
		if s, ok := importer.Lookup(name); !ok || s.Name() != SourceName {
			t.Errorf("Lookup(%q) = %v, %v", name, s, ok)
		}
	}
}

// TestSummaryAcrossRuns: a summary naming a leaf imported in an earlier run
// (recall watch imports one changed file at a time), and a summary seen
// before its leaf, both title the session holding the leaf.
func TestSummaryAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	msg := func(sid, uuid, typ, text string) string {
		body := `"message":{"role":"user","content":"` + text + `"}`
		if typ == "assistant" {
			body = `"message":{"id":"m-` + uuid + `","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"` + text + `"}]}`
		}
		return `{"type":"` + typ + `","sessionId":"` + sid + `","cwd":"/w","uuid":"` + uuid + `","timestamp":"2026-06-05T08:00:00Z",` + body + "}\n"
	}
	summary := func(leaf, text string) string {
		return `{"type":"summary","summary":"` + text + `","leafUuid":"` + leaf + `"}` + "\n"
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		it.Write(t, p, text)
		return p
	}
	st := it.Open(t)
	runFiles := func(files ...string) {
		t.Helper()
		if _, err := importer.Run(t.Context(), st, &Source{}, nil, importer.Options{Files: files}); err != nil {
			t.Fatal(err)
		}
	}
	x := write("x.jsonl", msg("x", "x1", "user", "rotate the logs")+msg("x", "x2", "assistant", "done"))
	runFiles(x)
	y := write("y.jsonl", summary("x2", "Log rotation")+summary("z2", "Later leaf")+msg("y", "y1", "user", "hello"))
	runFiles(y)
	z := write("z.jsonl", msg("z", "z1", "user", "backup the db")+msg("z", "z2", "assistant", "backed up"))
	runFiles(z)
	d := it.Dump(t, st)
	for id, want := range map[string]string{"x": "Log rotation", "y": "", "z": "Later leaf"} {
		if got := d[id].Title; got != want {
			t.Errorf("title of %s = %q, want %q", id, got, want)
		}
	}
}

// TestProblemLinesNameTheProblem: each malformed record's problem line says
// what is wrong with it, at file:line: a misspelled key shows the keys the
// record has (before: "unexpected end of JSON input"), a field of the
// wrong kind names the field and both kinds (before: Go's "cannot
// unmarshal number into Go struct field block.text of type string").
func TestProblemLinesNameTheProblem(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "claude-problems"))
	rep := it.Run(t, it.Open(t), &Source{}, root)
	file := filepath.Join(root, "projects", "-home-dev-typo", "4c2d9e1a-7b3f-4e8a-9c5d-2f1e0a6b8d37.jsonl")
	want := strings.Join([]string{
		file + `:1: user record's message has no "content" (its keys: contenst, role)`,
		file + `:3: bad assistant content: a number, not text`,
		file + `:4: user record without a message`,
		file + `:5: bad timestamp "not a time"`,
		file + `:6: bad user content: "text" is a number, not text`,
	}, "\n")
	if got := it.Problems(rep); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
	if rep.Messages != 1 || rep.Malformed != 5 {
		t.Errorf("report %+v: want the one good record imported, five malformed", rep)
	}
}
