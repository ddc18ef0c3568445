package recall

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// refTruncate is a line-by-line port of Hermes's _truncate_around_matches
// over []rune (quadratic, for small inputs): the oracle the fast version
// must equal.
func refTruncate(text, query string, maxChars int) string {
	rs := []rune(text)
	if len(rs) <= maxChars {
		return text
	}
	low := make([]rune, len(rs))
	for i, r := range rs {
		low[i] = unicode.ToLower(r)
	}
	find := func(pat string) []int {
		p := []rune(pat)
		var out []int
		for i := 0; i+len(p) <= len(low); {
			if string(low[i:i+len(p)]) == string(p) {
				out = append(out, i)
				i += len(p)
				continue
			}
			i++
		}
		return out
	}
	terms := queryWords(query)
	var pos []int
	if len(terms) > 0 {
		pos = find(strings.Join(terms, " "))
	}
	if len(pos) == 0 && len(terms) > 1 {
		tp := map[string][]int{}
		for _, t := range terms {
			tp[t] = find(t)
		}
		rarest := terms[0]
		for _, t := range terms {
			if len(tp[t]) < len(tp[rarest]) {
				rarest = t
			}
		}
		for _, p := range tp[rarest] {
			all := true
			for _, t := range terms {
				if t == rarest {
					continue
				}
				near := false
				for _, q := range tp[t] {
					if q-p < 200 && p-q < 200 {
						near = true
					}
				}
				all = all && near
			}
			if all {
				pos = append(pos, p)
			}
		}
	}
	if len(pos) == 0 {
		for _, t := range terms {
			pos = append(pos, find(t)...)
		}
	}
	if len(pos) == 0 {
		return string(rs[:maxChars]) + laterMarker
	}
	for i := 1; i < len(pos); i++ { // insertion sort: tiny inputs
		for j := i; j > 0 && pos[j] < pos[j-1]; j-- {
			pos[j], pos[j-1] = pos[j-1], pos[j]
		}
	}
	bestStart, bestCount := 0, 0
	for _, c := range pos {
		ws := max(0, c-maxChars/4)
		if ws+maxChars > len(rs) {
			ws = max(0, len(rs)-maxChars)
		}
		count := 0
		for _, p := range pos {
			if ws <= p && p < ws+maxChars {
				count++
			}
		}
		if count > bestCount {
			bestCount, bestStart = count, ws
		}
	}
	end := min(len(rs), bestStart+maxChars)
	out := string(rs[bestStart:end])
	if bestStart > 0 {
		out = earlierMarker + out
	}
	if end < len(rs) {
		out += laterMarker
	}
	return out
}

