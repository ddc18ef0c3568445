package importer_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"

	"github.com/recall-dev/recall/store/importer/copilot"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
	"github.com/recall-dev/recall/store/importer/jsonl"
	"github.com/recall-dev/recall/store/importer/qwen"
)

// bySourceID keys a dump by (source, the source's own id): what a session
// is, whatever id it is stored under.
func bySourceID(d map[string]it.Session) map[string]it.Session {
	out := map[string]it.Session{}
	for _, s := range d {
		out[s.Source+" "+s.NativeID] = s
	}
	return out
}

func texts(s it.Session) string {
	var c []string
	for _, m := range s.Msgs {
		c = append(c, m.Content)
	}
	return strings.Join(c, " | ")
}

// TestIdentityJSONL: two generic files whose records name the same
// session_id under two sources are two sessions, in their own order; so
// are both in one file, and a record without a source joins the session
// its id was last named with.
func TestIdentityJSONL(t *testing.T) {
	dir := t.TempDir()
	line := func(src, content string, ts int) string {
		s := ""
		if src != "" {
			s = fmt.Sprintf(`,"source":%q`, src)
		}
		return fmt.Sprintf(`{"session_id":"s1","role":"user","content":%q,"timestamp":%d%s}`+"\n", content, 1784278800+ts, s)
	}
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	it.Write(t, a, line("toolA", "A first", 0)+line("toolA", "A second", 20))
	it.Write(t, b, line("toolB", "B first", 10)+line("toolB", "B second", 30))
	st := it.Open(t)
	it.Run(t, st, jsonl.Source{}, a)
	it.Run(t, st, jsonl.Source{}, b)
	d := bySourceID(it.Dump(t, st))
	if len(d) != 2 || texts(d["toolA s1"]) != "A first | A second" || texts(d["toolB s1"]) != "B first | B second" {
		t.Fatalf("two files, two sources: %v", d)
	}
	if d["toolA s1"].ID != "s1" || d["toolB s1"].ID != "s1@toolB" {
		t.Errorf("stored ids %s, %s; want s1 and s1@toolB", d["toolA s1"].ID, d["toolB s1"].ID)
	}
	// Appended lines without a source join the session their file named.
	it.Append(t, b, line("", "B third", 40))
	it.Run(t, st, jsonl.Source{}, b)
	it.Run(t, st, jsonl.Source{}, a, b) // again: nothing twice
	d = bySourceID(it.Dump(t, st))
	if len(d) != 2 || texts(d["toolB s1"]) != "B first | B second | B third" || texts(d["toolA s1"]) != "A first | A second" {
		t.Errorf("after appending to b: %v", d)
	}

	// One file, both sources, interleaved.
	c := filepath.Join(dir, "c.jsonl")
	it.Write(t, c, line("toolA", "A first", 0)+line("toolB", "B first", 10)+line("", "B again", 15)+line("toolA", "A second", 20))
	st2 := it.Open(t)
	it.Run(t, st2, jsonl.Source{}, c)
	d = bySourceID(it.Dump(t, st2))
	if len(d) != 2 || texts(d["toolA s1"]) != "A first | A second" || texts(d["toolB s1"]) != "B first | B again" {
		t.Errorf("one file, two sources: %v", d)
	}
	f, err := os.Open(c)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st3 := it.Open(t)
	if _, err := jsonl.ImportReader(context.Background(), st3, "-", f); err != nil {
		t.Fatal(err)
	}
	if d := bySourceID(it.Dump(t, st3)); len(d) != 2 || texts(d["toolB s1"]) != "B first | B again" {
		t.Errorf("standard input, two sources: %v", d)
	}
}

// importAgents imports the Copilot CLI and Qwen Code fixtures, whose
// sessions share ids (11111111-…), in the order given.
func importAgents(t *testing.T, st *store.Store, order ...string) {
	t.Helper()
	for _, a := range order {
		switch a {
		case "copilot-cli":
			it.Run(t, st, &copilot.Source{}, it.AgentHome(t, "copilot-cli"))
		case "qwen-code":
			it.Run(t, st, &qwen.Source{}, it.AgentHome(t, "qwen-code"))
		}
	}
}

// TestIdentityAgentFixtures: Copilot CLI and Qwen Code name their sessions
// alike; in either order, each keeps its own sessions, messages and source.
func TestIdentityAgentFixtures(t *testing.T) {
	want := map[string]string{}
	for _, a := range []string{"copilot-cli", "qwen-code"} {
		st := it.Open(t)
		importAgents(t, st, a)
		for k, s := range bySourceID(it.Dump(t, st)) {
			want[k] = texts(s)
		}
	}
	if len(want) != 10 {
		t.Fatalf("the fixtures alone hold %d sessions, want 5 + 5", len(want))
	}
	for _, order := range [][]string{{"copilot-cli", "qwen-code"}, {"qwen-code", "copilot-cli"}} {
		st := it.Open(t)
		importAgents(t, st, order...)
		importAgents(t, st, order...) // again: nothing twice
		got := bySourceID(it.Dump(t, st))
		if len(got) != 10 {
			t.Errorf("%v: %d sessions, want 10: %v", order, len(got), it.IDs(it.Dump(t, st)))
		}
		for k, w := range want {
			if c := texts(got[k]); c != w {
				t.Errorf("%v: %s\n got: %s\nwant: %s", order, k, c, w)
			}
		}
		stats, err := st.Stats(context.Background())
		if err != nil || stats.Sources["copilot-cli"] != 5 || stats.Sources["qwen-code"] != 5 {
			t.Errorf("%v: stats by source %v, %v", order, stats.Sources, err)
		}
	}
}

