package store

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

func TestWasmProbe2(t *testing.T) {
	if os.Getenv("WPROBE") == "" {
		t.Skip()
	}
	initSQLite()
	rng := rand.New(rand.NewSource(1))
	var lines []string
	files, _ := filepath.Glob("/usr/local/go/src/net/http/*.go")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		for _, l := range strings.Split(string(b), "\n") {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	rows := make([]string, 10000)
	for i := range rows {
		s := ""
		for len(s) < 300 {
			s += lines[rng.Intn(len(lines))] + " "
		}
		rows[i] = s
	}
	variants := map[string][2]string{
		"explicit-rowid": {"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram')", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"trigger":        {"CREATE TABLE m(id INTEGER PRIMARY KEY AUTOINCREMENT, c TEXT); CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram'); CREATE TRIGGER ti AFTER INSERT ON m BEGIN INSERT INTO t(rowid, content) VALUES (new.id, new.c); END", "INSERT INTO m(c) VALUES (?1)"},
		"direct-hash64":  {"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram'); INSERT INTO t(t, rank) VALUES('hashsize', 67108864)", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"direct-am0":     {"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram'); INSERT INTO t(t, rank) VALUES('automerge', 0)", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"direct-hash64-am0":     {"CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram'); INSERT INTO t(t, rank) VALUES('automerge', 0); INSERT INTO t(t, rank) VALUES('hashsize', 67108864)", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"direct-uni-prefix":     {"CREATE VIRTUAL TABLE t USING fts5(content, prefix='1 2 3')", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"direct-uni-prefix-hash64":     {"CREATE VIRTUAL TABLE t USING fts5(content, prefix='1 2 3'); INSERT INTO t(t, rank) VALUES('hashsize', 67108864)", "INSERT INTO t(rowid, content) VALUES (?2, ?1)"},
		"trigger-concat": {"CREATE TABLE m(id INTEGER PRIMARY KEY AUTOINCREMENT, c TEXT, tn TEXT, tc TEXT); CREATE VIRTUAL TABLE t USING fts5(content, tokenize='trigram'); CREATE TRIGGER ti AFTER INSERT ON m BEGIN INSERT INTO t(rowid, content) VALUES (new.id, COALESCE(new.c,'') || ' ' || COALESCE(new.tn,'') || ' ' || COALESCE(new.tc,'')); END", "INSERT INTO m(c) VALUES (?1)"},
	}
	for name, v := range variants {
		db, _ := sqlite3.Open(filepath.Join(t.TempDir(), name))
		db.Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
		if err := db.Exec(v[0]); err != nil {
			t.Fatal(err)
		}
		st, _, err := db.Prepare(v[1])
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		db.Exec("BEGIN")
		for i, r := range rows {
			st.BindText(1, r)
			if st.BindCount() > 1 {
				st.BindInt(2, i+1)
			}
			if err := st.Exec(); err != nil {
				t.Fatal(err)
			}
		}
		db.Exec("COMMIT")
		t.Logf("%s: %.0f msg/s", name, 10000/time.Since(t0).Seconds())
		st.Close()
		db.Close()
	}
}
