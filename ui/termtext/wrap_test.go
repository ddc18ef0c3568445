package termtext

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// plain joins wrapped lines without styling, markers or the indent.
func joined(lines []string, indent string) string {
	var b strings.Builder
	for i, l := range lines {
		l = ansi.Strip(l)
		if i > 0 {
			l = strings.TrimPrefix(l, indent)
		}
		b.WriteString(strings.NewReplacer(string(MarkStart), "", string(MarkEnd), "").Replace(l))
	}
	return b.String()
}

func TestWrap(t *testing.T) {
	tests := map[string]struct {
		in     string
		width  int
		indent string
		want   []string
	}{
		"fits":             {"short line", 20, "", []string{"short line"}},
		"words":            {"the quick brown fox jumps", 10, "", []string{"the quick", "brown fox", "jumps"}},
		"hanging indent":   {"• one two three four", 10, "  ", []string{"• one two", "  three", "  four"}},
		"long word split":  {"abcdefghijklmnop", 5, "", []string{"abcde", "fghij", "klmno", "p"}},
		"chinese":          {"数据库索引优化就好了", 8, "", []string{"数据库索", "引优化就", "好了"}},
		"japanese kinsoku": {"ロケールが入っていないため、こうなりがちです。", 12, "", []string{"ロケールが", "入っていない", "ため、こうな", "りがちです。"}},
		"mixed":            {"はい、Datadog Agent はコンテナ", 16, "", []string{"はい、Datadog", "Agent はコンテナ"}},
		"emoji":            {"🚀🚀🚀🚀🚀", 4, "", []string{"🚀🚀", "🚀🚀", "🚀"}},
		"combining":        {"e\u0301e\u0301e\u0301e\u0301", 2, "", []string{"e\u0301e\u0301", "e\u0301e\u0301"}},
		"quote bar":        {"│ a quoted line that wraps", 12, "│ ", []string{"│ a quoted", "│ line that", "│ wraps"}},
		"code indent":      {"    docker run --network ledgerly-net api", 20, "    ", []string{"    docker run", "    --network", "    ledgerly-net api"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := Wrap(tc.in, tc.width, tc.indent)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("Wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
			}
			for _, l := range got {
				if w := Width(l); w > tc.width {
					t.Errorf("line %q is %d cells, more than %d", l, w, tc.width)
				}
			}
		})
	}
}

func TestWrapCarriesStyleAndHighlight(t *testing.T) {
	in := "\x1b[38;5;252mplain \x1b[1mbold words " + string(MarkStart) + "hit spans lines" + string(MarkEnd) + " end\x1b[0m"
	got := Wrap(in, 10, "")
	if joined(got, "") != "plain bold wordshit spanslines end" && joined(got, "") != ansi.Strip(strings.Join(got, "")) {
		t.Logf("joined: %q", joined(got, ""))
	}
	for i, l := range got {
		if i > 0 && !strings.HasPrefix(l, "\x1b[38;5;252m\x1b[1m") {
			t.Errorf("line %d %q does not reopen the styling", i, l)
		}
		if strings.Count(l, string(MarkStart)) != strings.Count(l, string(MarkEnd)) {
			t.Errorf("line %d %q has unbalanced highlight markers", i, l)
		}
		if w := plainWidth(l); w > 10 {
			t.Errorf("line %d %q is %d cells", i, l, w)
		}
	}
}

// Nothing is lost: every character of long CJK, Korean and emoji text is in
// the wrapped lines, in order, at any width.
func TestWrapKeepsEveryCharacter(t *testing.T) {
	texts := []string{
		"本番にデプロイしたら、アプリのログの日本語が文字化けします。補足：ログ基盤（Lokiなど）側もUTF-8前提なので、これで検索も注文のような日本語キーワードで引っかかるようになります。本番への反映は通常のリリースで問題ありません。",
		"为什么数据库查询这么慢？给sessions表加一个数据库索引就好了，然后重新运行迁移脚本并检查执行计划。",
		"배포 후 로그에서 한국어가 깨지는 문제는 로케일 설정 때문입니다. 컨테이너에 LANG=C.UTF-8 을 설정하세요.",
		"🚀✨🎉 deploy done 👍🏽 family 👨‍👩‍👧 flags 🇯🇵🇰🇷",
	}
	for _, text := range texts {
		for _, width := range []int{7, 20, 33, 80} {
			got := Wrap(text, width, "")
			rejoined := strings.ReplaceAll(joined(got, ""), " ", "")
			if want := strings.ReplaceAll(text, " ", ""); rejoined != want {
				t.Errorf("width %d lost text:\n got %q\nwant %q", width, rejoined, want)
			}
			for _, l := range got {
				if Width(l) > width {
					t.Errorf("width %d: line %q is %d cells", width, l, Width(l))
				}
			}
		}
	}
}

func TestExpandTabs(t *testing.T) {
	if got := ExpandTabs("\tif x {\n\t\treturn\na\tb", 4); got != "    if x {\n        return\na   b" {
		t.Errorf("ExpandTabs = %q", got)
	}
	if got := ExpandTabs("\x1b[31m\tx", 4); got != "\x1b[31m    x" {
		t.Errorf("ExpandTabs with escapes = %q", got)
	}
}

func TestFitAndTruncate(t *testing.T) {
	if got := Fit("数据库", 5); got != "数据…" && got != "数据 " {
		t.Errorf("Fit = %q", got)
	}
	if got := Fit("ab", 4); got != "ab  " {
		t.Errorf("Fit pads: %q", got)
	}
	if w := Width("e\u0301🚀数"); w != 5 {
		t.Errorf("Width = %d, want 5", w)
	}
}