func TestTruncateAroundMatches(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("x", n) }
	cjkPad := func(n int) string { return strings.Repeat("日", n) }
	tests := map[string]struct {
		text, query string
		max         int
		want        string // exact output ("" = only check against the oracle)
		contains    []string
		absent      []string
	}{
		"under budget returned unchanged": {
			text: "short text with docker", query: "docker", max: 100,
			want: "short text with docker",
		},
		"exactly at budget in characters although longer in bytes": {
			text: strings.Repeat("é", 50), query: "zz", max: 50,
			want: strings.Repeat("é", 50),
		},
		"phrase wins over scattered terms": {
			// Terms alone near the start, the phrase far later.
			text:  "docker " + pad(300) + " network " + pad(2000) + "DOCKER NETWORK" + pad(2000),
			query: "docker network", max: 400,
			want: earlierMarker + pad(100) + "DOCKER NETWORK" + pad(286) + laterMarker,
		},
		"phrase query in FTS5 quotes still matches the phrase": {
			text:  pad(1000) + "docker network" + pad(1000),
			query: `"docker network"`, max: 200,
			want: earlierMarker + pad(50) + "docker network" + pad(136) + laterMarker,
		},
		"co-occurrence anchored on the rarest term": {
			// "alpha" is common; "omega" is rare and has alpha within 200 characters once.
			text: strings.Repeat("alpha "+pad(500)+" ", 6) + "omega " + pad(100) + " alpha" + pad(3000) +
				"omega" + pad(3000),
			query: "alpha omega", max: 400,
			contains: []string{"omega " + pad(100) + " alpha"},
		},
		"any term when nothing co-occurs": {
			text:  pad(3000) + "kafka" + pad(50) + "kafka" + pad(50) + "kafka" + pad(3000) + "zookeeper" + pad(3000),
			query: "kafka zookeeper", max: 300,
			contains: []string{"kafka" + pad(50) + "kafka" + pad(50) + "kafka"},
			absent:   []string{"zookeeper"},
		},
		"no match keeps the start": {
			text: pad(500), query: "absent", max: 100,
			want: pad(100) + laterMarker,
		},
		"empty query keeps the start": {
			text: pad(500), query: "   ", max: 100,
			want: pad(100) + laterMarker,
		},
		"window at the end is shifted back and has no later marker": {
			text: pad(1000) + "needle", query: "needle", max: 100,
			want: earlierMarker + pad(94) + "needle",
		},
		"CJK measured in characters": {
			text: cjkPad(1000) + "数据库迁移" + cjkPad(1000), query: "数据库迁移", max: 100,
			want: earlierMarker + cjkPad(25) + "数据库迁移" + cjkPad(70) + laterMarker,
		},
		"case folding that changes byte length keeps offsets": {
			// U+023A is 2 bytes, its lower case U+2C65 is 3: byte offsets drift, rune offsets must not.
			text: strings.Repeat("Ⱥ", 1000) + "NEEDLE" + pad(1000), query: "needle", max: 100,
			want: earlierMarker + strings.Repeat("Ⱥ", 25) + "NEEDLE" + pad(69) + laterMarker,
		},
		"non-ASCII case-insensitive": {
			text: pad(1000) + "ÜBERGRÖSSE" + pad(1000), query: "übergrösse", max: 100,
			want: earlierMarker + pad(25) + "ÜBERGRÖSSE" + pad(65) + laterMarker,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := truncateQuery(tc.text, tc.query, tc.max)
			if ref := refTruncate(tc.text, tc.query, tc.max); got != ref {
				t.Fatalf("differs from the Hermes reference:\n got %q\nwant %q", clipForLog(got), clipForLog(ref))
			}
			if tc.want != "" && got != tc.want {
				t.Fatalf("got %q\nwant %q", clipForLog(got), clipForLog(tc.want))
			}
			for _, s := range tc.contains {
				if !strings.Contains(got, s) {
					t.Errorf("output lacks %q", clipForLog(s))
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(got, s) {
					t.Errorf("output has %q", s)
				}
			}
			checkBudget(t, got, tc.max)
		})
	}
}

func clipForLog(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:80]) + " … " + string(r[len(r)-80:])
	}
	return s
}

// checkBudget asserts the output is valid UTF-8 and at most max characters plus markers.
func checkBudget(t *testing.T, out string, max int) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not valid UTF-8")
	}
	body := strings.TrimSuffix(strings.TrimPrefix(out, earlierMarker), laterMarker)
	if n := utf8.RuneCountInString(body); n > max {
		t.Fatalf("output body has %d characters, budget %d", n, max)
	}
}

func TestTruncateRandomAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", "A", "B", " ", "ab", "数", "据", "É", "é", "Ⱥ", "ⱥ", "\n"}
	queries := []string{"a", "ab", "a b", "b a", "数据", "é", "ⱥ", "ab ba", "\"a b\"", "a OR b"}
	for i := range 300 {
		var sb strings.Builder
		for range rng.Intn(400) {
			sb.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		text, q, max := sb.String(), queries[rng.Intn(len(queries))], 1+rng.Intn(120)
		if got, want := truncateQuery(text, q, max), refTruncate(text, q, max); got != want {
			t.Fatalf("case %d (query %q, max %d, text %q):\n got %q\nwant %q", i, q, max, text, got, want)
		}
	}
}

