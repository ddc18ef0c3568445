package score

import (
	"testing"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/query"
)

func TestCandidatesOrdersByBM25(t *testing.T) {
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
			cands := make([]Candidate, len(c.texts))
			for i, s := range c.texts {
				cands[i] = Candidate{Hit: engine.Hit{MessageID: int64(i)}, Text: s}
			}
			Candidates(cands, RankTerms(q), c.substring, 1000, float64(len(cands)))
			if got := cands[0].Hit.MessageID; got != int64(c.want) {
				t.Fatalf("first = %d (%q), want %d", got, c.texts[got], c.want)
			}
			if cands[0].Hit.Rank >= 0 {
				t.Fatalf("rank should be negative bm25 like FTS5's, got %v", cands[0].Hit.Rank)
			}
		})
	}
}
