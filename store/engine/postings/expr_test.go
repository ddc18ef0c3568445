package postings

import (
	"testing"

	"github.com/recall-dev/recall/store/engine/analysis"
)

func TestParseFTSExpr(t *testing.T) {
	for _, tc := range []struct {
		expr    string
		ok      bool
		phrases int
	}{
		{`"docker" "network"`, true, 2},
		{`"a" OR "b" AND "c"`, true, 3},
		{`("a" OR "b") NOT "c"`, true, 3},
		{`"kube"*`, true, 1},
		{`NEAR("a" "b", 5)`, true, 2},
		{`NEAR("a")`, true, 1},
		{`NEAR("a" "b", x)`, false, 0},
		{`NEAR "a"`, false, 0},
		{`content : "a"`, true, 1},
		{`tool_name : ("a" OR "b") "c"`, true, 3},
		{`nosuch : "a"`, false, 0},
		{`^"a" "b"`, true, 2},
		{`^ "a"`, false, 0},
		{`"unterminated`, false, 0},
		{`("a"`, false, 0},
		{`"" OR "a"`, false, 0},
	} {
		tree, ok := parseFTSExpr(tc.expr, analysis.Unicode61Tokens, []string{"content", "tool_name"})
		if ok != tc.ok || (ok && len(tree.phrases) != tc.phrases) {
			t.Errorf("%s: ok %v phrases %d, want %v %d", tc.expr, ok, len(tree.phrases), tc.ok, tc.phrases)
		}
	}

}
