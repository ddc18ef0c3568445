package gemini

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
	sMain  = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"
	sSub   = "7d4e1a2b-8c9d-4f0e-a1b2-c3d4e5f6a7b8"
	sOld   = "9b8c7d6e-2a3b-4c5d-8e6f-7a8b9c0d1e2f" // whole-file JSON
	sResum = "aa11bb22-3c4d-4e5f-9a6b-7c8d9e0f1a2b" // .json resumed as .jsonl
	apiDir = "tmp/e8b9173cb8ec94e5047ae9770a227bc31014baec9281bf138d241defb7072cec/chats/"
)

const mainFile = "tmp/shop/chats/session-2026-06-10T09-30-3f2a9c1e.jsonl"

var (
	readCall  = it.Call{ID: "read_file-1781083825-0", Name: "read_file", Args: `{"absolute_path":"/home/dev/shop/src/Checkout.tsx"}`}
	editCall  = it.Call{ID: "replace-1781083901-0", Name: "replace", Args: `{"file_path":"/home/dev/shop/src/Checkout.tsx","old_string":"{/* cart */}","new_string":"{/* cart */}<DiscountCode />"}`}
	shellCall = it.Call{ID: "run_shell_command-1781083905-1", Name: "run_shell_command", Args: `{"command":"npm test -- coupons","description":"Run coupon tests"}`}
)

// wantMain is the replay: message m2 written three times (tokens, then its
// tool call) is one message; the info and error notices are not messages;
// $rewindTo m4 removed m4 and m5.
var wantMain = []it.Msg{
	{Role: "user", Content: "Add a discount code field to checkout."},
	{Role: "assistant", Content: "I'll look at the checkout form first.", ToolCalls: it.CallsOf(readCall),
		Reasoning: "Locating checkout: Find the checkout component before editing.", Tokens: 60},
	{Role: "tool", Content: "export function Checkout() {\n  return <form>{/* cart */}</form>;\n}\n", ToolCallID: readCall.ID, ToolName: "read_file"},
	{Role: "user", Content: "Add the discount code field, validated by /api/coupons."},
	{Role: "assistant", Content: "Added the field and a validateCoupon call; one coupon test still fails on lowercase codes.",
		ToolCalls: it.CallsOf(editCall, shellCall), Reasoning: "Thinking about the validation path.", Tokens: 90},
	{Role: "tool", Content: "Successfully modified file: /home/dev/shop/src/Checkout.tsx (1 replacements).", ToolCallID: editCall.ID, ToolName: "replace"},
	{Role: "tool", Content: "Command exited with code 1: 1 failing test (validateCoupon rejects lowercase codes)", ToolCallID: shellCall.ID, ToolName: "run_shell_command"},
}

var wantSub = []it.Msg{
	{Role: "user", Content: "Find where coupons are validated."},
	{Role: "assistant", Content: "validateCoupon lives in src/api/coupons.ts.",
		ToolCalls: it.Calls("search_file_content-1781083875-0", "search_file_content", `{"pattern":"validateCoupon"}`), Tokens: 20},
	{Role: "tool", Content: "src/api/coupons.ts:4: export function validateCoupon(code: string) {", ToolCallID: "search_file_content-1781083875-0", ToolName: "search_file_content"},
}

var wantOld = []it.Msg{
	{Role: "user", Content: "Why does GET /orders return 500?"},
	{Role: "assistant", Content: "The handler dereferences order.customer, which is null for guest orders.",
		Reasoning: "Reading the stack trace: TypeError in ordersHandler.", Tokens: 45},
}

var wantResumed = []it.Msg{
	{Role: "user", Content: "Bump the Node version to 22."},
	{Role: "assistant", Content: "Updated .nvmrc and the engines field."},
	{Role: "user", Content: "Also update the CI image."},
	{Role: "assistant", Content: "Switched CI to node:22-alpine."},
}

func delegate(parent string) string { return `{"_delegate_from":"` + parent + `"}` }

