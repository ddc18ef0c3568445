package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/recall-dev/recall/ui/termtext"
)

// demoDBOnce is the embedded demo history imported once for this package's
// text layout tests (they only read it).
var demoDBOnce struct {
	sync.Once
	path string
	err  string
}

// demoDB returns a database holding the demo history (assets/demo).
func demoDB(t *testing.T) string {
	t.Helper()
	demoDBOnce.Do(func() {
		dir, err := os.MkdirTemp("", "recall-cli-demo-")
		if err != nil {
			demoDBOnce.err = err.Error()
			return
		}
		afterTests = append(afterTests, func() { os.RemoveAll(dir) })
		files, _ := filepath.Glob(filepath.Join("..", "..", "assets", "demo", "*.jsonl"))
		demoDBOnce.path = filepath.Join(dir, "demo.db")
		code, _, errOut := runCLI(t, false, append([]string{"--db", demoDBOnce.path, "import", "jsonl"}, files...)...)
		if code != 0 {
			demoDBOnce.err = errOut
		}
	})
	if demoDBOnce.err != "" {
		t.Fatalf("import the demo: %s", demoDBOnce.err)
	}
	return demoDBOnce.path
}

// recall show prints a tool call's arguments decoded, one per line, never
// the stored JSON with its escaped quotes (issue 32: `\"$NET\"`).
func TestShowDecodesToolCalls(t *testing.T) {
	code, out, errOut := runCLI(t, false, "--db", demoDB(t), "show", "3f2a9c1e-docker-dns")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"  ⚙ Edit\n", "      file_path: /home/dev/src/ledgerly/scripts/dev-up.sh\n", `docker network inspect "$NET"`} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q", want)
		}
	}
	if strings.Contains(out, `\"`) || strings.Contains(out, `"arguments"`) {
		t.Errorf("show prints stored JSON:\n%s", out)
	}
}

// show --json and export --format json are one shape: {session, messages}
// (show keeps the session's fields at the top level too, for older readers).
func TestShowAndExportJSONShareAShape(t *testing.T) {
	db := demoDB(t)
	_, shown, _ := runCLI(t, false, "--db", db, "show", "--json", "3f2a9c1e-docker-dns")
	_, exported, _ := runCLI(t, false, "--db", db, "export", "--format", "json", "3f2a9c1e-docker-dns")
	type doc struct {
		Session  map[string]any   `json:"session"`
		Messages []map[string]any `json:"messages"`
	}
	s, e := decodeJSON[doc](t, shown), decodeJSON[doc](t, exported)
	if len(s.Session) == 0 || !reflect.DeepEqual(s.Session, e.Session) || !reflect.DeepEqual(s.Messages, e.Messages) {
		t.Fatalf("show --json and export --format json differ:\nshow %v\nexport %v", s.Session, e.Session)
	}
	flat := decodeJSON[map[string]any](t, shown)
	if flat["session_id"] != "3f2a9c1e-docker-dns" {
		t.Errorf("show --json lost its top-level session_id: %v", flat["session_id"])
	}
}

// Text output fits the terminal and keeps what a person acts on (issue 32):
// recent rows fit 80 columns with (short) ids whole; search cuts no session id
// and no highlight marker; messages shows the window around its hit, with
// a role column as wide as the widest role; a blank model is left out of
// show's header; search takes --limit; recent --source says when that
// source has no session.
func TestTextOutputFits(t *testing.T) {
	db := demoDB(t)
	t.Setenv("COLUMNS", "80")
	_, out, _ := runCLI(t, false, "--db", db, "recent", "--limit", "40")
	_, ids, _ := runCLI(t, false, "--db", db, "recent", "--limit", "40", "--json")
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if w := termtext.Width(l); w > 80 {
			t.Errorf("recent at 80 columns: a %d-cell row: %q", w, l)
		}
	}
	// Sessions are shown by their short ids (the shortest unique prefix),
	// which show takes back.
	shortOf := map[string]string{}
	for _, r := range decodeJSON[[]map[string]any](t, ids) {
		id, short := r["session_id"].(string), r["short_id"].(string)
		shortOf[id] = short
		if !strings.HasPrefix(id, short) || !strings.Contains(out, short+"\n") {
			t.Errorf("recent at 80 columns lost id %s (short id %q)", id, short)
		}
	}
	for _, cols := range []string{"60", "80", "100"} {
		t.Setenv("COLUMNS", cols)
		_, out, _ = runCLI(t, false, "--db", db, "search", "--no-summary", "--limit", "5", "docker", "network")
		for _, id := range []string{"3f2a9c1e-docker-dns", "4c8e7a13-docker-dns-again", "d4a6c1e8-gha-docker-cache"} {
			if id = shortOf[id]; id == "" || !strings.Contains(out, "session "+id+"\n") && !strings.Contains(out, "session "+id+" ") {
				t.Errorf("search at %s columns cut session id %s:\n%s", cols, id, out)
			}
		}
		_, out, _ = runCLI(t, false, "--db", db, "search", "--no-summary", "stripe")
		if strings.Count(out, ">>>") != strings.Count(out, "<<<") || !strings.Contains(out, ">>>stripe<<<") {
			t.Errorf("search stripe at %s columns: broken marker:\n%s", cols, out)
		}
	}
	t.Setenv("COLUMNS", "80")
	code, out, errOut := runCLI(t, false, "--db", db, "recent", "--source", "copilot-cli")
	if code != 0 || out != "" || !strings.Contains(errOut, "no sessions from copilot-cli") || strings.Contains(errOut, "import") {
		t.Errorf("recent --source copilot-cli: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, false, "--db", db, "search", "--limit", "2", "--no-summary", "docker"); code != 0 {
		t.Errorf("search --limit: exit %d, %s", code, errOut)
	}
}

