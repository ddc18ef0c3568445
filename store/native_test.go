package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestNativeWriterKeepsIndexesInSync: another writer (the native sqlite3
// shell, standing in for Hermes) updates and deletes rows; the triggers keep
// all three indexes right, and queued CJK rows are searchable at once and
// indexed by recall's next write.
func TestNativeWriterKeepsIndexesInSync(t *testing.T) {
	needSQLite3(t)
	st, ids := routingStore(t)
	path := st.Path()
	shell(t, path, fmt.Sprintf(`
UPDATE messages SET content = 'the kubernetes operator crashed' WHERE id = %d;
DELETE FROM messages WHERE id = %d;
UPDATE messages SET content = '请修改部署脚本' WHERE id = %d;
UPDATE messages SET content = 'plain english now' WHERE id = %d;
UPDATE messages SET active = 0, compacted = 1 WHERE id = %d;
INSERT INTO messages(session_id, role, content, timestamp) VALUES ('s-cli', 'user', '改一下超时时间', 1777640000);
`, ids["docker1"], ids["dockerctr"], ids["dockerfile"], ids["db"], ids["mixrun"]))
	newID := storeCount(t, st, "SELECT max(id) FROM messages")
	has := func(q string, f SearchFilter, id int64) bool {
		for _, h := range search(t, st, q, f).Hits {
			if h.MessageID == id {
				return true
			}
		}
		return false
	}
	if !has("operator", SearchFilter{}, ids["docker1"]) || has("container", SearchFilter{}, ids["docker1"]) {
		t.Error("updated content not (only) findable")
	}
	for _, tb := range allFTS {
		if n := storeCount(t, st, "SELECT count(*) FROM "+tb+" WHERE rowid = ?", ids["dockerctr"]); n != 0 {
			t.Errorf("deleted row still in %s", tb)
		}
		if n := storeCount(t, st, "SELECT count(*) FROM "+tb+" WHERE rowid = ?", ids["db"]); n != 0 && tb == "recall_fts_cjk" {
			t.Errorf("row updated to Latin still in %s", tb)
		}
	}
	if has("容器", SearchFilter{}, ids["dockerctr"]) || has("数据", SearchFilter{}, ids["db"]) {
		t.Error("deleted or de-CJKed row still found")
	}
	if storeCount(t, st, "SELECT count(*) FROM recall_cjk_pending") == 0 {
		t.Fatal("native CJK writes were not queued")
	}
	for _, f := range []SearchFilter{{Phase: PhaseFirst}, {Phase: PhaseFinal}} {
		if !has("修改", f, ids["dockerfile"]) || !has("改", f, newID) || !has("超时", f, newID) || !has("修改", f, ids["mixrun"]) {
			t.Errorf("phase %d: queued CJK rows not found by short CJK queries", f.Phase)
		}
	}
	if err := st.Write(context.Background(), func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM recall_cjk_pending"); n != 0 {
		t.Errorf("pending = %d after a write", n)
	}
	for _, id := range []int64{ids["dockerfile"], newID} {
		if n := storeCount(t, st, "SELECT count(*) FROM recall_fts_cjk WHERE rowid = ?", id); n != 1 {
			t.Errorf("row %d not in recall_fts_cjk after the drain", id)
		}
	}
	if !has("超时", SearchFilter{}, newID) || !has("youer", SearchFilter{}, ids["mixrun"]) {
		t.Error("drained rows not found")
	}
	c := rawConn(t, path, false)
	ftsIntegrity(t, c, allFTS...)
}

// TestNativeShellReadsRecallDB: plain SQLite 3.40 reads and searches a
// database recall wrote (bulk path included).
func TestNativeShellReadsRecallDB(t *testing.T) {
	needSQLite3(t)
	st, _ := routingStore(t)
	var bulk []Message
	for i := 0; i < 100; i++ {
		bulk = append(bulk, Message{SessionID: "s-tg", Role: "user", Content: fmt.Sprintf("bulk row %d 修改 数据库", i), Timestamp: at(40)})
	}
	if _, err := st.AppendMessages(context.Background(), bulk); err != nil {
		t.Fatal(err)
	}
	path := st.Path()
	check := func(sql, want string) {
		t.Helper()
		if got := strings.TrimSpace(shell(t, path, sql, "-readonly")); got != want {
			t.Errorf("%s = %q, want %q", sql, got, want)
		}
	}
	run := func() {
		check("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'docker';", "6")
		check(`SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '"数据库"';`, "102")
		check(`SELECT count(*) FROM recall_fts_cjk WHERE recall_fts_cjk MATCH '"修改"';`, "102")
		check(`SELECT count(*) FROM recall_fts_cjk WHERE recall_fts_cjk MATCH '"改"*';`, "102")
		check("PRAGMA integrity_check;", "ok")
	}
	run() // while recall has it open (WAL)
	st.Close()
	run() // after recall closed it
	cp := filepath.Join(t.TempDir(), "copy.db")
	copyFile(t, path, cp)
	for _, tb := range allFTS {
		shell(t, cp, "INSERT INTO "+tb+"("+tb+") VALUES('integrity-check');")
	}
}

// TestBulkMatchesTriggerPath: InsertMessages in batches >= bulkMin (direct
// indexing, triggers dropped) leaves exactly the index the triggers write.
func TestBulkMatchesTriggerPath(t *testing.T) {
	var msgs []Message
	texts := []string{"docker compose up", "修改youer服务端", "数据库 连接 失败", "データベース", "데이터베이스 오류", "", "plain"}
	for i := 0; i < 400; i++ {
		m := Message{SessionID: "s", Role: []string{"user", "assistant", "tool"}[i%3], Content: texts[i%len(texts)] + fmt.Sprintf(" n%d", i), Timestamp: at(i)}
		if i%5 == 0 {
			m.ToolCalls = `[{"function":{"name":"terminal","arguments":"ls 目录"}}]`
		}
		if i%7 == 0 {
			m.ToolName = "terminal"
		}
		msgs = append(msgs, m)
	}
	for _, d := range bulkVsTrigger(t, msgs) {
		t.Error(d)
	}
}

// TestBulkMatchesTriggerPathCJKToolName: a row whose only CJK is its tool_name.
func TestBulkMatchesTriggerPathCJKToolName(t *testing.T) {
	var msgs []Message
	for i := 0; i < 100; i++ {
		msgs = append(msgs, Message{SessionID: "s", Role: "tool", Content: "plain latin", ToolName: "搜索", Timestamp: at(i)})
	}
	if d := bulkVsTrigger(t, msgs); len(d) > 0 {
		t.Errorf("bulk and trigger paths differ: %v", d[0][:min(len(d[0]), 200)])
	}
}

// bulkVsTrigger writes msgs once in batches of 200 and once one by one and
// describes every difference in the indexes, triggers and counters.
func bulkVsTrigger(t *testing.T, msgs []Message) (diffs []string) {
	t.Helper()
	write := func(batch int) *Store {
		st := mustOpen(t)
		err := st.Write(context.Background(), func(tx *Tx) error {
			if err := tx.UpsertSession(Session{ID: "s", Source: "cli"}); err != nil {
				return err
			}
			cp := append([]Message(nil), msgs...)
			for i := 0; i < len(cp); i += batch {
				if _, err := tx.InsertMessages(cp[i:min(i+batch, len(cp))]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	bulk, trig := write(200), write(1)
	for _, sql := range []string{
		"SELECT rowid, content FROM messages_fts ORDER BY rowid",
		"SELECT rowid, content FROM messages_fts_trigram ORDER BY rowid",
		"SELECT rowid, grams FROM recall_fts_cjk ORDER BY rowid",
		"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
		"SELECT id, message_count, tool_call_count FROM sessions",
	} {
		var a, b []string
		bulk.read(context.Background(), func(c *conn) error { a = rows(t, c, sql); return nil })
		trig.read(context.Background(), func(c *conn) error { b = rows(t, c, sql); return nil })
		if !equalStrings(a, b) || (len(a) == 0 && !strings.Contains(sql, "recall_fts_cjk")) {
			diffs = append(diffs, fmt.Sprintf("%s differs: bulk %d rows, trigger %d rows\nbulk[:3] %q\ntrig[:3] %q", sql, len(a), len(b), a[:min(3, len(a))], b[:min(3, len(b))]))
		}
	}
	for _, st := range []*Store{bulk, trig} {
		for _, tr := range indexTriggers {
			if storeCount(t, st, "SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name=?", tr) != 1 {
				t.Errorf("trigger %s missing", tr)
			}
		}
		ftsIntegrity(t, rawConn(t, st.Path(), false), allFTS...)
	}
	return diffs
}
