package hermes

import (
	"bytes"
	"context"
	osexec "os/exec"
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
	it "github.com/recall-dev/recall/store/importer/internal/importtest"
)

// The fixture's rows, as recall copies them (ids 1-8 are sA's, 5 rewound
// before recall ever saw it; 9-10 sB's).
var (
	a1 = wantA[0]
	a2 = wantA[1]
	a3 = wantA[2]
	a4 = wantA[3]
	a6 = wantA[4]
	a7 = wantA[5]
	a8 = wantA[6] // compacted
	b1 = wantB[0]
	b2 = wantB[1]
)

func earlier(m it.Msg) it.Msg {
	m.Kind = store.DisplayKindEarlier
	return m
}

// TestTakenBackTextKept: whatever Hermes does to a conversation recall has
// copied (a rewind, /undo, /retry and /compress through replace_messages,
// an edit), recall's copy reads as Hermes shows it now and every text it
// held stays, findable, as an earlier version; stats and the import count
// them; importing again adds nothing. Before, the session was deleted and
// copied again, and what Hermes had taken back was gone from recall.
func TestTakenBackTextKept(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes []string // run by Hermes after the first import, each followed by an import
		session string
		want    []it.Msg // every row of the session, in order
		live    int      // its message_count: what Hermes shows
		found   string   // a query that finds an earlier version only
		// rewritten is how many earlier versions the last import kept.
		rewritten int
	}{
		{
			// rewind_to_message: active=0 from the target on.
			name: "rewind",
			changes: []string{`UPDATE messages SET active = 0 WHERE session_id = '` + sA + `' AND id >= 6 AND active = 1;
				UPDATE sessions SET rewind_count = rewind_count + 1, message_count = 4 WHERE id = '` + sA + `'`},
			session: sA, want: []it.Msg{a1, a2, a3, a4, earlier(a6), earlier(a7), a8}, live: 4,
			found: "restarted", rewritten: 2,
		},
		{
			// restore_rewound brings back the two recall kept and the one
			// rewound before recall's first import, in Hermes's order.
			name: "rewind then restore",
			changes: []string{
				`UPDATE messages SET active = 0 WHERE session_id = '` + sA + `' AND id >= 6 AND active = 1;
					UPDATE sessions SET rewind_count = rewind_count + 1 WHERE id = '` + sA + `'`,
				`UPDATE messages SET active = 1 WHERE session_id = '` + sA + `' AND active = 0 AND compacted = 0;
					UPDATE sessions SET message_count = 7 WHERE id = '` + sA + `'`,
			},
			session: sA, want: []it.Msg{a1, a2, a3, a4, {Role: "user", Content: "kill -9 everything?"}, a6, a7, a8}, live: 7,
		},
		{
			// /retry: replace_messages deletes the session's rows and
			// inserts them again under new ids and times, the last answer
			// regenerated.
			name: "retry",
			changes: []string{`DELETE FROM messages WHERE session_id = '` + sB + `';
				INSERT INTO messages(session_id, role, content, timestamp) VALUES ('` + sB + `', 'user', 'Check which process holds port 3000.', 1781256100.0);
				INSERT INTO messages(session_id, role, content, timestamp, token_count, finish_reason) VALUES
					('` + sB + `', 'assistant', 'PID 5120 (node /srv/app/current/server.js) holds port 3000.', 1781256101.0, 19, 'stop')`},
			session: sB, want: []it.Msg{b1, earlier(b2), {Role: "assistant", Content: "PID 5120 (node /srv/app/current/server.js) holds port 3000.", Finish: "stop", Tokens: 19}},
			live: 2, found: "4121", rewritten: 1,
		},
		{
			// /undo: replace_messages without the last exchange (timestamps
			// kept, bumped by a microsecond).
			name: "undo",
			changes: []string{`CREATE TEMP TABLE kept AS SELECT * FROM messages WHERE session_id = '` + sA + `' AND id <= 4;
				DELETE FROM messages WHERE session_id = '` + sA + `';
				INSERT INTO messages(session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp, token_count, finish_reason, reasoning)
					SELECT session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp + 0.000001, token_count, finish_reason, reasoning FROM kept ORDER BY id;
				UPDATE sessions SET message_count = 4 WHERE id = '` + sA + `'`},
			session: sA, want: []it.Msg{a1, a2, a3, a4, earlier(a6), earlier(a7), earlier(a8)}, live: 4,
			found: "restarted", rewritten: 3,
		},
		{
			// /compress: a summary first, then the recent turns again.
			name: "compress",
			changes: []string{`CREATE TEMP TABLE kept AS SELECT * FROM messages WHERE session_id = '` + sA + `' AND id IN (6, 7);
				DELETE FROM messages WHERE session_id = '` + sA + `';
				INSERT INTO messages(session_id, role, content, timestamp) VALUES ('` + sA + `', 'user', 'Summary: a stale process held port 3000 after the deploy.', 1781257600.0);
				INSERT INTO messages(session_id, role, content, timestamp, token_count, finish_reason)
					SELECT session_id, role, content, timestamp + 0.000001, token_count, finish_reason FROM kept ORDER BY id`},
			session: sA, want: []it.Msg{earlier(a1), earlier(a2), earlier(a3), earlier(a4),
				{Role: "user", Content: "Summary: a stale process held port 3000 after the deploy."}, a6, a7, earlier(a8)},
			live: 3, found: "EADDRINUSE", rewritten: 5,
		},
		{
			// A row edited in place (no Hermes command does; another tool
			// may), noticed with a rewind in the same session.
			name: "edit",
			changes: []string{`UPDATE messages SET content = 'Port 3000 is held by PID 4121: run systemctl restart app.' WHERE id = 4;
				UPDATE messages SET active = 0 WHERE id = 7;
				UPDATE sessions SET rewind_count = rewind_count + 1 WHERE id = '` + sA + `'`},
			session: sA, want: []it.Msg{a1, a2, a3, earlier(a4), {Role: "assistant", Content: "Port 3000 is held by PID 4121: run systemctl restart app.", Finish: "stop", Tokens: 40},
				a6, earlier(a7), a8},
			live: 5, found: `"still held"`, rewritten: 2,
		},
		{
			// A session Hermes deleted (pruned) stays as recall had it.
			name:    "session deleted",
			changes: []string{`DELETE FROM messages WHERE session_id = '` + sC + `'; DELETE FROM sessions WHERE id = '` + sC + `'`},
			session: sC, want: wantC, live: 2,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, w := hermesDB(t, t.TempDir())
			st := it.Open(t)
			ctx := context.Background()
			rep := it.Run(t, st, &Source{}, path)
			for _, sql := range tc.changes {
				exec(t, w, sql)
				rep = it.Run(t, st, &Source{}, path)
			}
			if rep.Rewritten != tc.rewritten || rep.Failed != 0 || len(rep.Problems) != 0 {
				t.Errorf("import report %+v: want %d rewritten", rep, tc.rewritten)
			}
			before := it.Dump(t, st)
			it.SameMsgs(t, tc.session, before[tc.session].Msgs, tc.want)
			if sess, err := st.Session(ctx, tc.session); err != nil || sess.MessageCount != tc.live {
				t.Errorf("message_count %d (%v), want %d as Hermes shows", sess.MessageCount, err, tc.live)
			}
			kept := 0
			for _, s := range before {
				for _, m := range s.Msgs {
					if m.Kind == store.DisplayKindEarlier {
						kept++
					}
				}
			}
			if s, err := st.Stats(ctx); err != nil || s.MessagesRewritten != int64(kept) {
				t.Errorf("stats: %d messages_rewritten (%v), want %d", s.MessagesRewritten, err, kept)
			}
			if tc.found != "" {
				res, err := st.SearchMessages(ctx, tc.found, store.SearchFilter{})
				if err != nil || len(res.Hits) != 1 || res.Hits[0].DisplayKind != store.DisplayKindEarlier {
					t.Errorf("search %s: %+v (%v), want the one earlier version", tc.found, res.Hits, err)
				}
			}

			// Nothing changed: nothing added.
			if rep := it.Run(t, st, &Source{}, path); rep.Unchanged != 1 || rep.Messages != 0 || rep.Rewritten != 0 {
				t.Errorf("re-import: %+v", rep)
			}
			// Lost bookkeeping compares every session afresh: still nothing.
			err := st.Write(ctx, func(tx *store.Tx) error {
				f, _, err := tx.ImportFile(path)
				f.State = "{"
				if err == nil {
					err = tx.SetImportFile(f)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep := it.Run(t, st, &Source{}, path); rep.Messages != 0 || rep.Rewritten != 0 {
				t.Errorf("import without bookkeeping: %+v", rep)
			}
			after := it.Dump(t, st)
			for id, s := range before {
				it.SameMsgs(t, "again "+id, after[id].Msgs, s.Msgs)
			}
		})
	}
}

// TestEarlierVersionInNativeSQLite: the text a rewind took back is in the
// recall database's full-text index as plain SQLite reads it, marked.
func TestEarlierVersionInNativeSQLite(t *testing.T) {
	if _, err := osexec.LookPath("sqlite3"); err != nil {
		t.Skip("native sqlite3 shell not installed")
	}
	path, w := hermesDB(t, t.TempDir())
	st := it.Open(t)
	it.Run(t, st, &Source{}, path)
	exec(t, w, `UPDATE messages SET active = 0 WHERE session_id = '`+sA+`' AND id >= 6 AND active = 1;
		UPDATE sessions SET rewind_count = rewind_count + 1 WHERE id = '`+sA+`'`)
	it.Run(t, st, &Source{}, path)
	cmd := osexec.Command("sqlite3", "-batch", "-bail", st.Path())
	cmd.Stdin = strings.NewReader(`SELECT m.role, m.active, m.compacted, m.display_kind FROM messages_fts
		JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH 'restarted';`)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("sqlite3: %v: %s", err, errb.String())
	}
	if got := strings.TrimSpace(out.String()); got != "user|0|1|earlier" {
		t.Errorf("native sqlite3 finds %q, want the earlier version (user|0|1|earlier)", got)
	}
}
