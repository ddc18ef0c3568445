package ui

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// Long messages in Chinese, Japanese, Korean and emoji, without markdown,
// so that every character of the source must be on screen.
var wideTexts = []string{
	"本番にデプロイしたら、アプリのログの日本語が文字化けします。補足：ログ基盤（Lokiなど）側もUTF-8前提なので、これで検索も注文のような日本語キーワードで引っかかるようになります。本番への反映は通常のリリース手順で問題ありません。ただし、過去に???として出力されたログは元の文字が失われているため、復元できません。",
	"为什么数据库查询这么慢？给sessions表加一个数据库索引就好了，然后重新运行迁移脚本并检查执行计划，确认查询走了新的索引而不是全表扫描。如果还是慢，就看一下连接池的配置和慢查询日志。",
	"배포 후 로그에서 한국어가 깨지는 문제는 컨테이너의 로케일 설정 때문입니다. 컨테이너에 LANG=C.UTF-8 을 설정하고 다시 배포하면 로그가 정상적으로 출력됩니다. 기존 로그는 복구할 수 없습니다.",
	"🚀✨🎉 deploy done 👍🏽 then the family 👨‍👩‍👧 flew home with flags 🇯🇵🇰🇷🇨🇳 and a long tail of party poppers 🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊🎊 to make it wrap",
}

func wideBackend() *fakeBackend {
	b := &fakeBackend{msgs: map[string][]store.Message{}, summary: "ok"}
	b.sessions = []store.SessionSummary{{Session: store.Session{ID: "w-1", Source: "gemini-cli", Title: "デプロイ後にログの日本語が文字化けする",
		StartedAt: testNow}, LastActive: testNow}}
	for i, text := range wideTexts {
		role := []string{"user", "assistant"}[i%2]
		b.msgs["w-1"] = append(b.msgs["w-1"], store.Message{ID: int64(i + 1), SessionID: "w-1", Role: role, Content: text, Timestamp: testNow})
	}
	return b
}

// screenOfDetail scrolls the detail pane through the whole transcript and
// returns every line it showed, in order, without styling.
func screenOfDetail(d *driver) string {
	v := &d.m.detail.view
	seen := map[int]string{}
	for off := 0; ; off += v.height {
		v.offset = off
		v.clamp()
		lines := d.m.detailLines()[1:] // below the header
		for i, l := range lines {
			seen[v.offset+i] = ansi.Strip(l)
		}
		if v.offset+v.height >= len(v.lines) {
			break
		}
	}
	var b strings.Builder
	for i := 0; i < len(seen); i++ {
		b.WriteString(seen[i])
		b.WriteByte('\n')
	}
	return b.String()
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// Wide text wraps, it is never cut: every character of every message is on
// screen, in order, at 80, 120 and 200 columns.
func TestWideTextWrapsNeverCut(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDriver(t, wideBackend(), size[0], size[1])
			d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "w-1" })
			d.key("tab")
			d.key("tab")
			screen := noSpace(screenOfDetail(d))
			for _, text := range wideTexts {
				if !strings.Contains(screen, noSpace(text)) {
					t.Errorf("not all of %.30q… is on screen:\n%s", text, screenOfDetail(d))
				}
			}
			for _, l := range strings.Split(d.m.View(), "\n") {
				if w := termtext.Width(l); w != size[0] {
					t.Fatalf("a line is %d cells wide at %d columns: %q", w, size[0], ansi.Strip(l))
				}
			}
		})
	}
}

// firstWord is the first space-separated word of a plain line.
func firstWord(l string) string {
	if f := strings.Fields(l); len(f) > 0 {
		return f[0]
	}
	return ""
}

