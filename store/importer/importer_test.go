package importer_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// toy is a LineParser for lines {"s": session, "t": text, "cont": true}: a
// line with cont appends to the previous message, and needs a restart when
// that message was stored by an earlier import.
type toy struct {
	State struct {
		Seen int    `json:"seen"` // lines read before
		Last string `json:"last"` // session of the last message stored
	}
	msgs     []store.Message
	sessions []store.Session
	restored bool
	lines    *[]int // every line number parsed, across attempts
}

func (p *toy) Restore(raw json.RawMessage) error {
	p.restored = len(raw) > 0
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, &p.State)
}

func (p *toy) Line(text []byte, t *importer.Tally) error {
	*p.lines = append(*p.lines, t.Line)
	var r struct {
		S    string `json:"s"`
		T    string `json:"t"`
		Cont bool   `json:"cont"`
	}
	if err := json.Unmarshal(text, &r); err != nil {
		t.Malformed("invalid JSON")
		return nil
	}
	if r.S == "" {
		t.Skip()
		return nil
	}
	if r.Cont {
		if len(p.msgs) == 0 {
			if p.restored {
				return importer.ErrRestart
			}
			t.Malformed("continuation without a message")
			return nil
		}
		p.msgs[len(p.msgs)-1].Content += r.T
		return nil
	}
	p.State.Seen++
	p.msgs = append(p.msgs, store.Message{SessionID: r.S, Role: "user", Content: r.T,
		Timestamp: time.Unix(1780000000+int64(t.Line), 0), SourceKey: fmt.Sprintf("toy:%d", t.Line)})
	p.sessions = append(p.sessions, store.Session{ID: r.S, Source: "toy", StartedAt: time.Unix(1780000000, 0)})
	return nil
}

func (p *toy) Result() importer.Result {
	return importer.Result{Sessions: p.sessions, Messages: p.msgs, State: &p.State}
}

func importToy(t *testing.T, st *store.Store, path string, lines *[]int) importer.Report {
	t.Helper()
	rep, err := importer.ImportLines(context.Background(), st, "toy", path, func() importer.LineParser { return &toy{lines: lines} })
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func contents(t *testing.T, st *store.Store, sid string) string {
	t.Helper()
	msgs, err := st.Messages(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.Content)
	}
	return strings.Join(out, ",")
}

func TestImportLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log.jsonl")
	st := it.Open(t)
	var seen []int
	line := func(s, text string) string { return fmt.Sprintf(`{"s":%q,"t":%q}`, s, text) + "\n" }

	it.Write(t, path, line("a", "one")+line("a", "two"))
	if rep := importToy(t, st, path, &seen); rep.Files != 1 || rep.Messages != 2 {
		t.Errorf("first: %+v", rep)
	}

	// Unchanged size and mtime: nothing is read.
	seen = nil
	if rep := importToy(t, st, path, &seen); rep.Unchanged != 1 || len(seen) != 0 {
		t.Errorf("unchanged: %+v, read lines %v", rep, seen)
	}

	// Only the mtime moved: the tail is checked, nothing imported, and the
	// next run skips the file without reading it.
	it.Touch(t, path)
	seen = nil
	if rep := importToy(t, st, path, &seen); rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("touched: %+v", rep)
	}
	seen = nil
	if rep := importToy(t, st, path, &seen); rep.Unchanged != 1 || len(seen) != 0 {
		t.Errorf("touched, again: %+v, read %v", rep, seen)
	}

	// Grown: only the new lines are parsed, numbered after the old ones.
	it.Append(t, path, line("a", "three")+`{"noise":1}`+"\n")
	seen = nil
	if rep := importToy(t, st, path, &seen); rep.Messages != 1 || rep.Skipped != 1 || fmt.Sprint(seen) != "[3 4]" {
		t.Errorf("grown: %+v, parsed lines %v", rep, seen)
	}

	// A continuation of a message stored last time: the parser asks for a
	// restart and the file is read again from the top.
	it.Append(t, path, `{"s":"a","t":"+","cont":true}`+"\n")
	seen = nil
	importToy(t, st, path, &seen)
	if fmt.Sprint(seen) != "[5 1 2 3 4 5]" {
		t.Errorf("restart parsed lines %v", seen)
	}
	if got := contents(t, st, "a"); got != "one,two,three+" {
		t.Errorf("after restart: %s", got)
	}

	// Edited before the cursor (same size): re-imported in full; the
	// messages still there are not duplicated, and the edited one's old
	// text stays (recall never drops what it imported).
	raw, _ := os.ReadFile(path)
	it.Write(t, path, strings.Replace(string(raw), `"one"`, `"ONE"`, 1))
	importToy(t, st, path, &seen)
	if got := contents(t, st, "a"); got != "one,two,three+,ONE" {
		t.Errorf("after edit: %s", got)
	}

	// Truncated (an agent rewrote it shorter): re-imported in full, and
	// the messages the file lost stay.
	it.Write(t, path, line("a", "only"))
	importToy(t, st, path, &seen)
	if got := contents(t, st, "a"); got != "one,two,three+,ONE,only" {
		t.Errorf("after truncation: %s", got)
	}

	// A complete last line without its newline is taken; the newline that
	// follows does not shift the numbering of later lines.
	it.Append(t, path, line("a", "x")[:len(line("a", "x"))-1])
	importToy(t, st, path, &seen)
	it.Append(t, path, "\n"+line("a", "y"))
	seen = nil
	importToy(t, st, path, &seen)
	if fmt.Sprint(seen) != "[3]" {
		t.Errorf("after an unterminated line, parsed %v, want [3]", seen)
	}
	if got := contents(t, st, "a"); got != "one,two,three+,ONE,only,x,y" {
		t.Errorf("unterminated: %s", got)
	}
}

