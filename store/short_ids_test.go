package store

import (
	"context"
	"strings"
	"testing"
)

// TestShortIDs: every session is shown by the shortest prefix of its own
// id that no other session's id starts with (at least 8 characters), with
// @source only where sessions of several sources share the own id, and
// each short id resolves back to its session, as do the other forms.
func TestShortIDs(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	const uuid = "11111111-1111-4111-8111-111111111111"
	for i, s := range []Session{
		{ID: uuid, Source: "copilot-cli"},
		{ID: uuid, Source: "qwen-code"},
		{ID: "11111111-2222-4222-8222-222222222222", Source: "claude-code"},
		{ID: "abcdef0123456789", Source: "cli"}, // Hermes's
		{ID: "abcdef0123456789", Source: "toolX"},
		{ID: "s1", Source: "toolA"},
		{ID: "s10", Source: "toolA"},
		{ID: "ABCDEFGH-1", Source: "toolA"},
		{ID: "abcdefgh-2", Source: "toolA"},
		{ID: "9a1c7e44-release-v0.9", Source: "claude-code"},
		{ID: "1712000000123", Source: "cline"},
		{ID: "1712000000123", Source: "cline", Machine: "m-laptop"},
		{ID: "数据库迁移会话一二三四", Source: "toolA"},
	} {
		s.StartedAt = at(i)
		writeAll(t, st, []Session{s}, nil)
	}
	ids, err := st.SessionsByPrefix(ctx, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	stored := make([]string, len(ids))
	for i, s := range ids {
		stored[i] = s.ID
	}
	short, err := st.ShortIDs(ctx, append(stored, "not-a-session"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		uuid:                                   "11111111-1@copilot-cli",
		uuid + "@qwen-code":                    "11111111-1@qwen-code",
		"11111111-2222-4222-8222-222222222222": "11111111-2",
		"abcdef0123456789":                     "abcdef01@hermes",
		"abcdef0123456789@toolX":               "abcdef01@toolX",
		"s1":                                   "s1",
		"s10":                                  "s10",
		"ABCDEFGH-1":                           "ABCDEFGH",
		"abcdefgh-2":                           "abcdefgh",
		"9a1c7e44-release-v0.9":                "9a1c7e44",
		"1712000000123":                        "1712000000123", // one agent's id on two machines: the stored ids
		"1712000000123@cline":                  "1712000000123@cline",
		"数据库迁移会话一二三四":                          "数据库迁移会话一",
	}
	if len(short) != len(want) {
		t.Errorf("ShortIDs gave %d ids, want %d: %v", len(short), len(want), short)
	}
	for id, w := range want {
		if short[id] != w {
			t.Errorf("short id of %q = %q, want %q", id, short[id], w)
		}
		for _, form := range []string{short[id], id} {
			if got, err := st.ResolveSessionID(ctx, form); err != nil || got != id {
				t.Errorf("ResolveSessionID(%q) = %q, %v; want %q", form, got, err, id)
			}
		}
	}
	// The own id with its source, and a unique prefix, resolve too; a
	// prefix of several sessions names each by its short id.
	for arg, id := range map[string]string{uuid + "@qwen-code": uuid + "@qwen-code", uuid + "@copilot-cli": uuid,
		"abcdef0123456789@hermes": "abcdef0123456789", "11111111-1111@qwen-code": uuid + "@qwen-code", "9a1c": "9a1c7e44-release-v0.9"} {
		if got, err := st.ResolveSessionID(ctx, arg); err != nil || got != id {
			t.Errorf("ResolveSessionID(%q) = %q, %v; want %q", arg, got, err, id)
		}
	}
	_, err = st.ResolveSessionID(ctx, "11111111-1")
	if err == nil || !strings.Contains(err.Error(), "ambiguous: 11111111-1@copilot-cli, 11111111-1@qwen-code") {
		t.Errorf("ResolveSessionID(11111111-1) = %v, want both short ids", err)
	}
	_, err = st.ResolveSessionID(ctx, "abcdefgh")
	if err != nil {
		t.Errorf("the byte-exact prefix abcdefgh: %v", err)
	}
	_, err = st.ResolveSessionID(ctx, "AbCdEfGh")
	if err == nil || !strings.Contains(err.Error(), "ABCDEFGH (toolA), abcdefgh (toolA)") {
		t.Errorf("a prefix of two ids in any case = %v", err)
	}
}
