package opencode

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// dbState is the bookkeeping saved in the database's import-file row: the
// signature of the file and its WAL at the last complete run, and per
// session a hash of its row and of its messages' and parts' count and
// newest update, so that a run reads only the sessions that changed.
type dbState struct {
	V        int                `json:"v,omitempty"` // dbVersion of the run that wrote it
	Sig      sqlitero.Signature `json:"sig"`
	Sessions map[string]string  `json:"s"`
}

// dbVersion changes whenever the same rows make different sessions, so a
// database an older recall imported is read again in full (message keys
// keep it from duplicating anything). 1: a fork is marked _branched_from,
// listed as a conversation of its own.
const dbVersion = 1

// sessionChunk is how many changed sessions one target transaction holds.
var sessionChunk = 200

// sessionRow is one row of the session table with the change hash.
type sessionRow struct {
	id, parent, title, dir, model, agent string
	created, updated, archived           int64
	tok                                  tokens
	cost                                 float64
	hash                                 string
}

func (s *Source) importDB(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var rep importer.Report
	t0 := time.Now()
	sig, fi, err := sqlitero.SignatureOf(file)
	if err != nil {
		return rep, err
	}
	var prev dbState
	unchanged := false
	err = st.Write(ctx, func(tx *store.Tx) error {
		rec, ok, err := tx.ImportFile(file)
		if err != nil || !ok || rec.Source != s.name {
			return err
		}
		if rec.State != "" && json.Unmarshal([]byte(rec.State), &prev) != nil {
			prev = dbState{} // unreadable bookkeeping: read again (message keys prevent duplicates)
		}
		if prev.V != dbVersion {
			prev = dbState{} // imported by an older recall: every session again
		}
		unchanged = prev.Sig == sig
		return nil
	})
	if err != nil || unchanged {
		if unchanged {
			rep.Unchanged = 1
		}
		return rep, err
	}
	if prev.Sessions == nil {
		prev.Sessions = map[string]string{}
	}
	db, err := sqlitero.Open(ctx, file)
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	defer db.Close()

	var rows []sessionRow
	changed := map[string][]message{}
	var order []string
	forks := map[string]string{}
	err = db.Read(func() error {
		cols, err := db.Columns("session")
		if err != nil {
			return err
		}
		if !cols["id"] || !cols["title"] {
			return fmt.Errorf("%s is not an %s database (no session table)", file, s.name)
		}
		rows, err = readSessions(db, cols)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if prev.Sessions[r.id] == r.hash {
				continue
			}
			msgs, err := readMessages(db, r.id)
			if err != nil {
				return err
			}
			changed[r.id] = msgs
			order = append(order, r.id)
			if p, err := forkOrigin(db, r, msgs); err != nil {
				return err
			} else if p != "" {
				forks[r.id] = p
			}
		}
		return nil
	})
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	rep.ParseTime += time.Since(t0)

	known := map[string]bool{}
	for _, r := range rows {
		known[r.id] = true
	}
	byID := map[string]sessionRow{}
	for _, r := range rows {
		byID[r.id] = r
	}
	state := dbState{V: dbVersion, Sig: prev.Sig, Sessions: map[string]string{}}
	for k, v := range prev.Sessions {
		state.Sessions[k] = v
	}
	for start := 0; start < len(order); start += sessionChunk {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		t1 := time.Now()
		ids := order[start:min(start+sessionChunk, len(order))]
		var sessions []store.Session
		var msgs []store.Message
		skipped := 0
		for _, id := range ids {
			r := byID[id]
			sess, m, sk := s.build(r, changed[id], forks[id], known)
			sessions = append(sessions, sess)
			msgs = append(msgs, m...)
			skipped += sk
		}
		msgs = importer.DropTooLarge(msgs, file, &rep)
		next := dbState{V: dbVersion, Sig: state.Sig, Sessions: map[string]string{}}
		for k, v := range state.Sessions {
			next.Sessions[k] = v
		}
		for _, id := range ids {
			next.Sessions[id] = byID[id].hash
		}
		last := start+sessionChunk >= len(order)
		if last {
			next.Sig = sig
		}
		inserted := 0
		err := st.Write(ctx, func(tx *store.Tx) error {
			if err := importer.WriteSessions(tx, sessions, true); err != nil {
				return err
			}
			// What the app no longer has (a reverted message, a deleted
			// session) stays in recall.
			keep := msgs
			for _, id := range ids {
				var err error
				if keep, err = tx.KeepDropped(id, keep); err != nil {
					return err
				}
			}
			n, err := tx.InsertMessages(keep)
			if err != nil {
				return fmt.Errorf("insert messages: %w", err)
			}
			inserted = n
			return s.saveDB(tx, file, fi, next)
		})
		if err != nil {
			return rep, err
		}
		state = next
		rep.Sessions += len(ids)
		rep.Messages += inserted
		rep.SkipN("message parts recall does not import", skipped)
		rep.WriteTime += time.Since(t1)
	}
	if len(order) == 0 {
		state.Sig = sig
		if err := st.Write(ctx, func(tx *store.Tx) error { return s.saveDB(tx, file, fi, state) }); err != nil {
			return rep, err
		}
	}
	rep.Files = 1
	return rep, nil
}

