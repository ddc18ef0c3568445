package importer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// TestDetect names the format of every kind of file the importers read,
// from the fixtures written in each agent's own shape, and of files no
// importer reads.
func TestDetect(t *testing.T) {
	fix := func(source, rel string) string { return filepath.Join(it.Fixtures(t, source), rel) }
	other := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(other, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	db := filepath.Join(other, "state.db")
	st := it.Open(t)
	if err := os.Link(st.Path(), db); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want importer.Format
	}{
		{fix("claude", "projects/-home-dev-webapp/7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17.jsonl"), importer.FormatClaude},
		{fix("claude", "projects/-home-dev-webapp/7c1f3a52-9b0e-4d6a-8f21-3e5b9c0d4a17/subagents/agent-ab12cd3.jsonl"), importer.FormatClaude},
		{fix("claude", "projects/-home-dev-api/2b8e6d14-5a3c-4f7b-9e02-c6d1a8f5b930.jsonl"), importer.FormatClaude},
		{fix("codex", "sessions/2026/06/04/rollout-2026-06-04T10-15-30-0197a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b.jsonl"), importer.FormatCodex},
		{fix("codex", "sessions/2026/06/04/rollout-2026-06-04T10-16-03-0197a1d0-4b5c-7a6d-8e9f-1a2b3c4d5e6f.jsonl.zst"), importer.FormatCodex},
		{fix("codex", "sessions/2025/04/18/rollout-2025-04-18-0196e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f.json"), importer.FormatCodex},
		{fix("gemini", "tmp/shop/chats/session-2026-06-10T09-30-3f2a9c1e.jsonl"), importer.FormatGemini},
		{fix("gemini", "tmp/e8b9173cb8ec94e5047ae9770a227bc31014baec9281bf138d241defb7072cec/chats/session-2025-12-01T14-05-9b8c7d6e.json"), importer.FormatGemini},
		{fix("jsonl", "export.jsonl"), importer.FormatJSONL},
		{db, importer.FormatHermes},
		{write("notes.txt", "just some notes\nabout docker\n"), importer.Format{}},
		{write("empty.jsonl", ""), importer.Format{}},
		{write("other.json", `{"name": "package", "version": "1.0.0"}`), importer.Format{}},
		{filepath.Join(other, "missing.jsonl"), importer.Format{}},
	} {
		if got := importer.Detect(tc.path); got != tc.want {
			t.Errorf("%s: %q, want %q", filepath.Base(tc.path), got.What, tc.want.What)
		}
	}
}