func FuzzTruncate(f *testing.F) {
	f.Add("hello docker network world", "docker network", 10)
	f.Add(strings.Repeat("数据库", 100)+"迁移", "迁移", 7)
	f.Add(strings.Repeat("Ⱥb", 50), "ⱥB", 3)
	f.Add("\xff\xfe invalid bytes docker", "docker", 5)
	f.Fuzz(func(t *testing.T, text, query string, max int) {
		if max <= 0 || max > 1<<16 {
			max = 1 + (max&0xffff+0xffff)%4096
		}
		out := truncateQuery(text, query, max)
		checkBudget(t, out, max)
		if utf8.ValidString(text) && len(text) < 1024 {
			if want := refTruncate(text, query, max); out != want {
				t.Fatalf("differs from the reference:\n got %q\nwant %q", out, want)
			}
		}
	})
}

func TestFoldRuneCaseless(t *testing.T) {
	// foldRune skips unicode.ToLower for these ranges; they must have no case.
	for _, rg := range [][2]rune{{0x2E80, 0xA640}, {0xAC00, 0xD800}} {
		for r := rg[0]; r < rg[1]; r++ {
			if unicode.ToLower(r) != r {
				t.Fatalf("U+%04X has a lower case; foldRune's fast path is wrong", r)
			}
		}
	}
}

func TestUpperASCII8(t *testing.T) {
	for c := 0; c < 128; c++ {
		w := uint64(c) * 0x0101010101010101
		want := byte(unicode.ToLower(rune(c)))
		if got := byte((w | upperASCII8(w)>>2) >> 24); got != want {
			t.Fatalf("upperASCII8 lower-cases %q to = %q, want %q", rune(c), got, want)
		}
	}
}

// benchTranscript builds a ~10 MB transcript-like text: English, some CJK
// and accented text, code, and the query terms scattered and in phrases.
func benchTranscript(size int) string {
	rng := rand.New(rand.NewSource(7))
	lines := []string{
		"#%d [USER]: how do I fix the Docker network timeout on the staging host?",
		"#%d [ASSISTANT]: Let me check the compose file and the bridge configuration first.",
		"#%d [TOOL:terminal]: $ docker network ls\nNETWORK ID     NAME      DRIVER    SCOPE\n3f2a1b   bridge    bridge    local",
		"#%d [ASSISTANT]: 数据库迁移已经完成，服务器在凌晨重启。Résumé of the change: café, naïve, Übergröße.",
		"#%d [USER]: great, now run the migrations and tell me what failed",
		"#%d [TOOL:read_file]: func main() {\n\tfmt.Println(\"hello\")\n}\n// network retries: 3",
	}
	var b strings.Builder
	b.Grow(size + 256)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, lines[rng.Intn(len(lines))], i)
		b.WriteString("\n\n")
	}
	return b.String()
}

func BenchmarkTruncate10MB(b *testing.B) {
	text := benchTranscript(10 << 20)
	for _, q := range []string{"docker network timeout", "migrations failed", "数据库迁移", "absent-term"} {
		b.Run(q, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = truncateQuery(text, q, DefaultBudget)
			}
		})
	}
}

