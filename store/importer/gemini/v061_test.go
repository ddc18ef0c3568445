package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// What Gemini CLI 0.61 writes (shapes copied from its recordings, texts
// shortened): every chat opens with a <session_context> user message, each
// round of tool results is a user record of functionResponse parts, and a
// resume appends the whole message list again ($set) with copies of those
// records under "<id>_response" and new timestamps, and leaves a second
// file behind with the same sessionId and only the context message.
const (
	sid061  = "ef582c0d-6faa-4885-9748-18841031764f"
	meta061 = `{"sessionId":"` + sid061 + `","projectHash":"1c45cc8d","startTime":"2026-12-05T10:17:27.149Z","lastUpdated":"2026-12-05T10:17:27.149Z","kind":"main"}`
	ctx061  = `{"id":"d04923d3","timestamp":"2026-12-05T10:17:27.155Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>"}]}`
	user061 = `{"id":"6541d8ce","timestamp":"2026-12-05T10:17:27.321Z","type":"user","content":[{"text":"List the files in this project and read them."}]}`
	// The model turn as first written (no tool calls yet), then with them.
	gem061a = `{"id":"203593e4","timestamp":"2026-12-05T10:17:29.021Z","type":"gemini","content":"Let me look at the project.","thoughts":[{"subject":"","description":"The person wants the files of the projec","timestamp":"2026-12-05T10:17:29.021Z"},{"subject":"","description":"t; list_directory shows them.","timestamp":"2026-12-05T10:17:29.021Z"}],"tokens":{"input":1800,"output":120,"cached":0,"thoughts":0,"tool":0,"total":1920},"model":"gemini-2.5-flash"}`
	gem061b = `{"id":"203593e4","timestamp":"2026-12-05T10:17:29.021Z","type":"gemini","content":"Let me look at the project.","thoughts":[{"subject":"","description":"The person wants the files of the projec","timestamp":"2026-12-05T10:17:29.021Z"},{"subject":"","description":"t; list_directory shows them.","timestamp":"2026-12-05T10:17:29.021Z"}],"tokens":{"input":1800,"output":120,"cached":0,"thoughts":0,"tool":0,"total":1920},"model":"gemini-2.5-flash","toolCalls":[{"id":"list_directory__fc-054a","name":"list_directory","args":{"dir_path":"."},"result":[{"functionResponse":{"id":"list_directory__fc-054a","name":"list_directory","response":{"output":"notes.txt (20 bytes)"}}}],"status":"success","timestamp":"2026-12-05T10:17:29.251Z"}]}`
	res061  = `{"id":"d640f404","timestamp":"2026-12-05T10:17:29.267Z","type":"user","content":[{"functionResponse":{"id":"list_directory__fc-054a","name":"list_directory","response":{"output":"notes.txt (20 bytes)"}}}]}`
	ans061  = `{"id":"d4af0d98","timestamp":"2026-12-05T10:17:29.708Z","type":"gemini","content":"The project holds notes.txt.","thoughts":[],"tokens":{"input":1900,"output":10,"cached":0,"thoughts":0,"tool":0,"total":1910},"model":"gemini-2.5-flash"}`
	// The resume: the message list again (the model turn's content now
	// holds its thought parts too, plus a copy of the tool results dated
	// at the resume), then the new prompt.
	resume061 = `{"$set":{"sessionId":"` + sid061 + `"}}
{"$set":{"messages":[` + ctx061 + `,` + user061 + `,{"id":"203593e4","timestamp":"2026-12-05T10:17:29.021Z","type":"gemini","content":[{"text":"The person wants the files of the projec","thought":true},{"text":"t; list_directory shows them.","thought":true},{"text":"Let me look at the project."},{"functionCall":{"id":"list_directory__fc-054a","name":"list_directory","args":{"dir_path":"."}}}],"thoughts":[{"subject":"","description":"The person wants the files of the projec"},{"subject":"","description":"t; list_directory shows them."}],"tokens":{"input":1800,"output":120,"cached":0,"thoughts":0,"tool":0,"total":1920},"model":"gemini-2.5-flash","toolCalls":[{"id":"list_directory__fc-054a","name":"list_directory","args":{"dir_path":"."},"result":[{"functionResponse":{"id":"list_directory__fc-054a","name":"list_directory","response":{"output":"notes.txt (20 bytes)"}}}],"status":"success","timestamp":"2026-12-05T10:17:29.251Z"}]},{"id":"203593e4_response","timestamp":"2026-12-05T10:18:02.843Z","type":"user","content":[{"functionResponse":{"id":"list_directory__fc-054a","name":"list_directory","response":{"output":"notes.txt (20 bytes)"}}}]},` + res061 + `,` + ans061 + `],"lastUpdated":"2026-12-05T10:18:02.843Z"}}
{"id":"1ee31041","timestamp":"2026-12-05T10:18:02.895Z","type":"user","content":[{"text":"So what did notes.txt say?"}]}
{"id":"9098ab29","timestamp":"2026-12-05T10:18:03.076Z","type":"gemini","content":"It said: remember the quokka.","thoughts":[],"tokens":{"input":2000,"output":8,"cached":0,"thoughts":0,"tool":0,"total":2008},"model":"gemini-2.5-flash"}
{"$set":{"lastUpdated":"2026-12-05T10:18:03.076Z"}}
`
	// The file the resumed run started before it loaded the chat.
	stray061 = `{"sessionId":"` + sid061 + `","projectHash":"1c45cc8d","startTime":"2026-12-05T10:18:02.769Z","lastUpdated":"2026-12-05T10:18:02.769Z","kind":"main"}
{"$set":{"messages":[{"id":"d04923d3","timestamp":"2026-12-05T10:18:02.775Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>"}]}],"lastUpdated":"2026-12-05T10:18:02.775Z"}}
`
)