func TestImportFixture(t *testing.T) {
	st := it.Open(t)
	root := it.Fixtures(t, "gemini")
	rep := it.Run(t, st, &Source{}, root)
	if rep.Files != 4 || rep.Messages != 16 || rep.Malformed != 0 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	if got, want := strings.Join(it.IDs(d), " "), strings.Join([]string{sMain, sSub, sOld, sResum}, " "); got != want {
		t.Fatalf("sessions = %s\nwant %s", got, want)
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: sMain, Source: "gemini-cli", Model: "gemini-2.5-flash", Title: "Discount code field in checkout",
			StartedAt: it.Time("2026-06-10T09:30:12Z"), EndedAt: it.Time("2026-06-10T09:32:00Z"),
			InputTokens: 9300, OutputTokens: 150, CacheReadTokens: 4500, ReasoningTokens: 160,
			Cwd: "/home/dev/shop", MessageCount: 7, ToolCallCount: 3}, wantMain},
		{store.Session{ID: sSub, Source: "gemini-cli", Model: "gemini-2.5-flash", ParentID: sMain, ModelConfig: delegate(sMain),
			StartedAt: it.Time("2026-06-10T09:31:10Z"), EndedAt: it.Time("2026-06-10T09:31:20Z"),
			InputTokens: 900, OutputTokens: 20, Cwd: "/home/dev/shop", MessageCount: 3, ToolCallCount: 1}, wantSub},
		{store.Session{ID: sOld, Source: "gemini-cli", Model: "gemini-2.5-pro", Title: "Orders endpoint 500 for guest orders",
			StartedAt: it.Time("2025-12-01T14:05:00Z"), EndedAt: it.Time("2025-12-01T14:07:30Z"),
			InputTokens: 3000, OutputTokens: 45, ReasoningTokens: 30,
			Cwd: "/home/dev/legacy-api", MessageCount: 2}, wantOld}, // project id is the SHA-256 of the path in projects.json
		{store.Session{ID: sResum, Source: "gemini-cli", Model: "gemini-2.5-flash",
			StartedAt: it.Time("2026-01-15T10:00:00Z"), EndedAt: it.Time("2026-04-20T08:00:20Z"),
			Cwd: "/home/dev/legacy-api", MessageCount: 4}, wantResumed},
	} {
		t.Run(tc.want.ID, func(t *testing.T) {
			it.SameSession(t, d[tc.want.ID].Session, tc.want)
			it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
		})
	}
	rep = it.Run(t, st, &Source{}, root)
	if rep.Files != 0 || rep.Unchanged != 4 || rep.Messages != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
	if n := it.Count(it.Dump(t, st)); n != 16 {
		t.Errorf("after re-import: %d messages, want 16", n)
	}
}

func TestReplay(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "gemini"))
	file := filepath.Join(root, mainFile)
	st := it.Open(t)
	it.Run(t, st, &Source{}, file)
	want := append([]it.Msg{}, wantMain...)

	// Appended messages are read incrementally: only they are inserted.
	it.Append(t, file, `{"id":"m9-9a00","timestamp":"2026-06-10T09:40:00.000Z","type":"user","content":[{"text":"Make codes case-insensitive."}]}
{"id":"m10-9a01","timestamp":"2026-06-10T09:40:09.000Z","type":"gemini","content":[{"text":"validateCoupon now upper-cases the code first."}],"model":"gemini-2.5-flash"}
{"$set":{"lastUpdated":"2026-06-10T09:40:09.000Z"}}
`)
	rep := it.Run(t, st, &Source{}, file)
	if rep.Files != 1 || rep.Messages != 2 {
		t.Errorf("appended: report = %+v", rep)
	}
	want = append(want, it.Msg{Role: "user", Content: "Make codes case-insensitive."},
		it.Msg{Role: "assistant", Content: "validateCoupon now upper-cases the code first."})
	d := it.Dump(t, st)
	it.SameMsgs(t, "appended", d[sMain].Msgs, want)
	if e := d[sMain].EndedAt; !e.Equal(it.Time("2026-06-10T09:40:09Z")) {
		t.Errorf("lastUpdated = %v", e)
	}

	// A line rewriting a stored message (its tokens arrived) re-reads the
	// file: the message is replaced, not added, and tokens count once.
	it.Append(t, file, `{"id":"m10-9a01","timestamp":"2026-06-10T09:40:09.000Z","type":"gemini","content":[{"text":"validateCoupon now upper-cases the code first."}],"tokens":{"input":6000,"output":30,"cached":3000,"thoughts":0,"tool":0,"total":6030},"model":"gemini-2.5-flash"}
`)
	rep = it.Run(t, st, &Source{}, file)
	if rep.Files != 1 || len(rep.Problems) != 0 {
		t.Errorf("rewritten: report = %+v", rep)
	}
	want[len(want)-1].Tokens = 30
	d = it.Dump(t, st)
	it.SameMsgs(t, "rewritten", d[sMain].Msgs, want)
	if s := d[sMain]; s.InputTokens != 15300 || s.OutputTokens != 180 || s.CacheReadTokens != 7500 {
		t.Errorf("tokens after rewrite = %d/%d/%d, want 15300/180/7500", s.InputTokens, s.OutputTokens, s.CacheReadTokens)
	}

	// $rewindTo a stored message deletes it and everything after it.
	it.Append(t, file, `{"$rewindTo":"m6-81c0"}
{"id":"m11-b000","timestamp":"2026-06-10T09:45:00.000Z","type":"user","content":[{"text":"Start over: just add the field."}]}
`)
	rep = it.Run(t, st, &Source{}, file)
	if rep.Files != 1 {
		t.Errorf("rewound: report = %+v", rep)
	}
	want = append(append([]it.Msg{}, wantMain[:3]...), it.Msg{Role: "user", Content: "Start over: just add the field."})
	d = it.Dump(t, st)
	it.SameMsgs(t, "rewound", d[sMain].Msgs, want)
	if s := d[sMain]; s.InputTokens != 4100 || s.Model != "gemini-2.5-pro" {
		t.Errorf("after rewind: tokens %d model %q, want 4100 gemini-2.5-pro", s.InputTokens, s.Model)
	}

	// $set carrying messages replaces the whole list.
	it.Append(t, file, `{"$set":{"messages":[{"id":"m1-2c9a","timestamp":"2026-06-10T09:30:20.000Z","type":"user","content":[{"text":"Add a discount code field to checkout."}]}],"lastUpdated":"2026-06-10T09:50:00.000Z"}}
`)
	it.Run(t, st, &Source{}, file)
	it.SameMsgs(t, "set messages", it.Dump(t, st)[sMain].Msgs, wantMain[:1])
}

