package recall

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

func TestFormatTranscript(t *testing.T) {
	long := strings.Repeat("数", 300) + strings.Repeat("x", 300) // 600 characters, 1200 bytes
	tests := map[string]struct {
		msgs []store.Message
		want string
	}{
		"roles are labelled and ids prefixed": {
			msgs: []store.Message{{ID: 1, Role: "user", Content: "hi"}, {ID: 2, Role: "assistant", Content: "hello"}, {ID: 3, Role: "system", Content: "s"}},
			want: "#1 [USER]: hi\n\n#2 [ASSISTANT]: hello\n\n#3 [SYSTEM]: s",
		},
		"tool calls in OpenAI and flat form, then the content": {
			msgs: []store.Message{{ID: 7, Role: "assistant", Content: "checking",
				ToolCalls: `[{"id":"a","type":"function","function":{"name":"terminal","arguments":"{}"}},{"name":"read_file"}]`}},
			want: "#7 [ASSISTANT]: [Called: terminal, read_file]\n\n#7 [ASSISTANT]: checking",
		},
		"tool call without content": {
			msgs: []store.Message{{ID: 8, Role: "assistant", ToolCalls: `[{"function":{"name":"web_search"}}]`}},
			want: "#8 [ASSISTANT]: [Called: web_search]",
		},
		"short tool output kept": {
			msgs: []store.Message{{ID: 9, Role: "tool", ToolName: "terminal", Content: "ok"}},
			want: "#9 [TOOL:terminal]: ok",
		},
		"long tool output clipped by characters": {
			msgs: []store.Message{{ID: 10, Role: "tool", Content: long}},
			want: "#10 [TOOL:unknown]: " + strings.Repeat("数", 250) + toolClipMark + strings.Repeat("x", 250),
		},
		"long user text is not clipped": {
			msgs: []store.Message{{ID: 11, Role: "user", Content: long}},
			want: "#11 [USER]: " + long,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tr := formatTranscript(tc.msgs)
			if tr.text != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", tr.text, tc.want)
			}
			if !utf8.ValidString(tr.text) {
				t.Fatal("invalid UTF-8")
			}
		})
	}
}

func TestTranscriptMessagesIn(t *testing.T) {
	msgs := []store.Message{{ID: 1, Role: "user", Content: "aaaa"}, {ID: 2, Role: "assistant", Content: "数据"}, {ID: 3, Role: "user", Content: "cc"}}
	tr := formatTranscript(msgs)
	runes := []rune(tr.text)
	for i, m := range msgs {
		if !strings.HasPrefix(string(runes[tr.spans[i]:]), "#"+string(rune('0'+m.ID))+" [") {
			t.Fatalf("span %d points at %q", i, string(runes[tr.spans[i]:]))
		}
	}
	tests := map[string]struct {
		start, end int
		want       []int64
	}{
		"everything":         {0, len(runes), []int64{1, 2, 3}},
		"inside the second":  {tr.spans[1] + 1, tr.spans[1] + 3, []int64{2}},
		"across 2 and 3":     {tr.spans[2] - 3, tr.spans[2] + 1, []int64{2, 3}},
		"the first's prefix": {0, 2, []int64{1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got []int64
			for _, m := range tr.messagesIn(tc.start, tc.end) {
				got = append(got, m.ID)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestExtractiveSummary(t *testing.T) {
	tests := map[string]struct {
		msgs    []store.Message
		query   string
		want    []string
		notWant []string
	}{
		"sections from a troubleshooting session": {
			msgs: []store.Message{
				{ID: 1, Role: "user", Content: "the deploy fails with permission denied on ~/app/run.sh"},
				{ID: 2, Role: "assistant", Content: "Run this:\n```bash\nchmod +x ~/app/run.sh\n# a comment\n```", ToolCalls: `[{"function":{"name":"terminal","arguments":"{\"command\":\"ls -l ~/app\"}"}}]`},
				{ID: 3, Role: "tool", ToolName: "terminal", Content: "$ ./deploy.sh\nError: exit status 126\nsee https://example.com/docs/126."},
				{ID: 4, Role: "assistant", Content: "The deploy works now after `chmod +x ~/app/run.sh`."},
			},
			query: "deploy",
			want: []string{ExtractiveHeading, "- #1 of 4 (user): the deploy fails", "`chmod +x ~/app/run.sh`", "`ls -l ~/app`", "`./deploy.sh`",
				"- `~/app/run.sh`", "https://example.com/docs/126", "- #3 of 4: `Error: exit status 126`", "Conclusion (assistant, #4 of 4):\nThe deploy works now"},
			notWant: []string{"`# a comment`", "https://example.com/docs/126."},
		},
		"no assistant and no match": {
			msgs:  []store.Message{{ID: 5, Role: "user", Content: "hello"}},
			query: "zzz",
			want:  []string{ExtractiveHeading, "Nothing to extract"},
		},
		"CJK match": {
			msgs:  []store.Message{{ID: 6, Role: "user", Content: "数据库迁移失败了"}, {ID: 7, Role: "assistant", Content: "改了端口之后数据库迁移成功。"}},
			query: "数据库迁移",
			want:  []string{"- #1 of 2 (user): 数据库迁移失败了", "Conclusion (assistant, #2 of 2):\n改了端口之后数据库迁移成功。"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := extractiveSummary(tc.msgs, queryWords(tc.query), Positions(tc.msgs), secrets.Messages)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q in:\n%s", w, got)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w+"\n") || strings.HasSuffix(got, w) {
					t.Errorf("has %q in:\n%s", w, got)
				}
			}
		})
	}
}
