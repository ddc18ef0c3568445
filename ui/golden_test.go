package ui

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/recall-dev/recall/recall/secrets"
	"github.com/recall-dev/recall/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestMain(m *testing.M) {
	// Pin what the terminal would decide: colours on (so styling is exercised
	// and escape checks mean something) and the time zone of timestamps.
	lipgloss.SetColorProfile(termenv.ANSI256)
	time.Local = time.UTC
	// Compile the secret rules before the first driver: settle() waits
	// only 150 ms of quiet, which a first compile on a busy machine exceeds.
	if err := secrets.Load(); err != nil {
		panic(err)
	}
	code := m.Run()
	removeTestBinary()
	os.Exit(code)
}

// golden compares got with testdata/<Test>/<sub>.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run go test ./ui -update): %v", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s (run go test ./ui -run %s -update to accept):\n--- got\n%s\n--- want\n%s",
			name, path, t.Name(), got, want)
	}
}

// stripTrailing removes trailing spaces, which goldens need not carry.
func stripTrailing(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		w, h  int
		setup func(d *driver)
	}{
		{"browse_120x30", 120, 30, func(d *driver) {}},
		{"search_120x30", 120, 30, func(d *driver) { d.typ("migration") }},
		{"cjk_stacked_80x24", 80, 24, func(d *driver) { d.typ("数据库") }},
		{"narrow_list_50x16", 50, 16, func(d *driver) {}},
		{"narrow_detail_50x16", 50, 16, func(d *driver) { d.key("tab"); d.key("tab") }},
		{"help_100x34", 100, 34, func(d *driver) { d.key("f1") }},
		{"filters_100x20", 100, 20, func(d *driver) { d.key("f2"); d.key("f3"); d.key("f3"); d.key("f4") }},
		{"summary_120x24", 120, 24, func(d *driver) { d.key("tab"); d.key("enter") }},
		// The reading pane's footer names its letters; the list's its ctrl keys.
		{"reading_pane_120x30", 120, 30, func(d *driver) { d.typ("migration"); d.settle(); d.key("tab"); d.key("tab"); d.key("n") }},
		{"list_focus_80x24", 80, 24, func(d *driver) { d.key("tab") }},
		{"help_80x24", 80, 24, func(d *driver) { d.key("f1") }},
		{"help_200x60", 200, 60, func(d *driver) { d.key("f1") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, demoBackend(), tc.w, tc.h)
			d.settle()
			tc.setup(d)
			d.settle()
			// 150 ms of quiet is no proof on a loaded machine: wait for
			// what the screen still waits for, then for quiet again.
			d.pump("nothing loading", func() bool {
				s := d.screen()
				return !strings.Contains(s, "loading…") && !strings.Contains(s, "searching…")
			})
			d.settle()
			golden(t, tc.name, stripTrailing(d.screen()))
		})
	}
	t.Run("empty_100x20", func(t *testing.T) {
		d := newDriver(t, &fakeBackend{}, 100, 20)
		d.settle()
		golden(t, "empty_100x20", stripTrailing(d.screen()))
	})
}

// sgrOnly matches the output of a frame: only SGR (colour/style) sequences
// may appear, never cursor movement, OSC, DCS or raw control characters.
var escapeSeq = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestEscapeSequencesNeutralized(t *testing.T) {
	evil := "\x1b]0;pwned title\x07\x1b[2J\x1b[H\x1b]52;c;cm0gLXJmIH4K\x07\rOVERWRITE\u202eevil\u202c\x1bP+q\x1b\\\u009b31m"
	b := demoBackend()
	b.sessions[0].Title = "Fix " + evil + " migration"
	b.sessions[0].Source = "claude-code" + evil
	b.sessions[0].Model = evil
	b.msgs["cc-1111"][0].Content = "The migration " + evil + " fails"
	b.msgs["cc-1111"][2].ToolName = "Read" + evil
	b.msgs["cc-1111"][2].Content = evil + "tool output"
	b.msgs["cc-1111"][1].ToolCalls = `[{"x":"` + evil + `"}]`
	for _, q := range []string{"", "migration"} {
		d := newDriver(t, b, 120, 30)
		d.typ(q)
		d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "cc-1111" && d.m.detail.query == q })
		for _, view := range []string{d.m.View(), func() string { d.key("tab"); d.key("tab"); d.key("t"); d.settle(); return d.m.View() }(),
			func() string { d.key("s"); d.settle(); return d.m.View() }()} {
			rest := escapeSeq.ReplaceAllString(view, "")
			for i, r := range rest {
				if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
					t.Fatalf("query %q: control %U at %d survives: %q", q, r, i, rest[max(0, i-20):min(len(rest), i+20)])
				}
			}
			if strings.Contains(ansi.Strip(view), "pwned") {
				t.Fatalf("OSC payload reached the screen")
			}
		}
	}
	// Exports are sanitised too.
	var sb strings.Builder
	if err := exportMarkdown(&sb, store.Session{ID: "x", Title: evil}, b.msgs["cc-1111"]); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(sb.String(), "\x1b\r\u202e\u009b") {
		t.Fatalf("export keeps control characters: %q", sb.String())
	}
}
