package hermes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/migrations"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

const (
	sA    = "20260612_091500_a1b2c3" // cli, compression-ended, one rewound row
	sB    = "20260612_092010_b7c8d9" // subagent child of sA
	sC    = "20260612_100000_e1f2a3" // telegram, one display_kind='hidden' row
	sCron = "cron_weekly_digest_20260613_070000"
)

func at(sec float64) time.Time { return epoch(sec) }

// hermesDB builds a state.db the way Hermes has it while running: WAL mode,
// with the writer connection left open (returned) so the import runs next
// to a live writer.
func hermesDB(t *testing.T, dir string) (string, *sqlite3.Conn) {
	t.Helper()
	path := filepath.Join(dir, "state.db")
	// The schema in the main file, the rows in the WAL, not yet checkpointed,
	// as with a running Hermes.
	w := it.LiveDB(t, path, it.Fixtures(t, "hermes"), "PRAGMA journal_mode=DELETE", "schema.sql", "PRAGMA journal_mode=WAL", "seed.sql")
	return path, w
}

func exec(t *testing.T, w *sqlite3.Conn, sql string) {
	t.Helper()
	if err := w.Exec(sql); err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
}

var wantA = []it.Msg{
	{Role: "user", Content: "nginx returns 502 right after the deploy"},
	{Role: "assistant", ToolCalls: `[{"id":"call_1","type":"function","function":{"name":"terminal","arguments":"{\"command\":\"journalctl -u app -n 50\"}"}}]`,
		Reasoning: "Check the upstream service logs first.", Finish: "tool_calls", Tokens: 22},
	{Role: "tool", Content: "app.service: Main process exited, status=1/FAILURE\nError: listen EADDRINUSE: address already in use :::3000", ToolCallID: "call_1", ToolName: "terminal"},
	{Role: "assistant", Content: "Port 3000 is still held by the old process. Run systemctl restart app.", Finish: "stop", Tokens: 40},
	// "kill -9 everything?" was rewound (active=0): not copied.
	{Role: "user", Content: "restarted it, the site is back"},
	{Role: "assistant", Content: "Good. Here is the error-rate graph since the restart:\n[image]", Finish: "stop", Tokens: 55},
	// compacted=1: archived by compaction, still shown.
	{Role: "assistant", Content: "[CONTEXT COMPACTION] Earlier: 502s after deploy, old process held port 3000, restart fixed it."},
}

var wantB = []it.Msg{
	{Role: "user", Content: "Check which process holds port 3000."},
	{Role: "assistant", Content: "PID 4121 (node /srv/app/old/server.js) holds port 3000.", Finish: "stop", Tokens: 18},
}

var wantC = []it.Msg{
	{Role: "user", Content: "send me the weekly report"},
	{Role: "assistant", Content: "Here is this week's report: 14 deploys, 2 incidents, MTTR 18 minutes.", Finish: "stop", Tokens: 88},
}

var wantCron = []it.Msg{
	{Role: "user", Content: "Summarise last week's commits on main."},
	{Role: "assistant", Content: "42 commits: the invoice rounding fix, VAT per line, and dependency bumps.", Finish: "stop", Tokens: 64},
}

