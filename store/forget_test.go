package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForget: forgetting a session and one message of another deletes
// them for real (rows, the three FTS indexes, secure_delete; the native
// sqlite3 shell finds the text nowhere and the file passes its integrity
// checks), and importing them again (same source keys, or same text
// without keys) brings nothing back.
func TestForget(t *testing.T) {
	needSQLite3(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	st := mustOpenPath(t, path, Options{Create: true})
	const secret = "sk-live-Forget4a7Q9zXw1Lm3Np5Rt"
	const cjkSecret = "秘密口令数据库迁移龙"
	sessions := []Session{{ID: "keep", Source: "claude"}, {ID: "gone", Source: "claude"}, {ID: "child", Source: "claude", ParentID: "gone"}}
	msgs := func() []Message {
		return []Message{
			{SessionID: "keep", Role: "user", Content: "deploy the api", SourceKey: "k1"},
			{SessionID: "keep", Role: "assistant", Content: "export OPENAI_API_KEY=" + secret, SourceKey: "k2"},
			{SessionID: "keep", Role: "assistant", Content: "no key for this one " + secret + " again"},
			{SessionID: "gone", Role: "user", Content: "the password is " + cjkSecret + " " + secret, SourceKey: "g1"},
			{SessionID: "gone", Role: "assistant", Content: "noted", SourceKey: "g2"},
			{SessionID: "child", Role: "user", Content: "continue", SourceKey: "c1"},
		}
	}
	importAll := func() []Message {
		m := msgs()
		if err := st.Write(ctx, func(tx *Tx) error {
			for _, s := range sessions {
				if err := tx.UpsertSession(s); err != nil {
					return err
				}
			}
			_, err := tx.InsertMessages(m)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := importAll()
	res, err := st.Forget(ctx, []string{"gone"}, []int64{m[1].ID, m[2].ID}, ForgetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sessions != 1 || res.Messages != 4 {
		t.Errorf("Forget = %+v, want 1 session, 4 messages", res)
	}
	// Import everything again: nothing forgotten comes back.
	again := importAll()
	for i, msg := range again {
		if i != 0 && i != 5 && msg.ID != 0 {
			t.Errorf("message %d (%.30q) came back as row %d", i, msg.Content, msg.ID)
		}
	}
	if n := storeCount(t, st, "SELECT count(*) FROM sessions WHERE id = 'gone'"); n != 0 {
		t.Error("the forgotten session came back")
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages"); n != 2 {
		t.Errorf("%d messages left, want 2", n)
	}
	for _, q := range []string{secret, "Forget4a7Q9zXw1Lm3Np5Rt", cjkSecret, "password"} {
		if r, err := st.SearchMessages(ctx, q, SearchFilter{}); err != nil || len(r.Hits) != 0 {
			t.Errorf("search %q after forget: %d hits, %v", q, len(r.Hits), err)
		}
	}
	st.Close()

	// The native shell: integrity, every index, and not a byte of the text in the files.
	out := shell(t, path, `PRAGMA integrity_check;
INSERT INTO messages_fts(messages_fts) VALUES('integrity-check');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES('integrity-check');
INSERT INTO recall_fts_cjk(recall_fts_cjk) VALUES('integrity-check');
SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '"Forget4a7Q9zXw1Lm3Np5Rt"';
SELECT count(*) FROM messages_fts_trigram WHERE content LIKE '%Forget4a7Q9%';
SELECT parent_session_id IS NULL FROM sessions WHERE id = 'child';
`)
	if out != "ok\n0\n0\n1\n" {
		t.Errorf("sqlite3 shell after forget: %q", out)
	}
	fileLacks(t, path, "Forget4a7Q9zXw1Lm3Np5Rt", "Lm3Np5", cjkSecret, "password is")
}

// TestForgetNeedsTombstones: an unmigrated file is refused, not half-forgotten.
func TestForgetNeedsTombstones(t *testing.T) {
	st := mustOpen(t)
	st.layout.hasForgotten = false
	if _, err := st.Forget(context.Background(), []string{"x"}, nil, ForgetOptions{}); err == nil || !strings.Contains(err.Error(), "recall migrate") {
		t.Errorf("Forget without the table: %v", err)
	}
	_ = fmt.Sprint()
}

// fileLacks fails the test when the database file at path or its WAL holds
// any of needles: what a delete or a rewrite must leave nowhere.
func fileLacks(t *testing.T, path string, needles ...string) {
	t.Helper()
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, needle := range needles {
			if bytes.Contains(b, []byte(needle)) {
				t.Errorf("%s still holds %q", filepath.Base(f), needle)
			}
		}
	}
}
