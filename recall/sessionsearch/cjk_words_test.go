package sessionsearch

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/recall-dev/recall/assets"
	"github.com/recall-dev/recall/recall"
)

// TestCJKWordsLikeEnglishWords: a plain query means the same in every
// script: any of its words may match, and sessions holding more of them
// rank first. A word nobody wrote beside a Chinese word (数据库 zzzqqq)
// finds what the word alone finds, as it does beside an English word
// (database zzzqqq), on each CJK route: trigram (3+ characters), the
// bigram index (1-2), and a CJK word beside an English word.
func TestCJKWordsLikeEnglishWords(t *testing.T) {
	st := openImported(t, "demo", assets.DemoJSONL())
	tool := New(st, Options{})
	for _, c := range []struct{ word, other string }{
		{"database", "zzzqqq"},
		{"数据库", "zzzqqq"},
		{"数据库", "不存在的词"},
		{"部署", "zzzqqq"},
		{"库", "zzzqqq"},
		{"连接池", "qqqzzzx"},
		{"回滚", "不存在的词"},
	} {
		alone := discoverSessions(t, tool, c.word)
		if len(alone) == 0 {
			t.Fatalf("%q alone finds nothing: the demo does not test it", c.word)
		}
		for _, q := range []string{c.word + " " + c.other, c.other + " " + c.word} {
			got := discoverSessions(t, tool, q)
			if a, g := slices.Sorted(slices.Values(alone)), slices.Sorted(slices.Values(got)); !slices.Equal(a, g) {
				t.Errorf("%q finds %v; %q alone finds %v", q, got, c.word, alone)
			}
		}
	}
	// Both words: every session either word finds may answer, and the
	// first holds both.
	for _, q := range []string{"数据库 deploy", "deploy 数据库", "数据库 迁移", "库 deploy"} {
		resp := tool.Call(context.Background(), Request{Query: q, Limit: recall.MaxSessions, Fields: []string{"session_id", "matched_words"}})
		var env Discover
		if err := json.Unmarshal(resp.JSON, &env); err != nil || resp.IsError {
			t.Fatalf("%q: %v %s", q, err, resp.JSON)
		}
		if len(env.Results) < 2 || len(env.Results[0].MatchedWords) != 2 {
			t.Errorf("%q: %d sessions, the first matching %v; want the sessions of either word, one holding both first", q, len(env.Results), env.Results)
		}
	}
}