func sum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return "absent"
		}
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestImport(t *testing.T) {
	dir := t.TempDir()
	st := it.Open(t)
	path, _ := hermesDB(t, dir)
	before := sum(t, path) + sum(t, path+"-wal")
	if strings.Contains(before, "absent") {
		t.Fatal("the fixture has no WAL")
	}

	rep := it.Run(t, st, &Source{}, path)
	if rep.Files != 1 || rep.Sessions != 4 || rep.Messages != 13 || rep.Skipped != 2 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	if after := sum(t, path) + sum(t, path+"-wal"); after != before {
		t.Errorf("the import changed the Hermes database")
	}
	d := it.Dump(t, st)
	if got := strings.Join(it.IDs(d), " "); got != strings.Join([]string{sA, sB, sC, sCron}, " ") {
		t.Fatalf("sessions = %s", got)
	}
	for _, tc := range []struct {
		want store.Session
		msgs []it.Msg
	}{
		{store.Session{ID: sA, Source: "cli", Model: "anthropic/claude-sonnet-4.5", ModelConfig: `{"temperature":0.7}`,
			Title: "Nginx 502 after deploy", StartedAt: at(1781255700), EndedAt: at(1781257500), EndReason: "compression",
			InputTokens: 18200, OutputTokens: 950, CacheReadTokens: 12000, CacheWriteTokens: 3100, EstimatedCostUSD: 0.1275,
			// 7 rows shown, one of them compacted: Hermes counts the live 6.
			Cwd: "/srv/app", GitBranch: "main", MessageCount: 6, ToolCallCount: 1}, wantA},
		{store.Session{ID: sB, Source: "subagent", Model: "anthropic/claude-haiku-4.5", ModelConfig: `{"_delegate_from":"` + sA + `"}`,
			ParentID: sA, StartedAt: at(1781256010), EndedAt: at(1781256040), EndReason: "agent_close",
			InputTokens: 900, OutputTokens: 60, EstimatedCostUSD: 0.001, Cwd: "/srv/app", GitBranch: "main", MessageCount: 2}, wantB},
		{store.Session{ID: sC, Source: "telegram", Model: "openai/gpt-5", Title: "Weekly report", StartedAt: at(1781258400),
			InputTokens: 2400, OutputTokens: 310, ReasoningTokens: 128, MessageCount: 2}, wantC},
		{store.Session{ID: sCron, Source: "cron", Model: "openai/gpt-5-mini", StartedAt: at(1781334000), EndedAt: at(1781334030),
			EndReason: "cron_complete", InputTokens: 700, OutputTokens: 120, EstimatedCostUSD: 0.0004, MessageCount: 2}, wantCron},
	} {
		t.Run(tc.want.ID, func(t *testing.T) {
			it.SameSession(t, d[tc.want.ID].Session, tc.want)
			it.SameMsgs(t, tc.want.ID, d[tc.want.ID].Msgs, tc.msgs)
		})
	}

	rep = it.Run(t, st, &Source{}, path)
	if rep.Files != 0 || rep.Unchanged != 1 || rep.Messages != 0 {
		t.Errorf("re-import report = %+v", rep)
	}
}