// Markdown is wrapped once, at the pane's width: a wrapped line is as full
// as the next line's first word allows (a second wrap would leave short
// lines), a quote keeps its bar on every line, a code line its indentation.
func TestMarkdownWrapsOnceAtTheWidth(t *testing.T) {
	md := newMarkdown(nil, false)
	para := "Same pattern: redis was started by hand on the default bridge, while everything else is on the app_default network of compose. " +
		"We created a user-defined network with docker network create ledgerly-net and attached both containers with --network ledgerly-net, " +
		"then made the dev-up script do it idempotently so it is recreated on the right network next time."
	quote := "> " + para + "\n> 第二行：ログ基盤（Lokiなど）側もUTF-8前提なので、これで検索も注文のような日本語キーワードで引っかかるようになります。"
	code := "```sh\n    docker run --rm --network ledgerly-net -e DATABASE_URL=postgres://app:app@db:5432/ledgerly ledgerly-api:dev --verbose --retries 5\n```"
	for _, w := range []int{40, 60, 80, 118} {
		lines := md.RenderLines(para, w)
		for i, l := range lines {
			plain := ansi.Strip(l)
			if termtext.Width(plain) > w {
				t.Errorf("width %d: line %q is wider", w, plain)
			}
			if i+1 < len(lines) {
				next := firstWord(ansi.Strip(lines[i+1]))
				if termtext.Width(strings.TrimRight(plain, " "))+1+termtext.Width(next) <= w {
					t.Errorf("width %d: line %d %q was broken early: %q fits after it", w, i, plain, next)
				}
			}
		}
		for _, l := range md.RenderLines(quote, w) {
			if plain := ansi.Strip(l); strings.TrimSpace(plain) != "" && !strings.HasPrefix(strings.TrimLeft(plain, " "), "│") {
				t.Errorf("width %d: quote line without its bar: %q", w, plain)
			}
		}
		cl := md.RenderLines(code, w)
		var joined strings.Builder
		for i, l := range cl {
			plain := ansi.Strip(l)
			if i > 0 && !strings.HasPrefix(plain, "     ") {
				t.Errorf("width %d: code continuation lost its indentation: %q", w, plain)
			}
			joined.WriteString(strings.TrimSpace(plain) + " ")
		}
		if !strings.Contains(joined.String(), "--retries 5") || !strings.Contains(noSpace(joined.String()), "DATABASE_URL=postgres://app:app@db:5432/ledgerly") {
			t.Errorf("width %d: code text lost: %q", w, joined.String())
		}
	}
}

// sgrPrefixRE finds the opening SGR of a style in a rendered line.
func hasStyle(line, sgr string) bool { return sgr != "" && strings.Contains(line, sgr) }

// manyHitsBackend is one session whose hits are spread over many messages,
// with tool calls in between.
func manyHitsBackend() *fakeBackend {
	b := &fakeBackend{msgs: map[string][]store.Message{}, summary: "ok"}
	b.sessions = []store.SessionSummary{{Session: store.Session{ID: "n-1", Source: "claude-code", Title: "docker networks", StartedAt: testNow}, LastActive: testNow}}
	var msgs []store.Message
	for i := range 12 {
		m := store.Message{ID: int64(i + 1), SessionID: "n-1", Role: []string{"user", "assistant"}[i%2], Timestamp: testNow,
			Content: fmt.Sprintf("Step %d: some words to fill the pane before the point.\n\n%s", i, strings.Repeat("Filler line without the term.\n\n", 4))}
		if i%3 == 1 {
			m.Content += "The docker network was the answer here.\n\nCheck the docker network again."
			m.ToolCalls = `[{"id":"toolu_1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"docker network ls\",\"description\":\"List the networks\"}"}}]`
		}
		msgs = append(msgs, m)
	}
	b.msgs["n-1"] = msgs
	return b
}