func (s *Source) saveDB(tx *store.Tx, file string, fi os.FileInfo, st dbState) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(st.Sessions))
	for id := range st.Sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	// The database's row names its sessions, so that `stats` and the TUI
	// can tell when the app deleted the file.
	return tx.SetImportFile(store.ImportFile{Path: file, Source: s.name, Size: fi.Size(), ModTime: fi.ModTime(), State: string(raw),
		Sessions: strings.Join(ids, " ")})
}

// build makes the recall session and messages of one OpenCode session.
func (s *Source) build(r sessionRow, msgs []message, fork string, known map[string]bool) (store.Session, []store.Message, int) {
	sess := store.Session{
		ID: r.id, Source: s.name, Title: cleanTitle(r.title), Cwd: r.dir, StartedAt: msTime(r.created),
		Model: modelName(r.model, msgs), InputTokens: r.tok.Input, OutputTokens: r.tok.Output,
		ReasoningTokens: r.tok.Reasoning, CacheReadTokens: r.tok.Cache.Read, CacheWriteTokens: r.tok.Cache.Write,
		EstimatedCostUSD: r.cost, Archived: r.archived > 0,
	}
	cfg := map[string]string{}
	if r.agent != "" {
		cfg["agent"] = r.agent
	}
	if known[r.parent] {
		sess.ParentID = r.parent
	}
	if fork != "" {
		// A fork is a conversation of its own, listed as OpenCode lists it
		// (as a Hermes /branch or a Codex fork): its copied start stays
		// with the origin, reached through the lineage.
		sess.ParentID = fork
		cfg["_branched_from"] = fork
	}
	if len(cfg) > 0 {
		if b, err := json.Marshal(cfg); err == nil {
			sess.ModelConfig = string(b)
		}
	}
	out, skipped := s.messages(sess, r.created, msgs, fork != "")
	return sess, out, skipped
}

// messages converts a session's messages. A fork's messages copied from
// its origin (created before the fork itself) stay with the origin, so a
// fork holds only what was said after it. In a sub-agent's session the
// first user message is the prompt the parent agent wrote, not the person.
func (s *Source) messages(sess store.Session, created int64, msgs []message, fork bool) ([]store.Message, int) {
	var out []store.Message
	skipped := 0
	firstUser := true
	for _, m := range msgs {
		if fork && m.info.Time.Created < created {
			skipped++
			continue
		}
		conv, sk := convert(sess.ID, m, s.name+":")
		skipped += sk
		for i := range conv {
			if conv[i].Role == "user" && conv[i].DisplayKind == "" && firstUser && sess.ParentID != "" && !fork {
				conv[i].DisplayKind = store.DisplayKindAgent
			}
			if conv[i].Role == "user" {
				firstUser = false
			}
		}
		out = append(out, conv...)
	}
	return out, skipped
}

func col(cols map[string]bool, name, def string) string {
	if cols[name] {
		return name
	}
	return def
}