// TestIncremental: Hermes keeps writing between imports; each import copies
// only what is new, updates changed session rows, and copies a session
// again when its earlier messages changed (rewind, replace_messages).
func TestIncremental(t *testing.T) {
	old := chunk
	chunk = 3 // several transactions per import
	defer func() { chunk = old }()
	dir := t.TempDir()
	st := it.Open(t)
	path, w := hermesDB(t, dir)
	it.Run(t, st, &Source{}, path)

	// New messages in sA and sC, a new session, a title and token update.
	exec(t, w, `INSERT INTO messages(session_id, role, content, timestamp) VALUES
		('`+sA+`', 'user', 'add a health check so this alerts next time', 1781257600.0),
		('`+sA+`', 'assistant', 'Added a /healthz probe to the nginx upstream.', 1781257610.0),
		('`+sC+`', 'user', 'thanks', 1781258500.0);
	INSERT INTO sessions(id, source, model, started_at, title) VALUES ('20260614_080000_c0ffee', 'discord', 'openai/gpt-5', 1781424000.0, 'Standup notes');
	INSERT INTO messages(session_id, role, content, timestamp) VALUES ('20260614_080000_c0ffee', 'user', 'post the standup notes', 1781424001.0);
	UPDATE sessions SET title = 'Nginx 502: port still held', input_tokens = 20000, message_count = 10 WHERE id = '`+sA+`';`)
	rep := it.Run(t, st, &Source{}, path)
	if rep.Files != 1 || rep.Messages != 4 || rep.Sessions != 2 { // sA's row changed, one session is new
		t.Errorf("grown report = %+v", rep)
	}
	d := it.Dump(t, st)
	wantA2 := append(append([]it.Msg{}, wantA...),
		it.Msg{Role: "user", Content: "add a health check so this alerts next time"},
		it.Msg{Role: "assistant", Content: "Added a /healthz probe to the nginx upstream."})
	it.SameMsgs(t, "grown A", d[sA].Msgs, wantA2)
	it.SameMsgs(t, "grown C", d[sC].Msgs, append(append([]it.Msg{}, wantC...), it.Msg{Role: "user", Content: "thanks"}))
	if s := d[sA]; s.Title != "Nginx 502: port still held" || s.InputTokens != 20000 {
		t.Errorf("updated session = %+v", s.Session)
	}
	if s := d["20260614_080000_c0ffee"]; s.Source != "discord" || s.Title != "Standup notes" || len(s.Msgs) != 1 {
		t.Errorf("new session = %+v", s)
	}

	// A rewind deactivates a copied message: sA reads without it, and
	// keeps its text as an earlier version.
	exec(t, w, `UPDATE messages SET active = 0 WHERE content = 'Added a /healthz probe to the nginx upstream.';
		UPDATE sessions SET rewind_count = rewind_count + 1 WHERE id = '`+sA+`';`)
	it.Run(t, st, &Source{}, path)
	it.SameMsgs(t, "rewound", it.Dump(t, st)[sA].Msgs, append(wantA2[:len(wantA2)-1:len(wantA2)-1], earlier(wantA2[len(wantA2)-1])))

	// replace_messages rewrites sB under new ids: no duplicates.
	exec(t, w, `DELETE FROM messages WHERE session_id = '`+sB+`';
		INSERT INTO messages(session_id, role, content, timestamp, token_count, finish_reason) VALUES
		('`+sB+`', 'user', 'Check which process holds port 3000.', 1781256011.0, NULL, NULL),
		('`+sB+`', 'assistant', 'PID 4121 (node /srv/app/old/server.js) holds port 3000.', 1781256039.0, 18, 'stop');`)
	it.Run(t, st, &Source{}, path)
	d = it.Dump(t, st)
	it.SameMsgs(t, "replaced", d[sB].Msgs, wantB)
	if n := it.Count(d); n != 13+4 {
		t.Errorf("%d messages in all, want 17", n)
	}
}

