package query

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadPlain(t *testing.T) {
	now := time.Date(2026, 6, 15, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		query string
		typed bool
		ok    bool
		words []string
		date  string
	}{
		{"When did Caroline go to the LGBTQ support group?", false, true, []string{"Caroline", "go", "LGBTQ", "support", "group"}, ""},
		{"docker postgres network", false, true, []string{"docker", "postgres", "network"}, ""},
		{"what did we change in May 2023", false, true, []string{"change"}, "May 2023"},
		{"the docker fix last week", false, true, []string{"docker", "fix"}, "last week"},
		{"nginx yesterday", false, true, []string{"nginx"}, "yesterday"},
		{"may I ask about the deploy", false, true, []string{"ask", "deploy"}, ""},
		{"the who", false, true, []string{"the", "who"}, ""},
		{"docker-compose up", false, true, []string{"docker", "compose"}, ""},
		{"docker netw", true, true, []string{"docker", "netw"}, ""},
		{`"exact phrase" here`, false, false, nil, ""},
		{"deploy NOT rollback", false, false, nil, ""},
		{"deploy -rollback", false, false, nil, ""},
		{"migrat*", false, false, nil, ""},
		{"content: docker", false, false, nil, ""},
		{"nginx OR caddy", false, false, nil, ""},
		{"NEAR(a b)", false, false, nil, ""},
		{"数据库 迁移", false, true, []string{"数据库", "迁移"}, ""},
		{"数据库 deploy", false, true, []string{"数据库", "deploy"}, ""},
		{"改 the docker", false, true, []string{"改", "docker"}, ""},
		{"修改youer服务端 登录 yesterday", false, true, []string{"修改youer服务端", "登录"}, "yesterday"},
		{"数据库 OR deploy", false, false, nil, ""},
		{"デプロイ 失敗 the log", false, true, []string{"デプロイ", "失敗", "log"}, ""},
		{"배포 실패", false, true, []string{"배포", "실패"}, ""},
		{"?!", false, false, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			pq, ok := ReadPlain(c.query, []string{"content"}, c.typed, now)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			var words []string
			for _, w := range pq.Words {
				words = append(words, w.Text)
			}
			if !slices.Equal(words, c.words) {
				t.Errorf("words = %q, want %q", words, c.words)
			}
			if pq.Date.Text != c.date {
				t.Errorf("date = %q, want %q", pq.Date.Text, c.date)
			}
			if c.typed && !pq.Words[len(pq.Words)-1].Prefix {
				t.Errorf("the word being typed is not a prefix")
			}
		})
	}
}

// No term cap cuts a long question's content words (the FTS5 sanitiser
// keeps 12 terms).
func TestReadPlainKeepsLongQuestions(t *testing.T) {
	q := "what did alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa say"
	pq, ok := ReadPlain(q, []string{"content"}, false, time.Time{})
	if !ok || len(pq.Words) != 17 {
		t.Fatalf("got %d words (ok %v), want 17", len(pq.Words), ok)
	}
}

func TestInflections(t *testing.T) {
	cases := []struct {
		word      string
		want, not []string
	}{
		{"painted", []string{"painted", "paint", "paints", "painting"}, []string{"pain"}},
		{"paint", []string{"paint", "painted", "paintings"}, nil},
		{"played", []string{"play", "plays", "playing"}, nil},
		{"studying", []string{"study", "studies", "studied"}, nil},
		{"running", []string{"running", "run", "runs"}, nil},
		{"migration", []string{"migration", "migrations", "migrate", "migrated"}, nil},
		{"go", []string{"go"}, nil},
		{"k8s", []string{"k8s"}, nil},
	}
	for _, c := range cases {
		got := Inflections(c.word)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("Inflections(%q) = %q: lacks %q", c.word, got, w)
			}
		}
		for _, w := range c.not {
			if slices.Contains(got, w) {
				t.Errorf("Inflections(%q) = %q: has %q", c.word, got, w)
			}
		}
	}
}

func TestFindDate(t *testing.T) {
	now := time.Date(2026, 4, 10, 15, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		query    string
		from, to time.Time
		rest     string
	}{
		{"deploy in May 2023", day(2023, 5, 1), day(2023, 6, 1), "deploy in"},
		{"7 May 2023 support group", day(2023, 5, 6), day(2023, 5, 14), "support group"},
		{"May 7th 2023", day(2023, 5, 6), day(2023, 5, 14), ""},
		{"John August 11 15 2023", day(2023, 8, 10), day(2023, 8, 22), "John"},
		{"in May", day(2025, 5, 1), day(2025, 6, 1), "in"}, // asked in April: last May
		{"in March", day(2026, 3, 1), day(2026, 4, 1), "in"},
		{"yesterday nginx", day(2026, 4, 9), day(2026, 4, 10), "nginx"},
		{"today", day(2026, 4, 10), day(2026, 4, 11), ""},
		{"last month", day(2026, 3, 1), day(2026, 4, 1), ""},
		{"2023 taxes", day(2023, 1, 1), day(2024, 1, 1), "taxes"},
		{"we may march", time.Time{}, time.Time{}, "we may march"},
		{"port 8080", time.Time{}, time.Time{}, "port 8080"},
	}
	for _, c := range cases {
		d, rest := findDate(strings.Fields(c.query), now)
		if !d.From.Equal(c.from) || !d.To.Equal(c.to) || strings.Join(rest, " ") != c.rest {
			t.Errorf("findDate(%q) = [%v, %v) rest %q; want [%v, %v) rest %q", c.query, d.From, d.To, rest, c.from, c.to, c.rest)
		}
	}
}

func TestRelaxSyntax(t *testing.T) {
	cases := []struct {
		query, want string
		ok          bool
	}{
		{`When did Mel read "nothing is impossible"?`, `When did Mel read nothing is impossible ?`, true},
		{`migrat* AND (docker OR podman)`, `migrat and docker or podman`, true},
		{`content: docker`, `content docker`, true},
		{`deploy NOT rollback`, "", false},
		{`deploy -rollback`, "", false},
		{`"GEMINI-MD-MARKER-heron"`, "", false},
		{`setup "docker-compose" networking`, "", false},
		{`docker-compose networking`, `docker-compose networking`, true},
		{`"Charlotte's Web" author`, `Charlotte's Web author`, true},
		{`"v1.2"`, "", false},
		{`"say "GEMINI-MD" twice`, `say GEMINI-MD twice`, true},
	}
	for _, c := range cases {
		got, ok := RelaxSyntax(c.query, []string{"content"})
		if got != c.want || ok != c.ok {
			t.Errorf("relaxSyntax(%q) = %q, %v; want %q, %v", c.query, got, ok, c.want, c.ok)
		}
	}
}

func TestEdits1(t *testing.T) {
	cheap := Edits1("dokcer", true)
	if !slices.Contains(cheap, "docker") || len(cheap) > 2*len("dokcer") {
		t.Errorf("cheap edits of dokcer: %q", cheap)
	}
	full := Edits1("netwrk", false)
	if !slices.Contains(full, "network") || slices.Contains(full, "netwrk") {
		t.Errorf("full edits of netwrk lack network or hold the word itself (%d)", len(full))
	}
}
