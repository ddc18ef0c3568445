package assets_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer/jsonl"
)

// demoLine is the part of a demo record the test looks at.
type demoLine struct {
	SessionID string `json:"session_id"`
	Parent    string `json:"parent_session_id"`
	Role      string `json:"role"`
}

// openDemo imports the embedded demo history into a temporary store, as
// `recall demo` does, and returns it with the parsed lines.
func openDemo(t *testing.T) (*store.Store, []demoLine) {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "demo.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	data := assets.DemoJSONL()
	rep, err := jsonl.ImportReader(ctx, st, "demo.jsonl", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Malformed > 0 {
		t.Errorf("demo has %d malformed lines: %+v", rep.Malformed, rep.Problems)
	}
	var lines []demoLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var l demoLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("demo line %d: %v", len(lines)+1, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rep.Messages != len(lines) {
		t.Errorf("imported %d messages, demo has %d lines (duplicate lines?)", rep.Messages, len(lines))
	}
	return st, lines
}

func TestDemoShape(t *testing.T) {
	ctx := t.Context()
	st, lines := openDemo(t)

	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Sessions < 38 {
		t.Errorf("demo has %d sessions, want at least 38", stats.Sessions)
	}

	// A long session, as stored.
	count := map[string]int{}
	parent := map[string]string{}
	for _, l := range lines {
		count[l.SessionID]++
		if l.Parent != "" {
			parent[l.SessionID] = l.Parent
		}
	}
	longest, n := "", 0
	for id, c := range count {
		if c > n {
			longest, n = id, c
		}
	}
	msgs, err := st.Messages(ctx, longest)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) < 150 {
		t.Errorf("longest session %s has %d stored messages, want at least 150", longest, len(msgs))
	}

	// A three-level delegation chain resolves to its root.
	chains := 0
	for id, p := range parent {
		gp, ok := parent[p]
		if !ok {
			continue
		}
		if _, deeper := parent[gp]; deeper {
			continue
		}
		chains++
		for _, s := range []string{id, p} {
			root, err := st.RootSession(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			if root != gp {
				t.Errorf("RootSession(%s) = %q, want %q", s, root, gp)
			}
		}
		sess, err := st.Session(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sess.ParentID != p {
			t.Errorf("session %s stored with parent %q, want %q", id, sess.ParentID, p)
		}
	}
	if chains == 0 {
		t.Error("no three-level delegation chain (root <- child <- grandchild) in the demo")
	}
	for id, p := range parent {
		if count[p] == 0 {
			t.Errorf("session %s names parent %s, which is not in the demo", id, p)
		}
	}
}

func TestDemoSearches(t *testing.T) {
	ctx := t.Context()
	st, _ := openDemo(t)
	for _, q := range []string{
		"docker network", "migration", "数据库", "部署", "youer", "服务端", "容器",
		"127.0.0.11", "rebase", "FTS5", "文字化け", "설정",
	} {
		for _, typing := range []bool{false, true} {
			res, err := st.SearchMessages(ctx, q, store.SearchFilter{Limit: 20, Typing: typing})
			if err != nil {
				t.Fatalf("search %q: %v", q, err)
			}
			if len(res.Hits) == 0 {
				t.Errorf("search %q (typing=%v, index %s): no hits", q, typing, res.Index)
				continue
			}
			if !strings.Contains(res.Hits[0].Snippet, store.HighlightStart) {
				t.Errorf("search %q (typing=%v): top snippet has no highlight: %q", q, typing, res.Hits[0].Snippet)
			}
		}
	}
	// The mixed-script run is found by its Latin piece.
	res, err := st.SearchMessages(ctx, "youer", store.SearchFilter{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Hits {
		plain := strings.NewReplacer(store.HighlightStart, "", store.HighlightEnd, "").Replace(h.Snippet)
		if strings.Contains(plain, "修改youer服务端") {
			found = true
		}
	}
	if !found {
		t.Errorf("search youer: no snippet contains 修改youer服务端 (%d hits)", len(res.Hits))
	}
	// Several sessions talk about migrations.
	res, err = st.SearchMessages(ctx, "migration", store.SearchFilter{Limit: 200})
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string]bool{}
	for _, h := range res.Hits {
		sessions[h.SessionID] = true
	}
	if len(sessions) < 4 {
		t.Errorf("search migration: hits in %d sessions, want at least 4", len(sessions))
	}
}
