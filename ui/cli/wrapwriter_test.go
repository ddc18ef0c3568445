package cli

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/ui/termtext"
)

// Prose written in pieces of any size (a streamed summary) comes out
// wrapped at the width, list items hung under their text; fenced code and a
// list item that is one code span pass whole; nothing is lost.
func TestWrapWriter(t *testing.T) {
	text := "Two problems were found in the build, and both are fixed in the branch that was pushed this morning.\n" +
		"- #1 of 11 (user): our docker build in CI takes 9 minutes every time, even for a one-line change.\n" +
		"- `docker run --rm -e DATABASE_URL=postgres://app:app@db:5432/ledgerly ledgerly-api:dev`\n" +
		"```bash\n" + strings.Repeat("echo long-command ", 8) + "\n```\n" +
		"> a quoted line that is long enough to need a second line at forty cells\n" +
		"数据库索引优化：给 sessions 表加一个数据库索引就好了，查询从三秒降到了二十毫秒。\n"
	for _, piece := range []int{1, 3, 7, 1000} {
		var b strings.Builder
		ww := &wrapWriter{w: &b, width: 40}
		for i := 0; i < len(text); i += piece {
			ww.Write(text[i:min(i+piece, len(text))])
		}
		ww.Flush()
		out := b.String()
		// The only cells added are a quote's bar on its continuation line.
		same := func(s string) string { return strings.ReplaceAll(strings.Join(strings.Fields(s), ""), ">", "") }
		if same(out) != same(text) {
			t.Fatalf("piece %d: text changed:\n%s", piece, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if termtext.Width(l) > 40 && !strings.Contains(l, "echo") && !strings.Contains(l, "`docker run") {
				t.Errorf("piece %d: a %d-cell line: %q", piece, termtext.Width(l), l)
			}
		}
		for _, want := range []string{"\n  CI takes 9 minutes", "\n> need", "`docker run --rm -e DATABASE_URL=postgres://app:app@db:5432/ledgerly ledgerly-api:dev`\n", strings.Repeat("echo long-command ", 8)} {
			if !strings.Contains(out, want) {
				t.Errorf("piece %d: no %q in\n%s", piece, want, out)
			}
		}
	}
}
