// Package importtest holds what the importer tests share: a temporary
// store, the fixture folders under testdata/importers, and a compact dump
// of sessions and messages to compare exactly.
package importtest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
)

// Open creates a recall database in a temporary folder, closed when the test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "recall.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Fixtures is the absolute path of testdata/importers/<name> at the module root.
func Fixtures(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "importers", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test")
		}
		dir = parent
	}
}

// AgentHome is the absolute path of testdata/agents/<agent>/home: the HOME
// an agent wrote its files in when driven by testdata/agents/<agent>/drive.sh.
func AgentHome(t testing.TB, agent string) string {
	t.Helper()
	return filepath.Join(filepath.Dir(Fixtures(t, "")), "agents", agent, "home")
}

// CopyTree copies the folder src into a new temporary folder and returns
// it, so a test can grow, cut or corrupt files; mtimes are kept.
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// Append adds text to the end of a file and moves its mtime forward (file
// systems with coarse timestamps would otherwise hide the change).
func Append(t testing.TB, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	Touch(t, path)
}

// Write replaces a file's content and moves its mtime forward.
func Write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	Touch(t, path)
}

// Files creates empty files at the slash-separated paths under dir (and
// their folders): a layout for a Discover test.
func Files(t testing.TB, dir string, paths ...string) {
	t.Helper()
	for _, f := range paths {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		Write(t, p, "")
	}
}

