package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// replacer is a TextRedactor for the store's tests: it replaces the words
// it is given (recall/secrets is the real one; it imports this package).
type replacer []string

func (r replacer) Text(s string) string {
	for _, w := range r {
		s = strings.ReplaceAll(s, w, "[REDACTED:test]")
	}
	return s
}
func (r replacer) JSON(s string) string { return r.Text(s) }
func (r replacer) Found(s string) []string {
	var out []string
	for _, w := range r {
		if strings.Contains(s, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestRedactStored: the rows, every full-text index and the file lose the
// secrets; titles that become the same are numbered (Hermes keeps them
// unique); the native shell finds the file sound and the text nowhere.
func TestRedactStored(t *testing.T) {
	needSQLite3(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "recall.db")
	st := mustOpenPath(t, path, Options{Create: true})
	const secret, cjk = "sk_live_RedactStored4a7Q9zXw1Lm3", "秘密口令数据库迁移龙"
	if err := st.Write(ctx, func(tx *Tx) error {
		for _, s := range []Session{{ID: "a", Source: "claude", Title: "key " + secret}, {ID: "b", Source: "claude", Title: "key " + cjk}} {
			if err := tx.UpsertSession(s); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages([]Message{
			{SessionID: "a", Role: "user", Content: "deploy with " + secret},
			{SessionID: "a", Role: "assistant", ToolCalls: `[{"name":"Bash","arguments":"{\"command\":\"export K=` + secret + `\"}"}]`, Reasoning: "the key " + secret},
			{SessionID: "b", Role: "user", Content: "口令是 " + cjk},
			{SessionID: "b", Role: "assistant", Content: "nothing secret here"},
		})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var steps int
	res, err := st.RedactStored(ctx, replacer{secret, cjk}, func(done, total int64) { steps++ })
	if err != nil {
		t.Fatal(err)
	}
	if res.Messages != 3 || res.Sessions != 2 || res.Scanned != 4 || res.Left != 0 || steps == 0 {
		t.Errorf("RedactStored = %+v (%d progress calls)", res, steps)
	}
	for _, q := range []string{secret, "RedactStored4a7Q9zXw1Lm3", cjk, "数据库迁移"} {
		if r, err := st.SearchMessages(ctx, q, SearchFilter{}); err != nil || len(r.Hits) != 0 {
			t.Errorf("search %q after redact: %d hits, %v", q, len(r.Hits), err)
		}
	}
	if r, err := st.SearchMessages(ctx, "deploy", SearchFilter{}); err != nil || len(r.Hits) != 1 {
		t.Errorf("search deploy after redact: %v, %v", r.Hits, err)
	}
	titles := storeCount(t, st, "SELECT count(DISTINCT title) FROM sessions WHERE title LIKE 'key [REDACTED:test]%'")
	if titles != 2 {
		t.Errorf("%d distinct redacted titles, want 2 (the second numbered)", titles)
	}
	st.Close()
	out := shell(t, path, `PRAGMA integrity_check;
INSERT INTO messages_fts(messages_fts) VALUES('integrity-check');
INSERT INTO messages_fts_trigram(messages_fts_trigram) VALUES('integrity-check');
INSERT INTO recall_fts_cjk(recall_fts_cjk) VALUES('integrity-check');
SELECT count(*) FROM messages WHERE content LIKE '%[REDACTED:test]%';
`)
	if out != "ok\n2\n" {
		t.Errorf("sqlite3 shell after redact: %q", out)
	}
	fileLacks(t, path, "RedactStored4a7Q9zXw1Lm3", cjk)
}

// With a redactor set, what is written is redacted before it is stored.
func TestRedactAtWrite(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t)
	st.SetRedactor(replacer{"hunter2secret"})
	if err := st.Write(ctx, func(tx *Tx) error {
		if err := tx.UpsertSession(Session{ID: "s", Source: "x", Title: "pw hunter2secret"}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]Message{{SessionID: "s", Role: "user", Content: "the pw is hunter2secret", Reasoning: "hunter2secret"}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM messages WHERE content LIKE '%hunter2%' OR reasoning LIKE '%hunter2%'"); n != 0 {
		t.Errorf("%d rows hold the secret", n)
	}
	if n := storeCount(t, st, "SELECT count(*) FROM sessions WHERE title = 'pw [REDACTED:test]'"); n != 1 {
		t.Errorf("title not redacted")
	}
}