// want061 is what a reader sees: the context row is stored hidden, so
// st.Messages (like every view and search) leaves it out.
var want061 = []it.Msg{
	{Role: "user", Content: "List the files in this project and read them."},
	{Role: "assistant", Content: "Let me look at the project.", ToolCalls: it.Calls("list_directory__fc-054a", "list_directory", `{"dir_path":"."}`),
		Reasoning: "The person wants the files of the project; list_directory shows them.", Tokens: 120},
	{Role: "tool", Content: "notes.txt (20 bytes)", ToolCallID: "list_directory__fc-054a", ToolName: "list_directory"},
	{Role: "assistant", Content: "The project holds notes.txt.", Tokens: 10},
}

var wantResumed061 = append(append([]it.Msg{}, want061...),
	it.Msg{Role: "user", Content: "So what did notes.txt say?"},
	it.Msg{Role: "assistant", Content: "It said: remember the quokka.", Tokens: 8})

func write061(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	chats := filepath.Join(root, "tmp", "project", "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		it.Write(t, filepath.Join(chats, name), body)
	}
	return root
}

// TestGemini061Chat: the <session_context> message is hidden (never a
// title, preview, prompt or search hit), the functionResponse-only user
// record is not a user row (its result is stored once, as the tool row of
// the model's call), and the thought pieces make one reasoning text.
func TestGemini061Chat(t *testing.T) {
	body := strings.Join([]string{meta061, ctx061, user061, gem061a, gem061b, res061, ans061}, "\n") + "\n"
	root := write061(t, map[string]string{"session-2026-12-05T10-17-ef582c0d.jsonl": body})
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, root)
	if rep.Malformed != 0 || rep.Skipped != 1 || rep.Messages != 5 {
		t.Errorf("report = %+v, want 5 messages (one the hidden context) and 1 skipped (the tool-result record)", rep)
	}
	d := it.Dump(t, st)
	s := d[sid061]
	it.SameMsgs(t, "chat", s.Msgs, want061)
	if s.MessageCount != 4 || s.InputTokens != 3700 || s.OutputTokens != 130 {
		t.Errorf("message_count %d tokens %d/%d, want 4 and 3700/130", s.MessageCount, s.InputTokens, s.OutputTokens)
	}
	list, err := st.RecentSessions(t.Context(), store.ListOptions{Limit: 10})
	if err != nil || len(list) != 1 {
		t.Fatalf("recent: %v, %v", list, err)
	}
	if p := list[0].Preview; p != "List the files in this project and read them." {
		t.Errorf("preview = %q, want the person's prompt", p)
	}
}