// The hit count of the list is the detail pane's; the current hit has its
// own style, distinct from the other hits, in colour and in NO_COLOR.
func TestHitCountsAgreeAndCurrentStandsOut(t *testing.T) {
	for _, mono := range []bool{false, true} {
		t.Run(fmt.Sprintf("mono=%v", mono), func(t *testing.T) {
			d := newDriverWith(t, manyHitsBackend(), 120, 40, Options{NoColor: mono})
			d.typ("docker network")
			d.pump("transcript", func() bool {
				return d.m.finalSeq == d.m.seq && d.m.detail.doc.session.ID == "n-1" && d.m.detail.query == "docker network"
			})
			it, _ := d.m.list.Selected()
			if !strings.Contains(d.screen(), fmt.Sprintf("%d hits", it.Hits)) {
				t.Fatalf("list does not say %d hits:\n%s", it.Hits, d.screen())
			}
			d.key("tab")
			d.key("tab")
			d.key("n")
			if want := fmt.Sprintf("hit 2 of %d", it.Hits); d.m.status.msg != want {
				t.Errorf("status %q, want %q (the list says %d hits)", d.m.status.msg, want, it.Hits)
			}
			p := newHitPaint(d.m.styles)
			if p.on == p.current {
				t.Fatal("the current hit is styled like the others")
			}
			cur, other := 0, 0
			for _, l := range d.m.detail.doc.lines {
				switch {
				case hasStyle(l, p.current):
					cur++
				case hasStyle(l, p.on):
					other++
				}
			}
			if cur == 0 || other == 0 {
				t.Errorf("lines with the current hit: %d, with other hits: %d; want both", cur, other)
			}
			// The list's snippet uses the same hit style as the transcript.
			if list := d.m.list.View(); !strings.Contains(list, p.on) && !strings.Contains(list, sgrOf(d.m.styles.Hit)) {
				t.Errorf("list snippet not in the hit style %q", p.on)
			}
		})
	}
}

// t shows the raw tool calls where the reader was, pretty-printed with
// their strings decoded once, and keeps the current hit.
func TestToolViewKeepsPositionAndPrettyPrints(t *testing.T) {
	d := newDriver(t, manyHitsBackend(), 120, 30)
	d.typ("docker network")
	d.pump("transcript", func() bool { return d.m.finalSeq == d.m.seq && d.m.detail.doc.session.ID == "n-1" })
	d.key("tab")
	d.key("tab")
	d.key("n")
	d.key("n")
	hit := d.m.detail.hit
	topMsg := d.m.detail.doc.msgIDs[d.m.detail.doc.messageAt(d.m.detail.view.offset)]
	d.key("t")
	d.pump("expanded", func() bool { return d.m.detail.doc.expanded && !d.m.detail.loading })
	if d.m.detail.hit != hit {
		t.Errorf("t moved the current hit from %d to %d", hit, d.m.detail.hit)
	}
	if got := d.m.detail.doc.msgIDs[d.m.detail.doc.messageAt(d.m.detail.view.offset)]; got != topMsg {
		t.Errorf("t moved the reading position from message %d to %d", topMsg, got)
	}
	doc := ansi.Strip(strings.Join(d.m.detail.doc.lines, "\n"))
	if strings.Contains(doc, `\"`) || !strings.Contains(doc, `"description": "List the networks"`) {
		t.Errorf("tool arguments not pretty-printed:\n%s", doc)
	}
}

// A status message keeps its point at 80 columns: the whole message is on
// screen (wrapped above the status line when it must).
func TestStatusMessageKeepsItsPoint(t *testing.T) {
	d := newDriver(t, demoBackend(), 80, 24)
	d.pump("browse", func() bool { return len(d.m.list.items) == 4 })
	msg := `resume claude-code session: "claude" is not installed (agent not available); run: claude --resume 3f2a9c1e-docker-dns`
	d.send(statusMsg{text: msg, err: true})
	lines := strings.Split(d.screen(), "\n")
	if len(lines) != 24 {
		t.Fatalf("screen is %d lines, want 24", len(lines))
	}
	var bottom strings.Builder
	for _, l := range lines[len(lines)-maxStatusLines:] {
		bottom.WriteString(strings.TrimSpace(l) + " ")
	}
	if !strings.Contains(bottom.String(), "run: claude --resume 3f2a9c1e-docker-dns") {
		t.Errorf("status lost its point:\n%s", strings.Join(lines[len(lines)-maxStatusLines:], "\n"))
	}
}