func TestCorrupt(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "gemini"))
	sub := filepath.Join(root, "tmp/shop/chats", sMain, sSub+".jsonl")
	raw, _ := os.ReadFile(sub)
	lines := strings.SplitAfter(string(raw), "\n")
	it.Write(t, sub, lines[0]+"{\"id\":\"s1-01\",\"timest\n"+strings.Join(lines[2:], "")) // line 2 cut
	file := filepath.Join(root, mainFile)
	it.Append(t, file, `{"id":"m9-9a00","timestamp":"2026-06-10T09:40:00.000Z","type":"user","content":[{"text":"Make co`)
	old := filepath.Join(root, apiDir, "session-2025-12-01T14-05-9b8c7d6e.json")
	oraw, _ := os.ReadFile(old)
	it.Write(t, old, string(oraw[:len(oraw)/2])) // Gemini rewrites the whole file; cut mid-write

	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, root)
	if rep.Failed != 1 || rep.Files != 3 || rep.Malformed != 3 {
		t.Errorf("report = %+v", rep)
	}
	all := it.Problems(rep)
	oldLines := strings.Count(string(oraw[:len(oraw)/2]), "\n") + 1
	for _, want := range []string{
		sub + ":2: invalid JSON",
		file + ":17: incomplete last line",
		old + ":" + strconv.Itoa(oldLines) + ": invalid JSON",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	d := it.Dump(t, st)
	it.SameMsgs(t, "main", d[sMain].Msgs, wantMain)
	it.SameMsgs(t, "sub", d[sSub].Msgs, wantSub[1:])
	if _, ok := d[sOld]; ok {
		t.Errorf("the cut .json produced a session")
	}
	// Gemini finishes writing: the next run imports what was missing.
	it.Write(t, old, string(oraw))
	it.Append(t, file, `des case-insensitive."}]}
`)
	rep = it.Run(t, st, &Source{}, root)
	if rep.Failed != 0 || rep.Malformed != 0 || rep.Unchanged != 2 || rep.Messages != 3 { // the sub-agent file is not read again
		t.Errorf("second report = %+v", rep)
	}
	d = it.Dump(t, st)
	it.SameMsgs(t, "old", d[sOld].Msgs, wantOld)
	it.SameMsgs(t, "completed", d[sMain].Msgs, append(append([]it.Msg{}, wantMain...), it.Msg{Role: "user", Content: "Make codes case-insensitive."}))
}

// TestResumedLegacy: a .json imported before Gemini resumed it as .jsonl
// (the same message ids) is not duplicated by the .jsonl.
func TestResumedLegacy(t *testing.T) {
	root := it.CopyTree(t, it.Fixtures(t, "gemini"))
	jsonl := filepath.Join(root, apiDir, "session-2026-01-15T10-00-aa11bb22.jsonl")
	raw, _ := os.ReadFile(jsonl)
	os.Remove(jsonl)
	st := it.Open(t)
	it.Run(t, st, &Source{}, root)
	it.SameMsgs(t, "before resume", it.Dump(t, st)[sResum].Msgs, wantResumed[:2])
	it.Write(t, jsonl, string(raw))
	rep := it.Run(t, st, &Source{}, root)
	if rep.Messages != 2 {
		t.Errorf("after resume: report = %+v", rep)
	}
	it.SameMsgs(t, "after resume", it.Dump(t, st)[sResum].Msgs, wantResumed)
}

