package zed

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	threadCart   = "b4c0a9d2-6f1e-4a3b-8c5d-1e2f3a4b5c01"
	threadParent = "c7e1f0a2-1b3c-4d5e-8f90-a1b2c3d4e502"
	threadSub    = "d8f2a1b3-2c4d-4e6f-9a01-b2c3d4e5f603"
	threadZH     = "e9a3b2c4-3d5e-4f70-8b12-c3d4e5f6a704"
	threadOld    = "f0b4c3d5-4e6f-4081-9c23-d4e5f6a7b805"
)

// liveDB builds threads.db from the fixture as a running Zed has it (WAL,
// its writer open) and returns its path.
func liveDB(t *testing.T) string {
	db := filepath.Join(t.TempDir(), "zed", "threads", "threads.db")
	it.LiveDB(t, db, it.Fixtures(t, "zed"), "schema.sql", "seed.sql")
	return db
}

// TestZed imports threads stored the way Zed stores them
// (testdata/importers/zed/manifest.json names each shape's source).
func TestZed(t *testing.T) {
	db := liveDB(t)
	st := it.Open(t)
	rep := it.Run(t, st, &Source{}, filepath.Dir(filepath.Dir(db))) // Zed's data dir
	if rep.Files != 1 || rep.Sessions != 5 || rep.Messages != 22 || rep.Malformed != 0 || rep.Skipped != 1 {
		t.Fatalf("report %+v\n%s", rep, it.Problems(rep))
	}
	d := it.Dump(t, st)
	for id, w := range map[string]struct {
		title, cwd, model, parent string
		in, out, cr, cw           int64
	}{
		threadCart:   {"Cart total drifts by a cent", "/home/dev/shop", "claude-sonnet-4-5", "", 18342, 611, 12032, 2048},
		threadParent: {"Summarize the changelog", "/home/dev/shop", "claude-sonnet-4-5", "", 9120, 240, 0, 0},
		threadSub:    {"Summarize changelog", "/home/dev/shop", "claude-sonnet-4-5", threadParent, 4100, 90, 0, 0},
		// "New Thread" is Zed's placeholder: titled by the prompt.
		threadZH:  {"这张截图里的报错是什么意思？[image]", "", "gpt-5.5", "", 1200, 40, 0, 0},
		threadOld: {"What main.rs does", "", "claude-3-7-sonnet-latest", "", 900, 30, 0, 0},
	} {
		s := d[id]
		if s.Source != SourceName || s.Title != w.title || s.Cwd != w.cwd || s.Model != w.model || s.ParentID != w.parent ||
			s.InputTokens != w.in || s.OutputTokens != w.out || s.CacheReadTokens != w.cr || s.CacheWriteTokens != w.cw {
			t.Errorf("%s: %+v", id, s.Session)
		}
	}
	if s := d[threadCart]; s.StartedAt.UTC().Format("15:04:05.000") != "09:14:05.112" || s.EndedAt.UTC().Format("15:04:05") != "09:16:40" {
		t.Errorf("times %v .. %v", s.StartedAt, s.EndedAt)
	}
	it.SameMsgs(t, "cart", d[threadCart].Msgs, []it.Msg{
		{Role: "user", Content: "Why does the cart total drift by a cent? Look at @/home/dev/shop/src/cart.ts"},
		{Role: "user", Content: "export const total = (items) => items.reduce((s, i) => s + i.price * i.qty, 0)\n", Kind: store.DisplayKindAgent},
		{Role: "assistant", Content: "The total sums floats. Let me run the cart tests.", Reasoning: "Float sums of prices drift; check the tests.",
			ToolCalls: it.Calls("toolu_01ZedTerm", "terminal", `{"command":"npx vitest run cart","cd":"shop"}`)},
		{Role: "tool", Content: "Command \"npx vitest run cart\" failed with exit code 1.\n\n```\nexpected 10.3 to be 10.31\n```", ToolCallID: "toolu_01ZedTerm", ToolName: "terminal", Finish: "error"},
		{Role: "assistant", Content: "Summing integer cents fixes it.", ToolCalls: it.Calls("toolu_02ZedEdit", "edit_file", `{"display_description":"Sum cents","path":"shop/src/cart.ts","mode":"edit"}`)},
		{Role: "tool", Content: "Edited shop/src/cart.ts:\n\n```diff\n-s + i.price * i.qty\n+s + Math.round(i.price * 100) * i.qty\n```", ToolCallID: "toolu_02ZedEdit", ToolName: "edit_file"},
		{Role: "assistant", Content: "Done: totals are exact to the cent now."},
	})
	if sub := d[threadSub]; sub.ModelConfig != `{"_delegate_from":"`+threadParent+`"}` || sub.Msgs[0].Kind != store.DisplayKindAgent {
		t.Errorf("sub-agent %+v %v", sub.Session, sub.Msgs[0])
	}
	it.SameMsgs(t, "legacy", d[threadOld].Msgs[2:4], []it.Msg{
		{Role: "assistant", Content: "Let me check the file.", Reasoning: "It is empty.", ToolCalls: it.Calls("toolu_05Old", "read_file", `{"path":"src/main.rs"}`)},
		{Role: "tool", Content: "fn main() {}\n", ToolCallID: "toolu_05Old", ToolName: "read_file"},
	})
	if rep := it.Run(t, st, &Source{}, db); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("second run %+v", rep)
	}
}

