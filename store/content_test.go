package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hostileTexts are contents real transcripts carry that our own fixtures
// never had: NUL bytes (a `\u0000` in JSON), invalid UTF-8, control
// characters, Hermes's multimodal sentinel, combining marks, emoji
// sequences, bidi controls, noncharacters, CJK right after a NUL.
var hostileTexts = []string{
	"hello\x00world docker",
	"\x00json:[{\"type\":\"text\",\"text\":\"docker multimodal\"}]",
	"tail nul docker\x00",
	"\x00\x00\x00",
	"修改\x00数据库 docker",
	"bad utf8 \xff\xfe docker \xc3",
	"lone continuation \x80\x80 docker",
	"overlong \xc0\xaf docker \xe0\x80\xaf",
	"\xf4\x90\x80\x80 beyond U+10FFFF docker",
	"control \x01\x02\x1b[31m docker \x7f",
	"e\u0301 combining docker",
	"family 👨\u200d👩\u200d👧 docker",
	"\u202eright-to-left\u202c docker",
	"noncharacter \uffff\ufffe docker",
	"fullwidth ｄｏｃｋｅｒ ＤＯＣＫＥＲ",
	"tab\tnewline\nreturn\r docker",
	strings.Repeat("x", 5000) + " docker", // one very long token
}

