package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// buildHermes writes a Hermes database at schema version `version` with the
// native sqlite3 shell: the DDL of migrations 0001..version (min 10) as Hermes
// ran them, the rows of testdata/hermes_seed.sql, and schema_version. The
// shell's default rollback journal is kept, as an old Hermes file may have.
func buildHermes(t *testing.T, dir string, version int) string {
	t.Helper()
	needSQLite3(t)
	path := filepath.Join(dir, fmt.Sprintf("hermes-v%d.db", version))
	ddl := migrationDDL(t, 1, min(version, 10))
	sql := ddl + readFixture(t, "hermes_seed.sql")
	if version >= 3 {
		sql += "UPDATE sessions SET title = 'Docker restart' WHERE id = 'h-root';\n"
	}
	sql += fmt.Sprintf("INSERT INTO schema_version VALUES (%d);\n", version)
	shell(t, path, sql)
	return path
}

// hermesMessageDump and hermesSessionDump select the v1 columns, which every
// later version keeps unchanged.
const (
	hermesMessageDump = "SELECT id, session_id, role, quote(content), quote(tool_call_id), quote(tool_calls), quote(tool_name), timestamp, quote(token_count) FROM messages ORDER BY id"
	hermesSessionDump = "SELECT id, source, model, quote(parent_session_id), started_at, quote(ended_at), quote(end_reason), message_count, tool_call_count, input_tokens, output_tokens FROM sessions ORDER BY id"
)