// TestThreadRewritten: Zed saves a thread whole; the thread that grew is
// read again, its rows replaced (none doubled), the others left alone.
func TestThreadRewritten(t *testing.T) {
	db := filepath.Join(t.TempDir(), "threads.db")
	w := it.LiveDB(t, db, it.Fixtures(t, "zed"), "schema.sql", "seed.sql")
	st := it.Open(t)
	it.Run(t, st, &Source{}, db)
	doc := `{"title":"New Thread","messages":[{"User":{"id":"u1","content":[{"Text":"这张截图里的报错是什么意思？"},{"Image":{"source":"iVBORw0KGgo=","size":{"width":640,"height":480}}}]}},` +
		`{"Agent":{"content":[{"Text":"报错说明购物车总价的舍入不对：请用整数分计算。"}],"tool_results":{},"reasoning_details":null}},` +
		`{"User":{"id":"u2","content":[{"Text":"再举一个例子"}]}},` +
		`{"Agent":{"content":[{"Text":"例如 0.1 + 0.2 = 0.30000000000000004。"}],"tool_results":{},"reasoning_details":null}}],` +
		`"updated_at":"2026-11-03T08:05:00+00:00","version":"0.3.0"}`
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	blob := enc.EncodeAll([]byte(doc), nil)
	if err := w.Exec(`UPDATE threads SET data = X'` + hex.EncodeToString(blob) + `', updated_at = '2026-11-03T08:05:00+00:00' WHERE id = '` + threadZH + `'`); err != nil {
		t.Fatal(err)
	}
	rep := it.Run(t, st, &Source{}, db)
	if rep.Sessions != 1 {
		t.Fatalf("report %+v", rep)
	}
	d := it.Dump(t, st)
	if n := it.Count(d); n != 24 {
		t.Errorf("%d messages after the rewrite, want 24", n)
	}
	if m := d[threadZH].Msgs; len(m) != 4 || m[2].Content != "再举一个例子" || !d[threadZH].EndedAt.Equal(it.Time("2026-11-03T08:05:00Z")) {
		t.Errorf("rewritten thread %v %v", m, d[threadZH].EndedAt)
	}
}

// TestNotZed: another database given to the zed source says so.
func TestNotZed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "other.db")
	it.LiveDB(t, db, "", "CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT)")
	st := it.Open(t)
	rep, err := (&Source{}).Import(t.Context(), st, db)
	if err == nil || !strings.Contains(err.Error(), "not Zed's threads.db (no threads.summary)") {
		t.Errorf("%+v %v", rep, err)
	}
}

// TestDefaultPaths follows Zed's data_dir: XDG_DATA_HOME, and a Flatpak
// install's data when it has a threads.db.
func TestDefaultPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("FLATPAK_XDG_DATA_HOME", "")
	t.Setenv("XDG_DATA_HOME", "/x/data")
	if got := (&Source{}).DefaultPaths(); len(got) != 1 || got[0] != "/x/data/zed/threads/threads.db" {
		t.Errorf("paths %q", got)
	}
	flatpak := filepath.Join(home, ".var", "app", "dev.zed.Zed", "data", "zed", "threads", "threads.db")
	if err := os.MkdirAll(filepath.Dir(flatpak), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flatpak, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := (&Source{}).DefaultPaths(); len(got) != 2 || got[1] != flatpak {
		t.Errorf("paths %q", got)
	}
}