// The focused pane's title bar is highlighted: the list's, then the
// detail's; the other one is not.
func TestFocusIsVisible(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 30)
	d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" })
	focused := sgrOf(d.m.styles.List.FocusedHeader)
	listHeader := func() string { return strings.Split(d.m.list.View(), "\n")[0] }
	detailHeader := func() string { return d.m.detailLines()[0] }
	if strings.Contains(listHeader(), focused) || strings.Contains(detailHeader(), sgrOf(d.m.styles.Detail.FocusedHeader)) {
		t.Fatal("a pane looks focused while the search box has focus")
	}
	d.key("tab")
	if !strings.Contains(listHeader(), focused) {
		t.Errorf("list focused, its header is not highlighted: %q", listHeader())
	}
	d.key("tab")
	if strings.Contains(listHeader(), focused) || !strings.Contains(detailHeader(), sgrOf(d.m.styles.Detail.FocusedHeader)) {
		t.Errorf("detail focused: list header %q, detail header %q", listHeader(), detailHeader())
	}
}

// The help's query syntax table lines up, whatever the width of the
// example (a long NEAR(...), CJK).
func TestHelpColumnsLineUp(t *testing.T) {
	d := newDriver(t, demoBackend(), 120, 40)
	d.key("f1")
	col := -1
	for _, l := range strings.Split(ansi.Strip(d.m.helpView(d.m.helpInnerW())), "\n") {
		for _, r := range syntaxRows {
			if strings.HasPrefix(l, "  "+r[0]) {
				i := strings.Index(l, r[1])
				if i < 0 {
					t.Fatalf("row %q lost its meaning: %q", r[0], l)
				}
				at := termtext.Width(l[:i])
				if col >= 0 && at != col {
					t.Errorf("row %q: meaning at cell %d, others at %d", r[0], at, col)
				}
				col = at
			}
		}
	}
	if col < 0 {
		t.Fatal("no syntax rows in the help")
	}
}

// / searches the open transcript; n moves between its matches; the header
// says where; esc goes back to the query's hits.
func TestFindInTranscript(t *testing.T) {
	d := newDriver(t, manyHitsBackend(), 120, 30)
	d.typ("docker")
	d.pump("transcript", func() bool { return d.m.finalSeq == d.m.seq && d.m.detail.doc.session.ID == "n-1" })
	d.key("tab")
	d.key("tab")
	d.key("/")
	if !strings.Contains(ansi.Strip(d.m.detailLines()[0]), "/") {
		t.Fatalf("no search prompt in the header: %q", ansi.Strip(d.m.detailLines()[0]))
	}
	d.typ("filler")
	d.key("enter")
	d.pump("find render", func() bool { return d.m.detail.doc.find == "filler" && !d.m.detail.loading })
	if n := len(d.m.detail.targets); n != 12*4 {
		t.Errorf("%d matches of filler, want 48 (4 lines in each of 12 messages)", n)
	}
	first := d.m.detail.hit
	d.key("n")
	if d.m.detail.hit != first+1 || !strings.Contains(d.m.status.msg, "match") {
		t.Errorf("n: hit %d → %d, status %q", first, d.m.detail.hit, d.m.status.msg)
	}
	if h := ansi.Strip(d.m.detailLines()[0]); !strings.Contains(h, "/filler") {
		t.Errorf("header does not show the search: %q", h)
	}
	d.key("esc")
	d.pump("query hits again", func() bool { return d.m.detail.doc.find == "" && !d.m.detail.loading })
	if d.m.Focus() != "detail" || len(d.m.detail.targets) != 4 {
		t.Errorf("after esc: focus %s, %d targets (want the query's 4 hits)", d.m.Focus(), len(d.m.detail.targets))
	}
}