// TestGemini061Resume: a chat resumed (its message list rewritten, with
// tool-result copies dated at the resume) and the context-only file the
// resume left behind under the same sessionId keep the chat's own times,
// tokens and rows, whichever file is read first.
func TestGemini061Resume(t *testing.T) {
	first := strings.Join([]string{meta061, ctx061, user061, gem061a, gem061b, res061, ans061}, "\n") + "\n"
	for _, order := range []string{"together", "resume later"} {
		t.Run(order, func(t *testing.T) {
			files := map[string]string{"session-2026-12-05T10-18-ef582c0d.jsonl": stray061}
			main := "session-2026-12-05T10-17-ef582c0d.jsonl"
			if order == "together" {
				files[main] = first + resume061
			} else {
				files[main] = first
			}
			root := write061(t, files)
			st := it.Open(t)
			it.Run(t, st, &Source{}, root)
			if order != "together" {
				file := filepath.Join(root, "tmp", "project", "chats", main)
				it.Append(t, file, resume061)
				it.Run(t, st, &Source{}, root)
			}
			d := it.Dump(t, st)
			if len(d) != 1 {
				t.Fatalf("sessions %v, want only %s", it.IDs(d), sid061)
			}
			s := d[sid061]
			it.SameMsgs(t, "resumed", s.Msgs, wantResumed061)
			if d := s.StartedAt.Sub(it.Time("2026-12-05T10:17:27.149Z")); d < -time.Millisecond || d > time.Millisecond ||
				s.InputTokens != 5700 || s.OutputTokens != 138 || s.MessageCount != 6 {
				t.Errorf("started %v tokens %d/%d count %d, want 10:17:27.149, 5700/138, 6", s.StartedAt, s.InputTokens, s.OutputTokens, s.MessageCount)
			}
			msgs, err := st.Messages(t.Context(), sid061)
			if err != nil {
				t.Fatal(err)
			}
			if ts := msgs[0].Timestamp; ts.Sub(it.Time("2026-12-05T10:17:27.321Z")).Abs() > time.Millisecond {
				t.Errorf("first prompt dated %v, want 10:17:27.321", ts)
			}
		})
	}
}

// TestGemini061ResumeRedated: a resume whose $set rewrites the earlier
// messages under their ids with new timestamps and "tokens": null (as
// issue 33 saw) keeps each message's first-written time and tokens.
func TestGemini061ResumeRedated(t *testing.T) {
	first := strings.Join([]string{meta061, ctx061, user061, gem061a, gem061b, res061, ans061}, "\n") + "\n"
	redated := strings.NewReplacer(
		`"timestamp":"2026-12-05T10:17:27.321Z"`, `"timestamp":"2026-12-05T10:17:30.921Z"`,
		`"timestamp":"2026-12-05T10:17:29.021Z","type":"gemini"`, `"timestamp":"2026-12-05T10:17:32.621Z","type":"gemini"`,
		`"timestamp":"2026-12-05T10:17:29.708Z"`, `"timestamp":"2026-12-05T10:17:33.308Z"`,
		`"tokens":{"input":1800,"output":120,"cached":0,"thoughts":0,"tool":0,"total":1920}`, `"tokens":null`,
		`"tokens":{"input":1900,"output":10,"cached":0,"thoughts":0,"tool":0,"total":1910}`, `"tokens":null`,
	)
	lines := strings.SplitAfter(resume061, "\n")
	lines[1] = redated.Replace(lines[1]) // the $set with the message list
	resume := strings.Join(lines, "")
	if resume == resume061 || strings.Contains(lines[1], `"input":1800`) {
		t.Fatal("the test's rewrite changed nothing")
	}
	for _, order := range []string{"together", "resume later"} {
		t.Run(order, func(t *testing.T) {
			main := "session-2026-12-05T10-17-ef582c0d.jsonl"
			body := first
			if order == "together" {
				body += resume
			}
			root := write061(t, map[string]string{main: body})
			st := it.Open(t)
			it.Run(t, st, &Source{}, root)
			if order != "together" {
				it.Append(t, filepath.Join(root, "tmp", "project", "chats", main), resume)
				it.Run(t, st, &Source{}, root)
			}
			s := it.Dump(t, st)[sid061]
			it.SameMsgs(t, "resumed", s.Msgs, wantResumed061)
			if s.InputTokens != 5700 || s.OutputTokens != 138 {
				t.Errorf("tokens %d/%d, want 5700/138 (the first write's 1800/120 kept)", s.InputTokens, s.OutputTokens)
			}
			msgs, err := st.Messages(t.Context(), sid061)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range []string{"2026-12-05T10:17:27.321Z", "2026-12-05T10:17:29.021Z", "", "2026-12-05T10:17:29.708Z"} {
				if want != "" && msgs[i].Timestamp.Sub(it.Time(want)).Abs() > time.Millisecond {
					t.Errorf("message %d dated %v, want %s (first written)", i, msgs[i].Timestamp, want)
				}
			}
		})
	}
}
