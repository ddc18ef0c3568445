//go:build heavy

package synth_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// TestLargeCorpus loads 200,000 generated messages through the bulk path and
// checks the result with the native sqlite3 shell: both Hermes indexes pass
// FTS5's integrity-check, every message is indexed, and plain SQLite finds
// the planted terms at least as often as they were planted, as recall does.
func TestLargeCorpus(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("sqlite3 shell not installed")
	}
	const n = 200_000
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "large.db")
	st, err := store.Open(ctx, path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := synth.Load(ctx, st, synth.Options{Messages: n, Seed: 1}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range synth.BenchQueries {
		res, err := st.SearchMessages(ctx, q.Query, store.SearchFilter{Limit: 50})
		if err != nil {
			t.Fatalf("%s: %v", q.Query, err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("recall: %s (%s) found nothing in %d messages", q.Query, q.Kind, n)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	native := func(sql string) string {
		t.Helper()
		out, err := exec.Command("sqlite3", path, sql).CombinedOutput()
		if err != nil {
			t.Fatalf("sqlite3 %q: %v\n%s", sql, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	count := func(sql string) int {
		t.Helper()
		v, err := strconv.Atoi(native(sql))
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return v
	}
	if got := native("PRAGMA integrity_check"); got != "ok" {
		t.Fatalf("integrity_check: %s", got)
	}
	for _, tbl := range []string{"messages_fts", "messages_fts_trigram", "recall_fts_cjk"} {
		native("INSERT INTO " + tbl + "(" + tbl + ") VALUES('integrity-check')")
	}
	if got := count("SELECT count(*) FROM messages"); got != n {
		t.Errorf("messages: %d, want %d", got, n)
	}
	if got := count("SELECT count(*) FROM messages_fts"); got != n {
		t.Errorf("messages_fts rows: %d, want %d", got, n)
	}
	if got := count("SELECT count(*) FROM messages_fts_trigram"); got != n {
		t.Errorf("messages_fts_trigram rows: %d, want %d", got, n)
	}
	for term, sql := range map[string]string{
		"brontide":           "SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'brontide'",
		"connection refused": `SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '"connection refused"'`,
		"内存泄漏":               `SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '"内存泄漏"'`,
		"修改youer服务端":         `SELECT count(*) FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '"修改youer服务端"'`,
	} {
		if got, want := count(sql), synth.PlantedCount(term, n); got < want {
			t.Errorf("native %s: %d matches, planted %d", term, got, want)
		}
	}
}