// o opens less at the current hit: +/ searches the query's terms first (so
// less highlights them), then +<line>g lands on the hit message's first
// line showing one, in the rendered transcript; the file is rendered
// (styled headings, no raw markdown), with -R.
func TestPagerOpensAtTheCurrentHit(t *testing.T) {
	t.Setenv("PAGER", "less")
	d := newDriver(t, manyHitsBackend(), 120, 30)
	d.typ("docker")
	d.pump("transcript", func() bool { return d.m.finalSeq == d.m.seq && d.m.detail.doc.session.ID == "n-1" })
	d.key("tab")
	d.key("tab")
	d.key("n") // the second hit: message 5
	msg, ok := d.m.pager()().(execRequestMsg)
	if !ok {
		t.Skip("less is not installed")
	}
	defer msg.cleanup()
	args := msg.cmd.Args
	file := args[len(args)-1]
	var line int
	var pattern string
	for _, a := range args {
		fmt.Sscanf(a, "+%dg", &line)
		if strings.HasPrefix(a, "+/") {
			pattern = a
		}
	}
	if !slices.Contains(args, "-R") || !strings.Contains(string(b0(file)), "\x1b[") {
		t.Errorf("the pager is not given the rendered transcript with -R: %q", args)
	}
	if pattern != "+/docker" || slices.Index(args, pattern) > slices.IndexFunc(args, func(a string) bool { return strings.HasSuffix(a, "g") && strings.HasPrefix(a, "+") }) {
		t.Errorf("search argument %q, want +/docker before the jump: %q", pattern, args)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(ansi.Strip(string(b)), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " ") // the test style has a margin
	}
	if line < 1 || line > len(lines) || !strings.Contains(strings.ToLower(lines[line-1]), "docker") {
		t.Fatalf("+%dg is not a line of the hit: %q\n%q", line, lines[max(0, min(line-1, len(lines)-1))], lines[:min(30, len(lines))])
	}
	// The line is in the current hit's message: the fifth.
	if n := strings.Count(strings.Join(lines[:line], "\n"), "\n## "); n != 5 {
		t.Errorf("+%dg is in message %d, want 5", line, n)
	}
}

// b0 reads a file, "" on error.
func b0(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// At 80x24 the list shows a page of one-line rows and the position "3/N";
// at 120x40 the full three-line rows.
func TestListCounterAndCompactRows(t *testing.T) {
	b := bigBackend()
	d := newDriver(t, b, 80, 24)
	d.pump("browse", func() bool { return len(d.m.list.items) > 0 })
	list := strings.Split(ansi.Strip(d.m.list.View()), "\n")
	if !strings.Contains(list[0], fmt.Sprintf("1/%d", len(d.m.list.items))) {
		t.Errorf("no position in the list header: %q", list[0])
	}
	if d.m.list.rowHeight() != 1 || d.m.list.Page() < 4 {
		t.Errorf("80x24: rows of %d lines, %d visible; want one-line rows, 4 or more", d.m.list.rowHeight(), d.m.list.Page())
	}
	rows := 0
	for _, l := range list[1:] {
		if strings.Contains(l, "会话") {
			rows++
		}
	}
	if rows < 4 {
		t.Errorf("only %d sessions visible at 80x24:\n%s", rows, strings.Join(list, "\n"))
	}
	d.key("tab")
	d.key("down")
	d.key("down")
	if h := ansi.Strip(strings.Split(d.m.list.View(), "\n")[0]); !strings.Contains(h, fmt.Sprintf("3/%d", len(d.m.list.items))) {
		t.Errorf("after two downs the header says %q", h)
	}
	d.send(resizeMsg(120, 40))
	if d.m.list.rowHeight() != itemHeight {
		t.Errorf("120x40: rows of %d lines, want %d", d.m.list.rowHeight(), itemHeight)
	}
}

// The detail header says how far down the transcript the pane is.
func TestScrollPercentage(t *testing.T) {
	d := newDriver(t, bigBackend(), 120, 30)
	d.pump("transcript", func() bool { return len(d.m.detail.doc.lines) > 0 })
	d.key("tab")
	d.key("tab")
	d.key("g")
	pct := regexp.MustCompile(`(\d+)% $`)
	top := pct.FindStringSubmatch(ansi.Strip(d.m.detailLines()[0]))
	d.key("G")
	bottom := pct.FindStringSubmatch(ansi.Strip(d.m.detailLines()[0]))
	if top == nil || bottom == nil || top[1] == "100" || bottom[1] != "100" {
		t.Errorf("percentages top %v, bottom %v; header %q", top, bottom, ansi.Strip(d.m.detailLines()[0]))
	}
}

func resizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