// TestIdentitySplitsMergedSessions: a database an older recall wrote, in
// which Qwen Code's sessions were merged into Copilot CLI's of the same
// ids (and took their source), is migrated, and the next import of the
// two sources splits every one of them: each session holds its own
// messages, as a fresh import gives them.
func TestIdentitySplitsMergedSessions(t *testing.T) {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		t.Skip("native sqlite3 shell not installed")
	}
	ref := it.Open(t)
	importAgents(t, ref, "copilot-cli", "qwen-code")
	want := map[string]string{}
	for k, s := range bySourceID(it.Dump(t, ref)) {
		want[k] = texts(s)
	}

	path := filepath.Join(t.TempDir(), "old.db")
	st, err := store.Open(context.Background(), path, store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	importAgents(t, st, "copilot-cli", "qwen-code")
	st.Close()
	// What recall before migration 1030 left: the second source's
	// messages, keys and file lists in the first one's session, whose
	// source the second one's update took.
	sqlite(t, path, `
		CREATE TEMP TABLE q AS SELECT id, native_id FROM recall_session_identity;
		UPDATE messages SET session_id = (SELECT native_id FROM q WHERE q.id = messages.session_id) WHERE session_id IN (SELECT id FROM q);
		UPDATE OR IGNORE recall_message_keys SET key = (SELECT native_id FROM q WHERE key >= q.id || char(0) AND key < q.id || char(1))
			|| substr(key, instr(key, char(0))) WHERE EXISTS (SELECT 1 FROM q WHERE key >= q.id || char(0) AND key < q.id || char(1));
		DELETE FROM recall_message_keys WHERE EXISTS (SELECT 1 FROM q WHERE key >= q.id || char(0) AND key < q.id || char(1));
		UPDATE recall_import_files SET sessions = (SELECT group_concat(COALESCE((SELECT native_id FROM q WHERE q.id = value), value), ' ')
			FROM json_each('["' || replace(sessions, ' ', '","') || '"]'));
		UPDATE sessions SET parent_session_id = (SELECT native_id FROM q WHERE q.id = parent_session_id) WHERE parent_session_id IN (SELECT id FROM q);
		UPDATE sessions SET source = 'qwen-code' WHERE id IN (SELECT native_id FROM q);
		DELETE FROM sessions WHERE id IN (SELECT id FROM q);
		DROP TABLE recall_session_identity;
		DROP TABLE recall_identity_recheck;
		ALTER TABLE recall_pending_parents DROP COLUMN parent_source;
		UPDATE state_meta SET value = '1026' WHERE key = 'recall_schema_version';`)
	if n := sqlite(t, path, "SELECT count(*) FROM sessions;"); n != "6\n" {
		t.Fatalf("the old database holds %s sessions, want 6 (4 merged)", n)
	}

	st, err = store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s, err := st.Stats(context.Background()); err != nil || s.FilesToRecheck == 0 {
		t.Fatalf("after migration: %d files to read again, %v", s.FilesToRecheck, err)
	}
	importAgents(t, st, "qwen-code", "copilot-cli")
	got := bySourceID(it.Dump(t, st))
	if len(got) != 10 {
		t.Errorf("%d sessions after the split, want 10: %v", len(got), it.IDs(it.Dump(t, st)))
	}
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if c := texts(got[k]); c != want[k] {
			t.Errorf("%s\n got: %s\nwant: %s", k, c, want[k])
		}
	}
	if s, err := st.Stats(context.Background()); err != nil || s.FilesToRecheck != 0 || s.Messages != mustStats(t, ref).Messages {
		t.Errorf("after the split: %d files to read again, %d messages (want %d), %v", s.FilesToRecheck, s.Messages, mustStats(t, ref).Messages, err)
	}
}

func mustStats(t *testing.T, st *store.Store) store.Stats {
	t.Helper()
	s, err := st.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sqlite runs sql on path in the native shell.
func sqlite(t *testing.T, path, sql string) string {
	t.Helper()
	cmd := exec.Command("sqlite3", "-batch", "-bail", path)
	cmd.Stdin = strings.NewReader(sql)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("sqlite3: %v: %s", err, errb.String())
	}
	return out.String()
}
