package textutil

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  Fix\tthe\n\nbuild  ":  "Fix the build",
		"zero\u200bwidth\ufeff":  "zerowidth",
		"ctl\x07char":            "ctlchar",
		strings.Repeat("é", 120): strings.Repeat("é", 97) + "...",
		"":                       "",
	} {
		if got := Title(in); got != want {
			t.Errorf("Title(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToolCalls(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{ "a" : 1 }`, `{"a":1}`},
		{`"{\"cmd\":\"ls\"}"`, `{"cmd":"ls"}`}, // already a string (Codex)
		{``, `{}`},
		{`null`, `{}`},
		{`"*** Begin Patch"`, `*** Begin Patch`},
	} {
		if got := ArgsText(json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("ArgsText(%s) = %s, want %s", tc.args, got, tc.want)
		}
	}
	got := ToolCallsJSON([]ToolCall{NewToolCall("c1", "edit", json.RawMessage(`{"new":"<b>"}`))})
	if want := `[{"id":"c1","type":"function","function":{"name":"edit","arguments":"{\"new\":\"<b>\"}"}}]`; got != want {
		t.Errorf("ToolCallsJSON = %s, want %s", got, want)
	}
	if ToolCallsJSON(nil) != "" {
		t.Error("no calls should be empty")
	}
}

func TestFlattenParts(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`: "plain",
		`[{"type":"text","text":"a"},{"type":"image","source":{}},{"type":"text","text":"b"}]`: "a\n\n[image]\n\nb",
		`{"type":"text","text":"one"}`: "one",
		`null`:                         "",
		`42`:                           "42",
	} {
		if got := FlattenParts(json.RawMessage(in)); got != want {
			t.Errorf("FlattenParts(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestParseTime reads RFC 3339 timestamps; anything else is the zero time.
func TestParseTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"2026-05-01T10:20:30.5Z", time.Date(2026, 5, 1, 10, 20, 30, 5e8, time.UTC)},
		{"2026-05-01T12:20:30+02:00", time.Date(2026, 5, 1, 10, 20, 30, 0, time.UTC)},
		{"", time.Time{}},
		{"yesterday", time.Time{}},
	} {
		if got := ParseTime(c.in); !got.Equal(c.want) {
			t.Errorf("ParseTime(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestIDFromName(t *testing.T) {
	const id = "0199a2b4-7c3e-7d21-9f00-1234567890ab"
	for name, want := range map[string]string{
		"/x/rollout-2025-10-01T10-00-00-" + id + ".jsonl": id,
		"/x/2025-10-01T10-00-00-000Z_" + id + ".jsonl":    id,
		"/x/" + id + ".jsonl":                             id,
		"/x/notes.jsonl":                                  "notes",
		"/x/rollout-old.json":                             "rollout-old",
	} {
		if got := IDFromName(name); got != want {
			t.Errorf("IDFromName(%q) = %q, want %q", name, got, want)
		}
	}
	if !IsUUID(id) || IsUUID("x"+id) || IsUUID(id[:35]) || IsUUID("renamed") {
		t.Error("IsUUID")
	}
}