func TestDiscover(t *testing.T) {
	root := it.Fixtures(t, "gemini")
	mains := []string{
		filepath.Join(root, apiDir, "session-2025-12-01T14-05-9b8c7d6e.json"),
		filepath.Join(root, apiDir, "session-2026-01-15T10-00-aa11bb22.jsonl"),
		filepath.Join(root, mainFile),
	}
	subFile := filepath.Join(root, "tmp/shop/chats", sMain, sSub+".jsonl")
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{".gemini", []string{root}, append(append([]string{}, mains...), subFile)},
		{"project", []string{filepath.Join(root, "tmp/shop")}, []string{mains[2], subFile}},
		{"chats with a resumed .json", []string{filepath.Join(root, apiDir)}, mains[:2]},
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
	t.Setenv("GEMINI_CLI_HOME", "/home/someone")
	if got := (&Source{}).DefaultPaths(); len(got) != 1 || got[0] != "/home/someone/.gemini" {
		t.Errorf("DefaultPaths = %v", got)
	}
}

func TestRetentionNotice(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, settings, want string
	}{
		{"default", "", "Gemini CLI deletes sessions not updated for 30d (general.sessionRetention.maxAge); sessions imported into recall stay after that."},
		{"fixture", "fixture", "sessions not updated for 30d"},
		{"disabled", `{"general":{"sessionRetention":{"enabled":false}}}`, ""},
		{"age and count", `{/* mine */ "general":{"sessionRetention":{"enabled":true,"maxAge":"7d","maxCount":50}}}`,
			"Gemini CLI deletes sessions not updated for 7d (general.sessionRetention.maxAge) and all but the newest 50 sessions per project (general.sessionRetention.maxCount); sessions imported into recall stay after that."},
		{"count only", `{"general":{"sessionRetention":{"maxCount":20}}}`, "all but the newest 20 sessions per project"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(dir, tc.name)
			root := filepath.Join(home, ".gemini")
			switch tc.settings {
			case "fixture":
				root = it.Fixtures(t, "gemini")
				home = filepath.Dir(root) // only used to point GEMINI_CLI_HOME
			case "":
				os.MkdirAll(root, 0o755)
			default:
				os.MkdirAll(root, 0o755)
				os.WriteFile(filepath.Join(root, "settings.json"), []byte(tc.settings), 0o644)
			}
			got := retentionNotice(root)
			if !strings.Contains(got, tc.want) || (tc.want == "" && got != "") {
				t.Errorf("notice = %q, want %q", got, tc.want)
			}
		})
	}
	t.Setenv("GEMINI_CLI_HOME", filepath.Join(dir, "nobody"))
	if got := (&Source{}).RetentionNotice(); got != "" {
		t.Errorf("notice without Gemini CLI = %q", got)
	}
}

func TestRegistered(t *testing.T) {
	for _, name := range []string{"gemini", "gemini-cli"} {
		if s, ok := importer.Lookup(name); !ok || s.Name() != SourceName {
			t.Errorf("Lookup(%q) = %v, %v", name, s, ok)
		}
	}
}

// TestSessionIDWithoutProjectHash: a session file with sessionId but no
// projectHash (older Gemini CLI builds, hand-copied files) is filed under
// its sessionId, as Gemini's own loader does, not under the file name, in
// both the whole-file JSON and the JSONL form.
func TestSessionIDWithoutProjectHash(t *testing.T) {
	const sid = "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b"
	for name, body := range map[string]string{
		"session-2026-02-01T08-00-5e6f7a8b.json": `{"sessionId":"` + sid + `","startTime":"2026-02-01T08:00:00.000Z","lastUpdated":"2026-02-01T08:01:00.000Z",` +
			`"messages":[{"id":"m1","timestamp":"2026-02-01T08:00:00.000Z","type":"user","content":"rotate the TLS certificate"},` +
			`{"id":"m2","timestamp":"2026-02-01T08:01:00.000Z","type":"gemini","content":"Renewed it with certbot."}]}`,
		"session-2026-02-01T08-00-5e6f7a8b.jsonl": `{"sessionId":"` + sid + `","startTime":"2026-02-01T08:00:00.000Z","lastUpdated":"2026-02-01T08:01:00.000Z"}` + "\n" +
			`{"id":"m1","timestamp":"2026-02-01T08:00:00.000Z","type":"user","content":"rotate the TLS certificate"}` + "\n",
	} {
		t.Run(filepath.Ext(name), func(t *testing.T) {
			root := t.TempDir()
			chats := filepath.Join(root, "tmp", "proj", "chats")
			if err := os.MkdirAll(chats, 0o755); err != nil {
				t.Fatal(err)
			}
			it.Write(t, filepath.Join(chats, name), body)
			st := it.Open(t)
			it.Run(t, st, &Source{}, root)
			d := it.Dump(t, st)
			if _, ok := d[sid]; !ok || len(d) != 1 {
				t.Errorf("sessions %v, want only %s", it.IDs(d), sid)
			}
		})
	}
}