// TestWhileWriting: imports run while a writer appends; at the end every
// message is there exactly once.
func TestWhileWriting(t *testing.T) {
	old := chunk
	chunk = 7
	defer func() { chunk = old }()
	dir := t.TempDir()
	st := it.Open(t)
	path, w := hermesDB(t, dir)
	var wg sync.WaitGroup
	wg.Add(1)
	errc := make(chan error, 1)
	go func() {
		defer wg.Done()
		for i := 0; i < 150; i++ {
			sql := fmt.Sprintf(`INSERT INTO messages(session_id, role, content, timestamp) VALUES ('%s', 'user', 'tick %d', %d.0);
				UPDATE sessions SET message_count = message_count + 1 WHERE id = '%s'`, sC, i, 1781259000+i, sC)
			if err := w.Exec(sql); err != nil {
				errc <- err
				return
			}
		}
	}()
	for i := 0; i < 20; i++ {
		if _, err := importer.Run(context.Background(), st, &Source{}, []string{path}, importer.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	select {
	case err := <-errc:
		t.Fatal(err)
	default:
	}
	it.Run(t, st, &Source{}, path)
	msgs := it.Dump(t, st)[sC].Msgs
	if len(msgs) != 2+150 {
		t.Fatalf("%d messages in %s, want 152", len(msgs), sC)
	}
	for i, m := range msgs[2:] {
		if want := fmt.Sprintf("tick %d", i); m.Content != want {
			t.Fatalf("message %d = %q, want %q", i+2, m.Content, want)
		}
	}
}

// TestReplacedDatabase: a state.db recreated from scratch (ids restart) is
// compared afresh instead of being skipped up to the old high-water mark;
// what it no longer has stays as earlier versions.
func TestReplacedDatabase(t *testing.T) {
	dir := t.TempDir()
	st := it.Open(t)
	path, w := hermesDB(t, dir)
	it.Run(t, st, &Source{}, path)
	exec(t, w, `DELETE FROM messages; DELETE FROM sqlite_sequence WHERE name = 'messages';
		INSERT INTO messages(session_id, role, content, timestamp) VALUES ('`+sCron+`', 'user', 'rebuilt', 1781334100.0);`)
	it.Run(t, st, &Source{}, path)
	d := it.Dump(t, st)
	it.SameMsgs(t, "cron", d[sCron].Msgs, []it.Msg{earlier(wantCron[0]), earlier(wantCron[1]), {Role: "user", Content: "rebuilt"}})
	var gone []it.Msg
	for _, m := range wantA {
		gone = append(gone, earlier(m))
	}
	it.SameMsgs(t, sA, d[sA].Msgs, gone)
	if d[sA].MessageCount != 0 || d[sCron].MessageCount != 1 {
		t.Errorf("message_count %d and %d, want 0 and 1 as Hermes shows", d[sA].MessageCount, d[sCron].MessageCount)
	}
}

// TestOldSchema reads a Hermes v1 state.db (no title, no active, no
// reasoning columns), as built by recall's own Hermes v1 migration.
func TestOldSchema(t *testing.T) {
	dir := t.TempDir()
	st := it.Open(t)
	path := filepath.Join(dir, "state.db")
	w, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ddl, err := migrations.FS.ReadFile("0001_hermes_v1_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := os.ReadFile(filepath.Join(filepath.Dir(it.Fixtures(t, "")), "..", "store", "testdata", "hermes_seed.sql"))
	if err != nil {
		t.Fatal(err)
	}
	exec(t, w, string(ddl)+"\nINSERT INTO schema_version VALUES (1);\n"+string(seed))
	rep := it.Run(t, st, &Source{}, path)
	if rep.Sessions != 3 || rep.Messages != 10 || len(rep.Problems) != 0 {
		t.Errorf("report = %+v", rep)
	}
	d := it.Dump(t, st)
	root := d["h-root"]
	it.SameMsgs(t, "h-root", root.Msgs[:4], []it.Msg{
		{Role: "user", Content: "How do I restart the docker container after the deploy failed?", Tokens: 14},
		{Role: "assistant", Content: "Run docker compose restart api, then check the logs.", Tokens: 12},
		{Role: "assistant", ToolCallID: "call_1", ToolCalls: `[{"id":"call_1","type":"function","function":{"name":"terminal","arguments":"{\"cmd\":\"docker ps\"}"}}]`},
		{Role: "tool", Content: "CONTAINER ID   IMAGE   STATUS\n3f2a   api     Up 2 seconds", ToolCallID: "call_1", ToolName: "terminal"},
	})
	if c := d["h-child"]; c.ParentID != "h-root" || c.Source != "subagent" || len(c.Msgs) != 2 {
		t.Errorf("child = %+v", c)
	}
	if root.EndReason != "cli_close" || root.InputTokens != 1200 {
		t.Errorf("root = %+v", root.Session)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	st := it.Open(t)
	if _, err := (&Source{}).Import(context.Background(), st, st.Path()); err == nil || !strings.Contains(err.Error(), "recall database itself") {
		t.Errorf("importing the target into itself: %v", err)
	}
	other := filepath.Join(dir, "notes.db")
	w, err := sqlite3.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	exec(t, w, "CREATE TABLE notes(x)")
	w.Close()
	rep, err := importer.Run(context.Background(), st, &Source{}, []string{other}, importer.Options{})
	if err != nil || rep.Failed != 1 || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].Msg, "not a Hermes state.db") {
		t.Errorf("a foreign database: %+v, %v", rep, err)
	}
}

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	for _, p := range []string{"state.db", "profiles/work/state.db", "profiles/home/state.db", "profiles/empty/notes.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(home, p)), 0o755)
		os.WriteFile(filepath.Join(home, p), nil, 0o644)
	}
	all := []string{filepath.Join(home, "state.db"), filepath.Join(home, "profiles/home/state.db"), filepath.Join(home, "profiles/work/state.db")}
	for _, tc := range []struct {
		name  string
		paths []string
		want  []string
	}{
		{"home", []string{home}, all},
		{"one file twice", []string{all[1], all[1]}, all[1:2]},
		{"missing", []string{filepath.Join(home, "nope")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := (&Source{}).Discover(tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Setenv("HERMES_HOME", home)
	if got := (&Source{}).DefaultPaths(); strings.Join(got, "\n") != strings.Join(all, "\n") {
		t.Errorf("DefaultPaths = %v", got)
	}
	if s, ok := importer.Lookup("hermes"); !ok || s.Name() != SourceName {
		t.Errorf("Lookup(hermes) = %v, %v", s, ok)
	}
}

// TestCompactionAndArchiveCopied: a session Hermes compacted (8 rows, 6 of
// them folded into a summary: active=0, compacted=1) and archived reads in
// recall as in Hermes: message_count 2 (before: 8), the 6 rows kept and
// flagged compacted (searchable, as Hermes searches them), the session
// archived, so the recent list leaves it out; un-archiving it in Hermes
// carries over on the next import.
func TestCompactionAndArchiveCopied(t *testing.T) {
	const sD = "20260614_080000_d4e5f6"
	path, w := hermesDB(t, t.TempDir())
	exec(t, w, `INSERT INTO sessions(id, source, model, started_at, message_count, archived) VALUES ('`+sD+`', 'cli', 'openai/gpt-5', 1781424000.0, 2, 1)`)
	for i := 1; i <= 8; i++ {
		active, compacted, text := 0, 1, fmt.Sprintf("old turn %d about the flaky redis test", i)
		switch i {
		case 7:
			active, compacted, text = 1, 0, "[CONTEXT COMPACTION] Earlier: the redis test was flaky because of a shared port."
		case 8:
			active, compacted, text = 1, 0, "now pin the port in CI"
		}
		exec(t, w, fmt.Sprintf(`INSERT INTO messages(session_id, role, content, timestamp, active, compacted) VALUES ('%s', 'user', '%s', %d, %d, %d)`,
			sD, text, 1781424000+i, active, compacted))
	}
	st := it.Open(t)
	it.Run(t, st, &Source{}, path)
	ctx := context.Background()
	sess, err := st.Session(ctx, sD)
	if err != nil || sess.MessageCount != 2 || !sess.Archived {
		t.Fatalf("session %+v (%v): want message_count 2 and archived", sess, err)
	}
	msgs, err := st.Messages(ctx, sD)
	if err != nil {
		t.Fatal(err)
	}
	compacted := 0
	for _, m := range msgs {
		if m.Compacted && m.Inactive {
			compacted++
		} else if m.Inactive || m.Compacted {
			t.Errorf("message %q: inactive %v, compacted %v", m.Content, m.Inactive, m.Compacted)
		}
	}
	if compacted != 6 || len(msgs) != 8 {
		t.Errorf("%d messages, %d compacted: want 8 and 6", len(msgs), compacted)
	}
	res, err := st.SearchMessages(ctx, "flaky", store.SearchFilter{})
	if err != nil || len(res.Hits) == 0 {
		t.Errorf("a compacted row is not searchable: %v, %v", res.Hits, err)
	}
	recent, err := st.RecentSessions(ctx, store.ListOptions{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range recent {
		if s.ID == sD {
			t.Errorf("the archived session is in the recent list")
		}
	}
	exec(t, w, `UPDATE sessions SET archived = 0 WHERE id = '`+sD+`'`)
	it.Run(t, st, &Source{}, path)
	if sess, _ := st.Session(ctx, sD); sess.Archived {
		t.Errorf("un-archived in Hermes, still archived in recall")
	}
}