// writeHostile stores hostileTexts twice: one message per call (the trigger
// path) and as one batch (the bulk path), with tool names and calls too.
func writeHostile(t *testing.T, st *Store) {
	t.Helper()
	var batch []Message
	for i, txt := range hostileTexts {
		batch = append(batch, Message{SessionID: "s", Role: "user", Content: txt, ToolName: "tool\x00" + txt[:min(len(txt), 8)],
			ToolCalls: `{"arguments":"` + txt + `"}`, Timestamp: at(i)})
	}
	err := st.Write(context.Background(), func(tx *Tx) error {
		if err := tx.UpsertSession(Session{ID: "s", Source: "cli"}); err != nil {
			return err
		}
		for i := range batch {
			one := batch[i : i+1 : i+1]
			if _, err := tx.InsertMessages(append([]Message(nil), one...)); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages(append([]Message(nil), batch...))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// nativeIntegrity runs FTS5's integrity-check on all three tables with the
// native sqlite3 shell (3.40.1), which must accept what recall's 3.51 wrote.
func nativeIntegrity(t *testing.T, path string) {
	t.Helper()
	for _, tb := range allFTS {
		cmd := exec.Command("sqlite3", "-batch", path, "INSERT INTO "+tb+"("+tb+") VALUES('integrity-check');")
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Errorf("native %s integrity-check: %v %s", tb, err, out)
		}
	}
}

// TestHostileTextNativeIntegrity: whatever recall writes passes the native
// shell's FTS5 integrity-check, and stays consistent when the native shell
// deletes and updates rows (before, NUL bytes left an index 3.40 rejected,
// and a native DELETE made both versions report "malformed inverted index").
func TestHostileTextNativeIntegrity(t *testing.T) {
	needSQLite3(t)
	st := mustOpen(t)
	writeHostile(t, st)
	path := st.Path()
	nativeIntegrity(t, path)
	written := storeCount(t, st, "SELECT max(id) FROM messages")
	shell(t, path, `
DELETE FROM messages WHERE id % 3 = 0;
UPDATE messages SET content = content || ' updated' WHERE id % 3 = 1;
UPDATE messages SET content = 'native'||char(0)||'nul 修改'||char(0)||'x docker', tool_calls = NULL WHERE id % 5 = 2;
INSERT INTO messages(session_id, role, content, timestamp) VALUES ('s', 'user', 'native insert'||char(0)||'数据 docker', 1777640000);
`)
	nativeIntegrity(t, path)
	c := rawConn(t, path, false)
	ftsIntegrity(t, c, allFTS...)
	sqliteIntegrity(t, c)
	// Rows no native statement touched keep recall's full index (a NUL read
	// as a space); rows the native shell wrote are indexed up to their
	// first NUL, the most its SQL can do.
	untouched := storeCount(t, st, "SELECT count(*) FROM messages WHERE id <= ? AND id % 3 = 2 AND id % 5 <> 2 AND instr(content, 'docker') > 0", written)
	hits := 0
	for _, h := range search(t, st, "docker", SearchFilter{Limit: 1000}).Hits {
		if h.MessageID <= written && h.MessageID%3 == 2 && h.MessageID%5 != 2 {
			hits++
		}
	}
	if int64(hits) != untouched || untouched == 0 {
		t.Errorf("docker: %d hits among the %d rows native writes left alone", hits, untouched)
	}
	for _, q := range []string{"数据库", "修改", "native", "updated"} {
		if res := search(t, st, q, SearchFilter{}); len(res.Hits) == 0 {
			t.Errorf("%q: no hits after the native writes (%s)", q, res.Index)
		}
	}
	// recall's next write drains the native CJK rows; the native check still passes.
	if err := st.Write(context.Background(), func(tx *Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	nativeIntegrity(t, path)
}

// TestMigrationRepairsNULIndex: a database indexed by the previous recall
// (NUL bytes in messages_fts and messages_fts_trigram) is re-indexed by
// migration 1004 so the native integrity-check passes.
func TestMigrationRepairsNULIndex(t *testing.T) {
	needSQLite3(t)
	path := filepath.Join(t.TempDir(), "old.db")
	os.WriteFile(path, nil, 0o600)
	c := rawConn(t, path, false)
	c.exec("PRAGMA journal_mode=WAL")
	ms, _ := loadMigrations()
	for i, m := range ms {
		if m.version >= 1004 {
			break
		}
		if err := withWriteLock(c, path, func() error { return applyMigration(c, m, i == 0) }); err != nil {
			t.Fatal(err)
		}
	}
	// What the old triggers wrote.
	if err := c.exec(`INSERT INTO sessions(id, source, started_at) VALUES ('s', 'cli', 1);
		INSERT INTO messages(session_id, role, content, timestamp) VALUES ('s', 'user', 'hello'||char(0)||'world docker', 1),
			('s', 'user', 'plain docker', 2), ('s', 'user', char(0)||'json:[] docker', 3);`); err != nil {
		t.Fatal(err)
	}
	c.close()
	st := mustOpenPath(t, path, Options{})
	if v := storeCount(t, st, "SELECT value FROM state_meta WHERE key = 'recall_schema_version'"); v != int64(latestRecall(t)) {
		t.Fatalf("recall_schema_version = %d", v)
	}
	nativeIntegrity(t, path)
	shell(t, path, "DELETE FROM messages WHERE id = 1;")
	nativeIntegrity(t, path)
	if res := search(t, st, "docker", SearchFilter{}); len(res.Hits) != 2 {
		t.Errorf("docker: %d hits, want 2", len(res.Hits))
	}
}

// TestBulkMatchesTriggerPathHostile: the bulk path's Go copy of the
// triggers' bounded, NUL-free index text (indexField) is exact, on hostile
// bytes and right at the bounds (multi-byte and invalid UTF-8 straddling the
// 262,144th character, CJK only after the bound).
func TestBulkMatchesTriggerPathHostile(t *testing.T) {
	var msgs []Message
	for i, txt := range hostileTexts {
		msgs = append(msgs, Message{SessionID: "s", Role: "tool", Content: txt, ToolName: "t\x00" + txt[:min(len(txt), 5)], ToolCalls: txt, Timestamp: at(i)})
	}
	pad := strings.Repeat("a", indexContentChars-1)
	for i, tail := range []string{"修改数据库", "\xc3\xa9\x80\x80\x80 docker", "\xff\xfe修改"} {
		msgs = append(msgs,
			Message{SessionID: "s", Role: "tool", Content: pad + tail, Timestamp: at(100 + i)},
			Message{SessionID: "s", Role: "tool", Content: "head", ToolCalls: pad + tail, Timestamp: at(200 + i)})
	}
	msgs = append(msgs, Message{SessionID: "s", Role: "tool", Content: strings.Repeat("é", indexContentChars-2) + "é修改", Timestamp: at(300)})
	msgs = append(msgs, Message{SessionID: "s", Role: "tool", Content: "x", ToolName: strings.Repeat("名", 2000), Timestamp: at(400)})
	for _, d := range bulkVsTrigger(t, msgs) {
		t.Error(d[:min(len(d), 400)])
	}
}

// TestIndexBounds: the head of a huge message is found in all three
// indexes, text after the bound is not (but the message is stored whole),
// and a normal long message is indexed in full.
func TestIndexBounds(t *testing.T) {
	st := mustOpen(t)
	long := strings.Repeat("filler ", 30000) + "normaltail 正常尾巴" // 210,000+ characters: under the bound
	huge := "headword 头部词 " + strings.Repeat("z", indexContentChars) + " tailword 尾部词"
	seed(t, st, []fixtureSession{{id: "s", source: "cli"}}, []fixture{
		{label: "long", session: "s", role: "tool", content: long},
		{label: "huge", session: "s", role: "tool", content: huge},
	})
	for _, tc := range []struct {
		q    string
		want int
	}{{"normaltail", 1}, {"正常尾巴", 1}, {"尾巴", 1}, {"headword", 1}, {"头部词", 1}, {"头部", 1}, {"tailword", 0}, {"尾部词", 0}, {"尾部", 0}} {
		if res := search(t, st, tc.q, SearchFilter{}); len(res.Hits) != tc.want {
			t.Errorf("%q: %d hits via %s, want %d", tc.q, len(res.Hits), res.Index, tc.want)
		}
	}
	ms, err := st.Messages(context.Background(), "s")
	if err != nil || len(ms) != 2 || ms[1].Content != huge {
		t.Errorf("huge message not stored whole: %v", err)
	}
}

// TestHugeMessage: a 30 MB tool output (it panicked the whole import with
// "sqlite3: out of memory" before) is stored whole, costs the batch nothing
// else, and is searchable by its head, alone or in a batch.
func TestHugeMessage(t *testing.T) {
	st := mustOpen(t)
	huge := "hugehead " + strings.Repeat("log line with some words 0123456789\n", 30<<20/37)
	if err := st.CreateSession(context.Background(), Session{ID: "s", Source: "cli"}); err != nil {
		t.Fatal(err)
	}
	for _, batch := range [][]Message{
		{{SessionID: "s", Role: "tool", Content: huge}},
		{{SessionID: "s", Role: "user", Content: "before"}, {SessionID: "s", Role: "tool", Content: huge, ToolCalls: huge[:1<<20]}, {SessionID: "s", Role: "user", Content: "after"}},
	} {
		if _, err := st.AppendMessages(context.Background(), batch); err != nil {
			t.Fatalf("append %d messages with a %d MB one: %v", len(batch), len(huge)>>20, err)
		}
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages WHERE length(content) = ?", len(huge)); n != 2 {
		t.Errorf("%d messages stored whole, want 2", n)
	}
	if res := search(t, st, "hugehead", SearchFilter{}); len(res.Hits) != 2 {
		t.Errorf("hugehead: %d hits", len(res.Hits))
	}
	if res := search(t, st, "after", SearchFilter{}); len(res.Hits) != 1 {
		t.Errorf("the message after the huge one: %d hits", len(res.Hits))
	}
	ftsIntegrity(t, rawConn(t, st.Path(), false), allFTS...)
}

// TestMessageTooLarge: a message over MaxMessageBytes fails the whole call
// before anything is written, with ErrTooLarge and its size, and the store
// goes on writing.
func TestMessageTooLarge(t *testing.T) {
	st := mustOpen(t)
	st.CreateSession(context.Background(), Session{ID: "s", Source: "cli"})
	big := Message{SessionID: "s", Role: "tool", Content: strings.Repeat("x", MaxMessageBytes+1)}
	if err := CheckMessageSize(big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("CheckMessageSize = %v", err)
	}
	_, err := st.AppendMessages(context.Background(), []Message{{SessionID: "s", Role: "user", Content: "first"}, big})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("%d MB", MaxMessageBytes>>20)) {
		t.Errorf("append = %v", err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages"); n != 0 {
		t.Errorf("%d messages written by the failed call", n)
	}
	if _, err := st.AppendMessages(context.Background(), []Message{{SessionID: "s", Role: "user", Content: "next"}}); err != nil {
		t.Errorf("next append: %v", err)
	}
}