// recall search's summaries are prose wrapped to the width: 80 columns on
// an 80-column terminal, 100 in a pipe with no $COLUMNS (as gh), code kept
// whole (issue 32: lines of 245 cells at 120 columns).
func TestSearchWrapsProse(t *testing.T) {
	db := demoDB(t)
	for _, tc := range []struct{ columns string }{{"80"}, {"120"}, {""}} {
		t.Setenv("COLUMNS", tc.columns)
		w := 100
		if tc.columns != "" {
			w, _ = strconv.Atoi(tc.columns)
		}
		_, out, _ := runCLI(t, false, "--db", db, "search", "docker", "network")
		fence := false
		for _, l := range strings.Split(out, "\n") {
			trimmed := strings.TrimSpace(l)
			if strings.HasPrefix(trimmed, "```") {
				fence = !fence
			}
			code := fence || strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "- `") && strings.HasSuffix(trimmed, "`")
			if termtext.Width(l) > w && !code {
				t.Errorf("COLUMNS=%q: a %d-cell line: %q", tc.columns, termtext.Width(l), l)
			}
		}
	}
}

// messages shows the window around the hit of a long message, its role
// column fits tool:terminal; show leaves a blank model out; resume --print
// of a session from a JSONL file that named no agent says it has none.
func TestMessagesShowResumeText(t *testing.T) {
	db := filepath.Join(t.TempDir(), "long.db")
	long := strings.Repeat("x", 250)
	jl := `{"session_id":"long-1","role":"user","content":"start of the message ` + long + ` and then verylongtoken250 appears near its end","timestamp":"2026-07-17T09:00:00Z","title":"Long token"}
{"session_id":"long-1","role":"tool","tool_name":"terminal","content":"ran verylongtoken250 here","timestamp":"2026-07-17T09:01:00Z"}
`
	if code, _, errOut := runCLIStdin(t, jl, "--db", db, "import", "jsonl", "-"); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	t.Setenv("COLUMNS", "80")
	_, out, _ := runCLI(t, false, "--db", db, "messages", "--role", "user,tool", "verylongtoken250")
	if strings.Count(out, ">>>verylongtoken250<<<") != 2 {
		t.Errorf("messages at 80 columns lost a hit:\n%s", out)
	}
	rows := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(rows) != 4 || strings.Index(rows[0], "jsonl") != strings.Index(rows[2], "jsonl") || !strings.Contains(rows[0]+rows[2], "tool:terminal ") {
		t.Errorf("the role column does not hold tool:terminal:\n%s", out)
	}
	for _, r := range rows {
		if termtext.Width(r) > 80 {
			t.Errorf("a %d-cell row: %q", termtext.Width(r), r)
		}
	}
	_, out, _ = runCLI(t, false, "--db", db, "show", "long-1")
	if strings.Contains(out, "·  ·") || !strings.Contains(out, "long-1 · jsonl · 2 messages") {
		t.Errorf("show's header: %q", strings.SplitN(out, "\n", 3)[1])
	}
	code, out, errOut := runCLI(t, false, "--db", db, "resume", "--print", "long-1")
	if code != 1 || strings.Contains(out, "hermes") || !strings.Contains(errOut, "recall show long-1") {
		t.Errorf("resume --print of a jsonl session: exit %d, %q, %q", code, out, errOut)
	}
}