// TestOpenHermesReadOnly: a Hermes file recall did not create is opened in
// place without a single byte changing, and searched on its own old layout.
func TestOpenHermesReadOnly(t *testing.T) {
	type q struct {
		query  string
		f      SearchFilter
		index  Index
		labels []string // hit ids as "m<id>"
	}
	// Seed ids: 1-2 docker (user, assistant), 3 tool_calls only, 4 tool row,
	// 5 修改数据库, 6 数据库 (child), 7 修改youer服务端 (child), 8 kana, 9 Hangul, 10 容器.
	for _, tc := range []struct {
		version int
		queries []q
	}{
		{1, []q{
			{"docker", SearchFilter{}, IndexUnicode61, []string{"m1", "m2", "m3"}}, // v1 indexes content only; the tool call m3 by LIKE
			{"dock", SearchFilter{Typing: true}, IndexUnicode61, []string{"m1", "m2", "m3"}},
			{"数据库", SearchFilter{}, IndexLike, []string{"m5", "m6"}}, // no trigram table at v1
			{"修改", SearchFilter{}, IndexLike, []string{"m5", "m7"}},
			{"修改", SearchFilter{Roles: []string{"assistant"}}, IndexLike, []string{"m7"}},
			{"容器", SearchFilter{ExcludeSources: []string{"telegram"}}, IndexLike, nil},
			{"docker 容器", SearchFilter{}, IndexLike, nil},
			{"kubernetes 容器", SearchFilter{}, IndexLike, []string{"m10"}},
			{"youer", SearchFilter{}, IndexLike, []string{"m7"}}, // no index holds the piece at v1: a scan stands in for trigram
		}},
		{10, []q{
			{"docker", SearchFilter{}, IndexUnicode61, []string{"m1", "m2", "m3"}},
			{"数据库", SearchFilter{}, IndexTrigram, []string{"m5", "m6"}},
			{"数据库", SearchFilter{ExcludeSessionIDs: []string{"h-child"}}, IndexTrigram, []string{"m5"}},
			{"修改", SearchFilter{}, IndexLike, []string{"m5", "m7"}},
			{"データベース", SearchFilter{}, IndexTrigram, []string{"m8"}},
			{"데이터베이스", SearchFilter{}, IndexTrigram, []string{"m9"}},
			{"youer", SearchFilter{}, IndexTrigram, []string{"m7"}}, // substring retry
			{"容器", SearchFilter{}, IndexLike, []string{"m10"}},
		}},
	} {
		t.Run(fmt.Sprintf("v%d", tc.version), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			path := buildHermes(t, dir, tc.version)
			sum, names := fileSum(t, path), dirNames(t, dir)

			st, err := Open(ctx, path, Options{}) // neither ReadOnly nor Create: detection decides
			if err != nil {
				t.Fatal(err)
			}
			if !st.ReadOnly() {
				t.Error("a Hermes database was opened writable")
			}
			for _, q := range tc.queries {
				for _, ph := range []Phase{PhaseFirst, PhaseFinal} {
					f := q.f
					f.Phase = ph
					res := search(t, st, q.query, f)
					var got []string
					for _, h := range res.Hits {
						got = append(got, fmt.Sprintf("m%d", h.MessageID))
					}
					if res.Index != q.index || !equalStrings(sorted(got), q.labels) {
						t.Errorf("v%d %q phase %d: index %s hits %v, want %s %v (query %s)", tc.version, q.query, ph, res.Index, got, q.index, q.labels, res.Query)
					}
				}
			}
			recent, err := st.RecentSessions(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range recent {
				ids = append(ids, r.ID)
			}
			// By last activity: h-root ended (1777640400) after h-tg's
			// last message, though it started first.
			if !equalStrings(ids, []string{"h-root", "h-tg"}) {
				t.Errorf("recent = %v, want [h-root h-tg] (child hidden)", ids)
			}
			if recent[0].Preview != "How do I restart the docker container after the deploy faile..." /* 60 runes + "..." */ {
				t.Errorf("preview = %q", recent[1].Preview)
			}
			msgs, err := st.Messages(ctx, "h-root")
			if err != nil || len(msgs) != 5 || msgs[2].ToolCalls == "" || msgs[3].ToolName != "terminal" {
				t.Errorf("messages(h-root) = %d, %v", len(msgs), err)
			}
			if err := st.CreateSession(ctx, Session{ID: "x"}); !errors.Is(err, ErrReadOnly) {
				t.Errorf("write on a Hermes database: %v, want ErrReadOnly", err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if got := fileSum(t, path); got != sum {
				t.Error("opening a Hermes database changed its bytes")
			}
			if got := dirNames(t, dir); !equalStrings(got, names) {
				t.Errorf("files after open = %v, before %v", got, names)
			}
		})
	}
}

// TestMigrateHermes: `recall migrate` takes a copy of a v1 or v10 Hermes file
// to v11 + recall 1004 with every row kept and both indexes complete.
func TestMigrateHermes(t *testing.T) {
	for _, version := range []int{1, 10} {
		t.Run(fmt.Sprintf("v%d", version), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			orig := buildHermes(t, dir, version)
			path := filepath.Join(dir, "copy.db")
			copyFile(t, orig, path)
			before := rawConn(t, orig, true)
			wantMsgs, wantSess := rows(t, before, hermesMessageDump), rows(t, before, hermesSessionDump)

			from, to, err := Migrate(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if from != version || to != 11 {
				t.Errorf("Migrate = %d -> %d, want %d -> 11", from, to, version)
			}
			c := rawConn(t, path, false)
			if v := count(t, c, "SELECT version FROM schema_version"); v != 11 {
				t.Errorf("schema_version = %d", v)
			}
			if n := count(t, c, "SELECT count(*) FROM schema_version"); n != 1 {
				t.Errorf("schema_version has %d rows, Hermes keeps one", n)
			}
			if v, _, _ := c.scalarText("SELECT value FROM state_meta WHERE key = 'recall_schema_version'"); v != strconv.Itoa(newestRecallMigration(t)) {
				t.Errorf("recall_schema_version = %q", v)
			}
			if got := rows(t, c, hermesMessageDump); !equalStrings(got, wantMsgs) {
				t.Errorf("messages changed:\n got %q\nwant %q", got, wantMsgs)
			}
			if got := rows(t, c, hermesSessionDump); !equalStrings(got, wantSess) {
				t.Errorf("sessions changed:\n got %q\nwant %q", got, wantSess)
			}
			if version >= 3 {
				if got := rows(t, c, "SELECT title FROM sessions WHERE id = 'h-root'"); !equalStrings(got, []string{"Docker restart"}) {
					t.Errorf("title = %v", got)
				}
			}
			for _, tb := range []string{"messages_fts", "messages_fts_trigram"} {
				if n := count(t, c, "SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM "+tb+" f WHERE f.rowid = m.id)"); n != 0 {
					t.Errorf("%s misses %d old rows", tb, n)
				}
			}
			// v11 indexes tool_calls too: the tool-call-only row 3 is now found.
			if got := rows(t, c, "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'docker' ORDER BY rowid"); !equalStrings(got, []string{"1", "2", "3"}) {
				t.Errorf("messages_fts docker = %v", got)
			}
			if got := rows(t, c, `SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '"数据库"' ORDER BY rowid`); !equalStrings(got, []string{"5", "6"}) {
				t.Errorf("messages_fts_trigram 数据库 = %v", got)
			}
			if got := rows(t, c, "SELECT id FROM recall_cjk_pending ORDER BY id"); !equalStrings(got, []string{"5", "6", "7", "8", "9", "10"}) {
				t.Errorf("CJK rows queued for grams = %v", got)
			}
			for _, tr := range []string{"messages_fts_insert", "messages_fts_update", "messages_fts_delete", "messages_fts_trigram_insert",
				"messages_fts_trigram_update", "messages_fts_trigram_delete", "recall_cjk_insert", "recall_cjk_update", "recall_cjk_delete"} {
				if n := count(t, c, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?", tr); n != 1 {
					t.Errorf("trigger %s missing after migrate", tr)
				}
			}
			ftsIntegrity(t, c, allFTS...)
			sqliteIntegrity(t, c)

			// Migrating again is a no-op.
			if from, to, err := Migrate(ctx, path); err != nil || from != 11 || to != 11 {
				t.Errorf("second Migrate = %d -> %d, %v", from, to, err)
			}
			if got := rows(t, c, hermesMessageDump); !equalStrings(got, wantMsgs) {
				t.Error("second Migrate changed messages")
			}

			// The migrated copy is still not recall's own file: opened read-only,
			// searched on the full layout (queued CJK rows covered by LIKE).
			st := mustOpenPath(t, path, Options{})
			if !st.ReadOnly() {
				t.Error("migrated copy opened writable without the recall_created marker")
			}
			for _, tc := range []struct {
				q     string
				index Index
				want  []int64
			}{
				{"docker", IndexUnicode61, []int64{1, 2, 3}},
				{"数据库", IndexTrigram, []int64{5, 6}},
				{"修改", IndexCJK, []int64{5, 7}},
				{"youer", IndexTrigram, []int64{7}},
			} {
				res := search(t, st, tc.q, SearchFilter{Phase: PhaseFirst})
				got := hitIDs(res)
				if res.Index != tc.index || fmt.Sprint(sortedIDs(got)) != fmt.Sprint(tc.want) {
					t.Errorf("migrated %q: %s %v, want %s %v", tc.q, res.Index, got, tc.index, tc.want)
				}
			}
		})
	}
}

// TestNewerSchemaReadOnly: a schema_version beyond what recall knows is
// opened read-only with a one-line notice, whoever created the file.
func TestNewerSchemaReadOnly(t *testing.T) {
	ctx := context.Background()
	t.Run("recall-created", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "r.db")
		st := mustOpenPath(t, path, Options{Create: true})
		seed(t, st, []fixtureSession{{id: "s1", source: "cli"}}, []fixture{{label: "a", session: "s1", role: "user", content: "docker up"}})
		st.Close()
		c := rawConn(t, path, false)
		if err := c.exec("UPDATE schema_version SET version = 99"); err != nil {
			t.Fatal(err)
		}
		c.close()
		st = mustOpenPath(t, path, Options{})
		checkNewer(t, st)
	})
	t.Run("hermes", func(t *testing.T) {
		path := buildHermes(t, t.TempDir(), 99)
		sum := fileSum(t, path)
		st := mustOpenPath(t, path, Options{})
		if !st.ReadOnly() {
			t.Fatal("opened writable")
		}
		if st.Notice() == "" {
			t.Error("no notice for a database newer than recall knows")
		}
		checkNewer(t, st)
		st.Close()
		if fileSum(t, path) != sum {
			t.Error("file changed")
		}
	})
	_ = ctx
}

func checkNewer(t *testing.T, st *Store) {
	t.Helper()
	if !st.ReadOnly() {
		t.Error("schema 99 opened writable")
	}
	if n := st.Notice(); n == "" || !strings.Contains(n, "99") || strings.Contains(n, "\n") {
		t.Errorf("notice = %q, want one line naming version 99", n)
	}
	if res := search(t, st, "docker", SearchFilter{}); len(res.Hits) == 0 {
		t.Error("search on a newer database found nothing")
	}
	if err := st.CreateSession(context.Background(), Session{ID: "new"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write: %v, want ErrReadOnly", err)
	}
}

func sortedIDs(ids []int64) []int64 {
	out := append([]int64(nil), ids...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