// Found is what src discovers under dir, as slash-separated paths relative
// to dir joined by spaces.
func Found(t testing.TB, src importer.Source, dir string) string {
	t.Helper()
	got, err := src.Discover([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	rel := make([]string, 0, len(got))
	for _, g := range got {
		r, err := filepath.Rel(dir, g)
		if err != nil {
			t.Fatal(err)
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	return strings.Join(rel, " ")
}

var bump = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// Touch sets a file's mtime to a fresh, later time.
func Touch(t testing.TB, path string) {
	t.Helper()
	bump = bump.Add(time.Minute)
	if err := os.Chtimes(path, bump, bump); err != nil {
		t.Fatal(err)
	}
}

// Msg is a message reduced to what importers decide.
type Msg struct {
	Role, Content        string
	ToolCallID, ToolName string
	ToolCalls            string
	Reasoning            string
	Finish               string
	Tokens               int
	Kind                 string // display_kind
}

func (m Msg) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %q", m.Role, m.Content)
	for _, kv := range [][2]string{{"call", m.ToolCallID}, {"tool", m.ToolName}, {"calls", m.ToolCalls}, {"reasoning", m.Reasoning}, {"finish", m.Finish}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%q", kv[0], kv[1])
		}
	}
	if m.Tokens != 0 {
		fmt.Fprintf(&b, " tokens=%d", m.Tokens)
	}
	if m.Kind != "" {
		fmt.Fprintf(&b, " kind=%s", m.Kind)
	}
	return b.String()
}

// Session is a session with its messages.
type Session struct {
	store.Session
	Msgs []Msg
}

// Dump reads every session (children included) with its messages, by id.
func Dump(t testing.TB, st *store.Store) map[string]Session {
	t.Helper()
	ctx := context.Background()
	list, err := st.RecentSessions(ctx, store.ListOptions{Limit: 100000, IncludeChildren: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Session{}
	for _, s := range list {
		msgs, err := st.Messages(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		d := Session{Session: s.Session}
		for _, m := range msgs {
			d.Msgs = append(d.Msgs, Msg{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, ToolName: m.ToolName,
				ToolCalls: m.ToolCalls, Reasoning: m.Reasoning, Finish: m.FinishReason, Tokens: m.TokenCount, Kind: m.DisplayKind})
		}
		out[s.ID] = d
	}
	return out
}

// Listed is the set of session ids a list shows (recall recent, the TUI
// list, MCP's recent mode): roots and branches, no sub-agent runs.
func Listed(t testing.TB, st *store.Store) map[string]bool {
	t.Helper()
	list, err := st.RecentSessions(context.Background(), store.ListOptions{Limit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range list {
		out[s.ID] = true
	}
	return out
}

// IDs lists the dump's session ids, sorted.
func IDs(d map[string]Session) []string {
	var ids []string
	for id := range d {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Count is the number of messages in a dump.
func Count(d map[string]Session) int {
	n := 0
	for _, s := range d {
		n += len(s.Msgs)
	}
	return n
}

// SameMsgs fails the test with a line diff when got and want differ.
func SameMsgs(t testing.TB, label string, got, want []Msg) {
	t.Helper()
	n := max(len(got), len(want))
	var diff []string
	for i := 0; i < n; i++ {
		var g, w string
		if i < len(got) {
			g = got[i].String()
		}
		if i < len(want) {
			w = want[i].String()
		}
		if g != w {
			diff = append(diff, fmt.Sprintf("  #%d\n    got:  %s\n    want: %s", i, g, w))
		}
	}
	if len(diff) > 0 {
		t.Errorf("%s: messages differ:\n%s", label, strings.Join(diff, "\n"))
	}
}

// Run imports paths with src and fails on a fatal error.
func Run(t testing.TB, st *store.Store, src importer.Source, paths ...string) importer.Report {
	t.Helper()
	rep, err := importer.Run(context.Background(), st, src, paths, importer.Options{})
	if err != nil {
		t.Fatalf("import %s: %v", src.Name(), err)
	}
	return rep
}

// Calls builds the tool_calls JSON of one OpenAI-shaped call.
func Calls(id, name, args string) string {
	return fmt.Sprintf(`[{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]`, id, name, args)
}

// SameSession compares sessions exactly, except that times (stored as REAL
// Unix seconds) need only agree to the microsecond, and a want without a
// NativeID stands for a session stored under its own id.
func SameSession(t testing.TB, got, want store.Session) {
	t.Helper()
	near := func(a, b time.Time) bool {
		d := a.Sub(b)
		return a.IsZero() == b.IsZero() && d < time.Microsecond && d > -time.Microsecond
	}
	if !near(got.StartedAt, want.StartedAt) || !near(got.EndedAt, want.EndedAt) {
		t.Errorf("%s: times = %v .. %v, want %v .. %v", want.ID, got.StartedAt.UTC(), got.EndedAt.UTC(), want.StartedAt.UTC(), want.EndedAt.UTC())
	}
	got.StartedAt, got.EndedAt, want.StartedAt, want.EndedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if want.NativeID == "" && got.NativeID == got.ID {
		got.NativeID = "" // stored under its own id: what every fixture expects
	}
	if got != want {
		t.Errorf("session %s\n got: %+v\nwant: %+v", want.ID, got, want)
	}
}

// Call is one OpenAI-shaped tool call: id, name and arguments JSON.
type Call struct{ ID, Name, Args string }

// CallsOf builds the tool_calls JSON of several calls.
func CallsOf(calls ...Call) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(Calls(c.ID, c.Name, c.Args), "["), "]"))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Time parses an RFC 3339 timestamp of a fixture; a typo panics at once.
func Time(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Problems is a report's problems as file:line: message lines.
func Problems(rep importer.Report) string {
	lines := make([]string, len(rep.Problems))
	for i, p := range rep.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Want is what a fixture test expects of one session: its message count,
// input and output tokens, and title.
type Want struct {
	Msgs    int
	In, Out int64
	Title   string
}

// CheckSessions reports each session of want that d holds otherwise, or
// with another cwd, model or source than given, and d holding sessions
// want does not name.
func CheckSessions(t testing.TB, d map[string]Session, want map[string]Want, cwd, model, source string) {
	t.Helper()
	for id, w := range want {
		s := d[id]
		if len(s.Msgs) != w.Msgs || s.InputTokens != w.In || s.OutputTokens != w.Out || s.Title != w.Title {
			t.Errorf("%s: %d messages, tokens %d/%d, title %q; want %+v", id, len(s.Msgs), s.InputTokens, s.OutputTokens, s.Title, w)
		}
		if s.Cwd != cwd || s.Model != model || s.Source != source {
			t.Errorf("%s: cwd %q model %q source %q", id, s.Cwd, s.Model, s.Source)
		}
	}
	if len(d) != len(want) {
		t.Errorf("sessions %v", IDs(d))
	}
}