func TestRuneCount(t *testing.T) {
	for _, s := range []string{"", "a", "abcdefgh", "abcdefghi", "数据库迁移 and more text", "éééééééééé", "Ⱥ😀x😀yyyyyyyyyyyyyyy"} {
		if got, want := runeCount([]byte(s)), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestFoldText(t *testing.T) {
	for _, s := range []string{"", "ABC", "Hello WORLD, ÀÉÎÕÜ × ß Þ", "ȺȺȺ abc DEF", "数据库ABC迁移", "K KELVIN", strings.Repeat("Ab数Ⱥé", 700), "\xffAB"} {
		f, _ := foldText(s)
		want := strings.Map(unicode.ToLower, s)
		if s == "\xffAB" {
			want = "\xffab"
		}
		if string(f.low) != want {
			t.Errorf("foldText(%q) = %q, want %q", clipForLog(s), clipForLog(string(f.low)), clipForLog(want))
		}
		if f.runes != utf8.RuneCountInString(s) {
			t.Errorf("foldText(%q) counted %d runes, want %d", clipForLog(s), f.runes, utf8.RuneCountInString(s))
		}
	}
}

func TestFoldGrowsAtTheEnd(t *testing.T) {
	// Lower-casing U+023A grows it from 2 to 3 bytes; at the very end of the
	// text there is no slack left in the copy.
	for n := 0; n < 40; n++ {
		s := strings.Repeat("a", n) + "ȺȺ"
		f, _ := foldText(s)
		if want := strings.ToLower(s); string(f.low) != want {
			t.Fatalf("n=%d: %q, want %q", n, f.low, want)
		}
	}
	s := strings.Repeat("x", 8192-2) + "Ⱥ" // a page-sized copy with no spare capacity
	if f, _ := foldText(s); string(f.low) != strings.ToLower(s) {
		t.Fatal("page-sized text folded wrong")
	}
}

// truncateAroundMatches is what Summarize does to a transcript: Hermes's
// _truncate_around_matches, whose line-by-line port refTruncate is the oracle.
func truncateAroundMatches(text string, q store.Query, maxChars int) string {
	return matchWindow(text, windowTerms(q), maxChars).render()
}

// truncateQuery truncates around the matches of a query string, parsed
// by the store as a search would parse it.
func truncateQuery(text, query string, maxChars int) string {
	return truncateAroundMatches(text, store.ParseQuery(query), maxChars)
}

// queryWords are the window terms of a query string.
func queryWords(query string) []string { return windowTerms(store.ParseQuery(query)) }

// TestWindowTerms: the transcript window looks for the words the store's
// parse says a match contains, not for what a second lexer guessed: an
// excluded word, a column name or a NEAR distance is never one of them.
func TestWindowTerms(t *testing.T) {
	tests := map[string][]string{
		"docker network":             {"docker", "network"},
		`"Docker Network"`:           {"docker", "network"},
		"deploy OR rollback":         {"deploy", "rollback"},
		"deploy NOT rollback":        {"deploy"},
		"deploy -docker":             {"deploy"},
		"deploy -(docker OR podman)": {"deploy"},
		"deploy*":                    {"deploy"},
		"NEAR(deploy production, 5)": {"deploy", "production"},
		"c++ NEAR(a b, 3)":           {"c++", "a", "b"},
		"content:docker":             {"docker"},
		"docker docker DOCKER":       {"docker"},
		"数据库 迁移":                     {"数据库", "迁移"},
		"  ":                         nil,
		"c++ and or":                 {"c++", "and", "or"},
		"chat-send":                  {"chat-send"},
	}
	for q, want := range tests {
		if got := queryWords(q); !slices.Equal(got, want) {
			t.Errorf("queryWords(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestTruncateCentresOnPositiveTerms: for `deploy -docker` the window is
// centred on deploy, never on the excluded word: the old lexer kept
// "-docker" (and "docker" of NOT docker) as terms, so a transcript that
// mentions app-docker twenty times was cut around those mentions.
func TestTruncateCentresOnPositiveTerms(t *testing.T) {
	pad := strings.Repeat("x", 2000)
	text := strings.Repeat("restart app-docker now ", 20) + pad + " deploy " + pad
	for _, q := range []string{"deploy -docker", "deploy NOT docker", "deploy NOT (docker OR podman)"} {
		got := truncateQuery(text, q, 200)
		if !strings.Contains(got, "deploy") || strings.Contains(got, "docker") {
			t.Errorf("window for %q = %q, want one around deploy", q, clipForLog(got))
		}
	}
}

func TestRuneCursorOnLargeMixedText(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	parts := []string{"plain ascii words ", "数据库", "Ⱥ", "é", "\n", strings.Repeat("x", 1500), "😀"}
	var sb strings.Builder
	for sb.Len() < 300_000 {
		sb.WriteString(parts[rng.Intn(len(parts))])
	}
	f, _ := foldText(sb.String())
	var pos []int
	for p := 0; p < len(f.low); p += 1 + rng.Intn(3000) {
		for p < len(f.low) && !utf8.RuneStart(f.low[p]) {
			p++
		}
		pos = append(pos, p)
	}
	want := make([]int, len(pos))
	for i, p := range pos {
		want[i] = utf8.RuneCount(f.low[:p])
	}
	cur := runeCursor{f: f}
	got := make([]int, len(pos))
	for i, p := range pos {
		got[i] = cur.runeOf(p)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("position %d (byte %d): rune %d, want %d", i, pos[i], got[i], want[i])
		}
		if b := f.byteOfRune(got[i]); utf8.RuneCountInString(f.orig[:b]) != got[i] {
			t.Fatalf("byteOfRune(%d) = %d, which is rune %d", got[i], b, utf8.RuneCountInString(f.orig[:b]))
		}
	}
}

func TestFoldParallel(t *testing.T) {
	base := strings.Repeat("Mixed TEXT with 数据库 and ÉTÉ café; ", 5<<20/40) // ~5 MB: folded in chunks
	tests := map[string]string{
		"in place":                  base,
		"a length-changing rune":    base + "Ⱥ tail",
		"one in the middle":         base[:len(base)/2+1] + "Ⱥ" + base[len(base)/2+1:],
		"invalid byte":              base + "\xff",
		"multi-byte rune at a seam": strings.Repeat("数", 5<<20/3),
	}
	for name, s := range tests {
		t.Run(name, func(t *testing.T) {
			f, invalid := foldText(s)
			defer f.release()
			want := strings.ToLower(s)
			if invalid != !utf8.ValidString(s) {
				t.Fatalf("invalid = %v", invalid)
			}
			if !invalid && string(f.low) != want {
				t.Fatal("folded text differs from strings.ToLower")
			}
			if f.runes != utf8.RuneCountInString(s) {
				t.Fatalf("runes %d, want %d", f.runes, utf8.RuneCountInString(s))
			}
			prev := checkpoint{}
			for i, cp := range f.cps {
				if i > 0 && (cp.orig <= prev.orig || cp.orig-prev.orig > checkpointEvery+utf8.UTFMax) {
					t.Fatalf("checkpoint %d at %d after %d", i, cp.orig, prev.orig)
				}
				if got := prev.rune + utf8.RuneCountInString(s[prev.orig:cp.orig]); got != cp.rune {
					t.Fatalf("checkpoint %d: rune %d, want %d", i, cp.rune, got)
				}
				if seg := strings.ToLower(s[prev.orig:cp.orig]); !invalid && string(f.low[prev.low:cp.low]) != seg {
					t.Fatalf("checkpoint %d: low offset %d does not match orig %d", i, cp.low, cp.orig)
				}
				prev = cp
			}
		})
	}
}

func TestOccurrencesParallelMatchesSerial(t *testing.T) {
	mixed := benchTranscript(6 << 20)
	tests := map[string]struct {
		text string
		pats []string
	}{
		"self-overlapping pattern across the seams": {strings.Repeat("a", 6<<20+1), []string{"aa", "aaa"}},
		"odd run lengths": {strings.Repeat("aab", 3<<20), []string{"aba", "ab"}},
		"mixed text":      {mixed, []string{"docker", "数据库迁移", "network timeout", "zzz"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, _ := foldText(tc.text)
			defer f.release()
			got := occurrences(f, tc.pats)
			ps := make([][]byte, len(tc.pats))
			anchors := make([]int, len(tc.pats))
			for i, p := range tc.pats {
				ps[i] = []byte(p)
				anchors[i] = f.rarestByte(ps[i])
			}
			want := f.occurrencesIn(ps, anchors, make([]int, len(ps)), len(f.low))
			for i := range tc.pats {
				if !slices.Equal(got[i].bytes, want[i].bytes) || !slices.Equal(got[i].runes, want[i].runes) {
					t.Fatalf("%q: parallel found %d matches, serial %d", tc.pats[i], len(got[i].bytes), len(want[i].bytes))
				}
			}
		})
	}
}
