package store

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/store/engine/query"
)

func TestScoreCandidatesOrdersByBM25(t *testing.T) {
	cases := []struct {
		name      string
		query     string
		substring bool
		texts     []string
		want      int // index of the text that must rank first
	}{
		{"term frequency wins", "docker", false, []string{"docker once in a long line of other words here", "docker docker docker", "nothing"}, 1},
		{"shorter document wins at equal tf", "nginx", false, []string{"nginx with a lot of padding words around it to make it long", "nginx 502"}, 1},
		{"rare term outweighs common", "the unicast", false, []string{"the the the the", "unicast route", "the a", "the b", "the c", "the d"}, 1},
		{"prefix counts completions", "conf", false, []string{"nothing here", "config configure configuration"}, 1},
		{"substring mode for CJK", "数据", true, []string{"服务器", "数据库 数据 数据迁移"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := query.Parse(c.query, []string{"content"}, false)
			if c.name == "prefix counts completions" {
				q = query.Parse(c.query+"*", []string{"content"}, false)
			}
			cands := make([]candidate, len(c.texts))
			for i, s := range c.texts {
				cands[i] = candidate{hit: Hit{MessageID: int64(i)}, text: s}
			}
			scoreCandidates(cands, rankTerms(q), c.substring, 1000, float64(len(cands)))
			if got := cands[0].hit.MessageID; got != int64(c.want) {
				t.Fatalf("first = %d (%q), want %d", got, c.texts[got], c.want)
			}
			if cands[0].hit.Rank >= 0 {
				t.Fatalf("rank should be negative bm25 like FTS5's, got %v", cands[0].hit.Rank)
			}
		})
	}
}

func TestGoSnippetMarksAndCuts(t *testing.T) {
	text := strings.Repeat("padding words ", 30) + "the Docker networking error was fixed " + strings.Repeat("tail ", 40)
	q := query.Parse("docker error", []string{"content"}, false)
	s := goSnippet(text, q)
	if !strings.Contains(s, HighlightStart+"Docker"+HighlightEnd) || !strings.Contains(s, HighlightStart+"error"+HighlightEnd) {
		t.Fatalf("terms not marked: %q", s)
	}
	if n := len([]rune(s)); n > 200 {
		t.Fatalf("snippet too long: %d runes", n)
	}
	if !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Fatalf("cut ends not marked: %q", s)
	}
}

func TestRootSessionsBatch(t *testing.T) {
	st := openTestStore(t)
	ctx := t.Context()
	err := st.Write(ctx, func(tx *Tx) error {
		for _, s := range []Session{{ID: "root"}, {ID: "child", ParentID: "root"}, {ID: "grand", ParentID: "child"}, {ID: "alone"}, {ID: "c1"}, {ID: "c2", ParentID: "c1"}} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		return tx.c.run("UPDATE sessions SET parent_session_id = 'c2' WHERE id = 'c1'") // a cycle
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.RootSessions(ctx, []string{"grand", "child", "root", "alone", "missing", "c1", "c2"})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"grand": "root", "child": "root", "root": "root", "alone": "alone", "missing": "missing"} {
		if got[id] != want {
			t.Errorf("root of %s = %q, want %q", id, got[id], want)
		}
	}
	for _, id := range []string{"c1", "c2"} {
		if r := got[id]; r != "c1" && r != "c2" {
			t.Errorf("cycle member %s resolved outside the cycle: %q", id, r)
		}
	}
	for _, id := range []string{"grand", "child", "root", "alone", "c1"} {
		one, err := st.RootSession(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if id != "c1" && one != got[id] {
			t.Errorf("RootSession(%s) = %q, batch says %q", id, one, got[id])
		}
	}
}

func openTestStore(t *testing.T) *Store {
	t.Helper()
	st, err := Open(t.Context(), t.TempDir()+"/t.db", Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