// broken fails on one file.
type broken struct{ files []string }

func (b *broken) Name() string           { return "broken" }
func (b *broken) DefaultPaths() []string { return []string{"default"} }
func (b *broken) Discover(p []string) ([]string, error) {
	if len(p) == 1 && p[0] == "default" {
		return b.files, nil
	}
	return nil, errors.New("unexpected paths")
}
func (b *broken) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	if strings.Contains(file, "bad") {
		return importer.Report{}, errors.New("cannot read")
	}
	return importer.Report{Files: 1, Messages: 2}, nil
}

type finisher struct {
	broken
	finished int
}

func (f *finisher) Finish(ctx context.Context, st *store.Store) (importer.Report, error) {
	f.finished++
	return importer.Report{Sessions: 1}, nil
}

func TestRun(t *testing.T) {
	st := it.Open(t)
	src := &finisher{broken: broken{files: []string{"a", "bad", "c"}}}
	var progress []string
	rep, err := importer.Run(context.Background(), st, src, nil, importer.Options{Progress: func(p importer.Progress) {
		// Files are recorded by absolute path: these toy names resolve here.
		progress = append(progress, fmt.Sprintf("%s %d/%d %d", filepath.Base(p.File), p.FilesDone, p.FilesTotal, p.Messages))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 2 || rep.Failed != 1 || rep.Messages != 4 || rep.Sessions != 1 || src.finished != 1 {
		t.Errorf("report = %+v, finished %d", rep, src.finished)
	}
	if len(rep.Problems) != 1 || filepath.Base(rep.Problems[0].File) != "bad" || rep.Problems[0].Msg != "cannot read" {
		t.Errorf("problems = %v", rep.Problems)
	}
	if got := strings.Join(progress, "; "); got != "a 1/3 2; bad 2/3 2; c 3/3 4" {
		t.Errorf("progress = %s", got)
	}
	if got := rep.Summary(); got != "3 files (1 failed), 1 session, 4 messages imported" {
		t.Errorf("summary = %q", got)
	}

	// Options.Files replaces Discover.
	rep, err = importer.Run(context.Background(), st, src, nil, importer.Options{Files: []string{"x"}})
	if err != nil || rep.Files != 1 {
		t.Errorf("with Files: %+v, %v", rep, err)
	}

	// Cancelled: Run stops with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := importer.Run(ctx, st, src, nil, importer.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestReportProblemsCapped(t *testing.T) {
	var r importer.Report
	for i := 0; i < 25; i++ {
		r.Problemf("f", i+1, "bad %d", i)
	}
	var total importer.Report
	total.Add(r)
	total.Add(r)
	if r.Malformed != 25 || len(r.Problems) != importer.MaxProblems || total.Malformed != 50 || len(total.Problems) != importer.MaxProblems {
		t.Errorf("malformed %d/%d, problems %d/%d", r.Malformed, total.Malformed, len(r.Problems), len(total.Problems))
	}
	for _, tc := range []struct {
		p    importer.Problem
		want string
	}{
		{importer.Problem{File: "a.jsonl", Line: 3, Msg: "x"}, "a.jsonl:3: x"},
		{importer.Problem{File: "a.jsonl", Msg: "x"}, "a.jsonl: x"},
		{importer.Problem{Line: 3, Msg: "x"}, "line 3: x"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%+v = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	importer.Register(&broken{}, "brk")
	if s, ok := importer.Lookup("brk"); !ok || s.Name() != "broken" {
		t.Errorf("alias lookup = %v, %v", s, ok)
	}
	if _, ok := importer.Lookup("nope"); ok {
		t.Error("unknown name found")
	}
	srcs := importer.Sources()
	for i := 1; i < len(srcs); i++ {
		if srcs[i-1].Name() >= srcs[i].Name() {
			t.Errorf("Sources not sorted: %s before %s", srcs[i-1].Name(), srcs[i].Name())
		}
	}
}

func TestSameModTime(t *testing.T) {
	base := time.Date(2026, 6, 1, 8, 0, 0, 123456789, time.UTC)
	if !importer.SameModTime(base.Add(300*time.Nanosecond), base) || importer.SameModTime(base.Add(2*time.Microsecond), base) {
		t.Error("SameModTime tolerance is not about a microsecond")
	}
}

// TestDropTooLarge: a message larger than the store keeps (a reply merged
// from several lines can be, though each line was within bounds) is left
// out with one problem naming the file, and the others stay.
func TestDropTooLarge(t *testing.T) {
	msgs := []store.Message{
		{SessionID: "s", Role: "user", Content: "small"},
		{SessionID: "s", Role: "assistant", Content: strings.Repeat("x", store.MaxMessageBytes+1)},
		{SessionID: "s", Role: "user", Content: "also small"},
	}
	var rep importer.Report
	kept := importer.DropTooLarge(msgs, "f.jsonl", &rep)
	if len(kept) != 2 || kept[0].Content != "small" || kept[1].Content != "also small" {
		t.Fatalf("kept %d messages", len(kept))
	}
	if rep.Malformed != 1 || len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0].String(), "f.jsonl: a assistant message of session s") ||
		!strings.Contains(rep.Problems[0].Msg, "more than the 64 MB recall stores: skipped") {
		t.Errorf("report %+v", rep)
	}
}

// TestOversizePlaceholderOnlyInStreams: the placeholder of a string too long
// to keep marks a streamed export's message as too large; any other
// transcript quoting its text (a session that read jsonstream's source) is
// kept whole.
func TestOversizePlaceholderOnlyInStreams(t *testing.T) {
	quoting := func() []store.Message {
		return []store.Message{{SessionID: "s", Role: "tool", Content: "const escapedPlaceholder = `\\u0000recall:oversize:` // 700000000"}}
	}
	var rep importer.Report
	if kept := importer.DropTooLarge(quoting(), "f.jsonl", &rep); len(kept) != 1 || rep.Malformed != 0 {
		t.Errorf("a transcript quoting the placeholder: kept %d, report %+v", len(kept), rep)
	}
	held := []store.Message{{SessionID: "s", Role: "user", Content: "\x00recall:oversize:700000000;"}}
	if kept := importer.DropStreamedTooLarge(held, "x.zip", &rep); len(kept) != 0 || rep.Malformed != 1 {
		t.Errorf("a streamed message holding the placeholder: kept %d, report %+v", len(kept), rep)
	}
}

// grouped is a source over real files whose "-sub" files go with their
// main file (as Claude Code's sub-agent transcripts do).
type grouped struct {
	files []string
	order []string
}

func (g *grouped) Name() string                              { return "grouped" }
func (g *grouped) DefaultPaths() []string                    { return nil }
func (g *grouped) Discover(paths []string) ([]string, error) { return g.files, nil }
func (g *grouped) Group(f string) string                     { return strings.TrimSuffix(f, "-sub") }
func (g *grouped) Import(ctx context.Context, st *store.Store, f string) (importer.Report, error) {
	g.order = append(g.order, filepath.Base(f))
	return importer.Report{Files: 1}, nil
}

// TestRunNewestFirst: a run imports the files written last first, so a
// long history's recent weeks are searchable first; a group keeps its own
// order (a main transcript before its sub-agent runs, even when a sub-agent
// file is newer) and goes by its newest file; files of one time keep the
// Discover order.
func TestRunNewestFirst(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var files []string
	for _, f := range []struct {
		name string
		days int
	}{{"jan", -300}, {"jun", -150}, {"main", -200}, {"main-sub", -2}, {"oct", -30}, {"same1", -90}, {"same2", -90}} {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		mt := day.AddDate(0, 0, f.days)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	src := &grouped{files: files}
	if _, err := importer.Run(context.Background(), it.Open(t), src, nil, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(src.order, " "), "main main-sub oct same1 same2 jun jan"; got != want {
		t.Errorf("import order %q, want %q", got, want)
	}
}