// readSessions reads every session row; a column an older schema lacks
// reads as empty.
func readSessions(db *sqlitero.DB, cols map[string]bool) ([]sessionRow, error) {
	q := `SELECT s.id, COALESCE(` + col(cols, "parent_id", "NULL") + `, ''), COALESCE(s.title, ''),
		COALESCE(` + col(cols, "directory", "NULL") + `, ''), COALESCE(` + col(cols, "model", "NULL") + `, ''),
		COALESCE(` + col(cols, "agent", "NULL") + `, ''), COALESCE(s.time_created, 0), COALESCE(s.time_updated, 0),
		COALESCE(` + col(cols, "time_archived", "NULL") + `, 0),
		` + col(cols, "tokens_input", "0") + `, ` + col(cols, "tokens_output", "0") + `, ` + col(cols, "tokens_reasoning", "0") + `,
		` + col(cols, "tokens_cache_read", "0") + `, ` + col(cols, "tokens_cache_write", "0") + `, ` + col(cols, "cost", "0") + `,
		(SELECT count(*) || ':' || COALESCE(max(time_updated), 0) FROM message WHERE session_id = s.id),
		(SELECT count(*) || ':' || COALESCE(max(time_updated), 0) FROM part WHERE session_id = s.id)
		FROM session s ORDER BY s.time_created, s.id`
	var out []sessionRow
	err := db.Query(q, nil, func(st sqlitero.Row) error {
		r := sessionRow{id: st.ColumnText(0), parent: st.ColumnText(1), title: st.ColumnText(2), dir: st.ColumnText(3),
			model: st.ColumnText(4), agent: st.ColumnText(5), created: st.ColumnInt64(6), updated: st.ColumnInt64(7),
			archived: st.ColumnInt64(8), cost: st.ColumnFloat(14)}
		r.tok.Input, r.tok.Output, r.tok.Reasoning = st.ColumnInt64(9), st.ColumnInt64(10), st.ColumnInt64(11)
		r.tok.Cache.Read, r.tok.Cache.Write = st.ColumnInt64(12), st.ColumnInt64(13)
		h := sha256.New()
		for i := 0; i < 17; i++ {
			h.Write([]byte(st.ColumnText(i)))
			h.Write([]byte{0})
		}
		r.hash = hex.EncodeToString(h.Sum(nil)[:8])
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", err)
	}
	return out, nil
}

// readMessages reads a session's messages with their parts, in order.
func readMessages(db *sqlitero.DB, session string) ([]message, error) {
	var out []message
	idx := map[string]int{}
	err := db.Query(`SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id`, []any{session}, func(st sqlitero.Row) error {
		var m message
		if err := json.Unmarshal([]byte(st.ColumnText(1)), &m.info); err != nil {
			return fmt.Errorf("message %s: %w", st.ColumnText(0), err)
		}
		m.info.ID = st.ColumnText(0)
		idx[m.info.ID] = len(out)
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read messages of %s: %w", session, err)
	}
	err = db.Query(`SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id`, []any{session}, func(st sqlitero.Row) error {
		i, ok := idx[st.ColumnText(1)]
		if !ok {
			return nil // a part whose message is gone
		}
		var p part
		if err := json.Unmarshal([]byte(st.ColumnText(2)), &p); err != nil {
			return fmt.Errorf("part %s: %w", st.ColumnText(0), err)
		}
		p.ID = st.ColumnText(0)
		out[i].parts = append(out[i].parts, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read parts of %s: %w", session, err)
	}
	return out, nil
}

// forkOrigin finds the session a fork was copied from: OpenCode copies the
// origin's messages into the fork with new ids and their original times,
// so a session whose first message is older than itself is a fork of the
// earlier session holding a message of that time.
func forkOrigin(db *sqlitero.DB, r sessionRow, msgs []message) (string, error) {
	if len(msgs) == 0 || msgs[0].info.Time.Created >= r.created || r.parent != "" {
		return "", nil
	}
	origin := ""
	err := db.Query(`SELECT m.session_id FROM message m JOIN session s ON s.id = m.session_id
		WHERE m.time_created = ? AND m.session_id <> ? AND s.time_created < ? ORDER BY s.time_created LIMIT 1`,
		[]any{msgs[0].info.Time.Created, r.id, r.created}, func(st sqlitero.Row) error {
			origin = st.ColumnText(0)
			return nil
		})
	return origin, err
}
