package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ExportOptions chooses what ExportBatch writes.
type ExportOptions struct {
	// AfterID: only messages with a larger id (a peer's watermark; 0 for
	// everything).
	AfterID int64
	// TombstonesAfter: only tombstones forgotten after it.
	TombstonesAfter float64
	// Since, when set, keeps only messages written at or after it (by their
	// timestamp) and tombstones forgotten since.
	Since time.Time
	// Exclude is a machine whose sessions are left out: the receiver's own,
	// which it has already (their tombstones are not: a forget of its
	// session here must reach it).
	Exclude string
	// Redact, when set, rewrites every text before it is written
	// (redact_at_import: nothing unredacted leaves the machine).
	Redact TextRedactor
}

// ExportInfo is what an export covers, known before its first record.
type ExportInfo struct {
	Machine Machine // this database's machine
	Schema  int     // recall_schema_version
	// UpTo and TombstonesUpTo are the watermark a receiver holds once it
	// applied the whole export (with the options' AfterID and
	// TombstonesAfter below it).
	UpTo           int64
	TombstonesUpTo float64
}

// BatchSink receives an export's records in order: the machines the
// sessions name, then the tombstones, then each session followed by its
// messages.
type BatchSink interface {
	Begin(ExportInfo) error
	Machine(Machine) error
	Tombstone(Tombstone) error
	Session(SyncSession) error
	Message(SyncMessage) error
}

// ExportBatch writes what o chooses to sink, from one snapshot of the
// database.
func (s *Store) ExportBatch(ctx context.Context, o ExportOptions, sink BatchSink) (ExportInfo, error) {
	me, err := s.ThisMachine(ctx)
	if err != nil {
		return ExportInfo{}, err
	}
	info := ExportInfo{Machine: me}
	err = s.read(ctx, func(c *conn) error {
		return c.snapshot(func() error {
			e := &exporter{s: s, c: c, o: o, sink: sink, me: me.ID}
			return e.run(&info)
		})
	})
	return info, err
}

type exporter struct {
	s    *Store
	c    *conn
	o    ExportOptions
	sink BatchSink
	me   string
}

func (e *exporter) redact(t string) string {
	if e.o.Redact == nil || t == "" {
		return t
	}
	return e.o.Redact.Text(t)
}

func (e *exporter) redactJSON(t string) string {
	if e.o.Redact == nil || t == "" {
		return t
	}
	return e.o.Redact.JSON(t)
}

func (e *exporter) run(info *ExportInfo) error {
	c := e.c
	var err error
	if info.Schema, err = recallVersion(c); err != nil {
		return err
	}
	if info.UpTo, _, err = c.scalarInt("SELECT COALESCE(MAX(id), 0) FROM messages"); err != nil {
		return err
	}
	if e.s.layout.hasForgotten {
		if err := c.query("SELECT COALESCE(MAX(forgotten_at), 0) FROM recall_forgotten", nil, func(st stmtRow) error {
			info.TombstonesUpTo = st.ColumnFloat(0)
			return nil
		}); err != nil {
			return err
		}
	}
	if err := e.sink.Begin(*info); err != nil {
		return err
	}
	if err := c.query("SELECT id, name, COALESCE(host, ''), first_seen, last_seen FROM recall_machines", nil, func(st stmtRow) error {
		return e.sink.Machine(Machine{ID: st.ColumnText(0), Name: st.ColumnText(1), FirstSeen: fromEpoch(st.ColumnFloat(3)), LastSeen: fromEpoch(st.ColumnFloat(4))})
	}); err != nil {
		return err
	}
	if err := e.tombstones(info.TombstonesUpTo); err != nil {
		return err
	}
	var ids []string
	q := "SELECT DISTINCT session_id FROM messages WHERE id > ? AND id <= ?"
	args := []any{e.o.AfterID, info.UpTo}
	if !e.o.Since.IsZero() {
		q += " AND timestamp >= ?"
		args = append(args, e.o.Since)
	}
	if err := c.query(q, args, func(st stmtRow) error {
		ids = append(ids, st.ColumnText(0))
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		if err := e.session(id, info.UpTo); err != nil {
			return fmt.Errorf("export session %s: %w", clipID(id), err)
		}
	}
	return nil
}

// identityOfStored is the identity of the session stored as id: its row in
// recall_session_identity, else itself on this machine.
func (e *exporter) identityOfStored(id string) (identity, bool, error) {
	ident := identity{machine: e.me, native: id}
	found := false
	err := e.c.query(`SELECT i.machine, i.source, i.native_id FROM recall_session_identity i WHERE i.id = ?`, []any{id}, func(st stmtRow) error {
		found = true
		ident = identity{machine: st.ColumnText(0), source: st.ColumnText(1), native: st.ColumnText(2)}
		return nil
	})
	if ident.machine == "" {
		ident.machine = e.me
	}
	return ident, found, err
}

// session writes the session stored as id and its messages in (AfterID, upTo].
func (e *exporter) session(id string, upTo int64) error {
	ident, _, err := e.identityOfStored(id)
	if err != nil || ident.machine == e.o.Exclude {
		return err
	}
	var sess Session
	found := false
	if err := e.c.query("SELECT "+e.s.layout.sessionSelect()+" FROM sessions s WHERE s.id = ?", []any{id}, func(st stmtRow) error {
		sess, found = scanSession(st, 0), true
		return nil
	}); err != nil || !found {
		return err
	}
	rec := SyncSession{Machine: ident.machine, Source: sess.Source, ID: sess.NativeID, Model: sess.Model, ModelConfig: e.redactJSON(sess.ModelConfig),
		Title: e.redact(sess.Title), StartedAt: toEpoch(sess.StartedAt), EndedAt: toEpoch(sess.EndedAt), EndReason: e.redact(sess.EndReason),
		Input: sess.InputTokens, Output: sess.OutputTokens, CacheRead: sess.CacheReadTokens, CacheWrite: sess.CacheWriteTokens,
		Reasoning: sess.ReasoningTokens, CostUSD: sess.EstimatedCostUSD, ActualUSD: sess.ActualCostUSD, Cwd: sess.Cwd,
		GitBranch: sess.GitBranch, Archived: sess.Archived}
	if sess.EndedAt.IsZero() {
		rec.EndedAt = 0
	}
	if sess.ParentID != "" {
		p, _, err := e.identityOfStored(sess.ParentID)
		if err != nil {
			return err
		}
		rec.ParentID = p.native
	}
	if err := e.sink.Session(rec); err != nil {
		return err
	}
	keys := map[int64]string{}
	byKey := map[string]int64{}
	if e.s.layout.hasKeys {
		if err := e.c.query("SELECT key, message_id FROM recall_message_keys WHERE key >= ? AND key < ?", []any{id + "\x00", id + "\x01"}, func(st stmtRow) error {
			k := strings.TrimPrefix(st.ColumnText(0), id+"\x00")
			keys[st.ColumnInt64(1)] = k
			byKey[k] = st.ColumnInt64(1)
			return nil
		}); err != nil {
			return err
		}
	}
	q := "SELECT " + e.s.layout.rawMessageSelect() + " FROM messages m WHERE m.session_id = ? AND m.id > ? AND m.id <= ?"
	args := []any{id, e.o.AfterID, upTo}
	if !e.o.Since.IsZero() {
		q += " AND m.timestamp >= ?"
		args = append(args, e.o.Since)
	}
	var msgs []Message
	if err := e.c.query(q+" ORDER BY m.id", args, func(st stmtRow) error {
		msgs = append(msgs, scanRawMessage(st))
		return nil
	}); err != nil {
		return err
	}
	sent := map[int64]bool{}
	for _, m := range msgs {
		sent[m.ID] = true
	}
	for _, m := range msgs {
		key := keys[m.ID]
		if key == "" {
			if key, err = e.textKey(id, m); err != nil {
				return err
			}
		}
		if m.DisplayKind == DisplayKindEarlier {
			// A rewrite: the live message (its id is older than the
			// range) goes first, with the text it has now.
			if live, ok := byKey[strings.SplitN(key, earlierKeyTag, 2)[0]]; ok && !sent[live] {
				sent[live] = true
				if err := e.liveSibling(live, keys[live]); err != nil {
					return err
				}
			}
		}
		if err := e.message(m, key); err != nil {
			return err
		}
	}
	return nil
}

// textKey is the key of a message without a source key: a hash of what it
// says (syncKey), and, for the second and later of identical messages in
// the session (same role, text and time), how many came before it, so that
// none is taken for another.
func (e *exporter) textKey(sid string, m Message) (string, error) {
	key := syncKey(&m)
	ts := toEpoch(m.Timestamp)
	n, _, err := e.c.scalarInt(`SELECT count(*) FROM messages WHERE session_id = ? AND timestamp BETWEEN ? AND ? AND id < ? AND role = ?
		AND COALESCE(content, '') = ? AND COALESCE(tool_call_id, '') = ?`, sid, ts-1e-6, ts+1e-6, m.ID, m.Role, m.Content, m.ToolCallID)
	if err != nil || n == 0 {
		return key, err
	}
	return key + ":" + strconv.FormatInt(n, 10), nil
}

func (e *exporter) liveSibling(id int64, key string) error {
	var m Message
	found := false
	if err := e.c.query("SELECT "+e.s.layout.rawMessageSelect()+" FROM messages m WHERE m.id = ?", []any{id}, func(st stmtRow) error {
		m, found = scanRawMessage(st), true
		return nil
	}); err != nil || !found {
		return err
	}
	return e.message(m, key)
}

func (e *exporter) message(m Message, key string) error {
	if key == "" {
		key = syncKey(&m)
	}
	m.Content, m.Reasoning, m.ToolCalls = e.redact(m.Content), e.redact(m.Reasoning), e.redactJSON(m.ToolCalls)
	return e.sink.Message(toSyncMessage(m, key))
}

// tombstones writes the tombstones forgotten in (TombstonesAfter, upTo].
func (e *exporter) tombstones(upTo float64) error {
	if !e.s.layout.hasForgotten {
		return nil
	}
	type row struct {
		key string
		at  float64
	}
	var rows []row
	q := "SELECT key, forgotten_at FROM recall_forgotten WHERE forgotten_at > ? AND forgotten_at <= ?"
	args := []any{e.o.TombstonesAfter, upTo}
	if !e.o.Since.IsZero() {
		q += " AND forgotten_at >= ?"
		args = append(args, toEpoch(e.o.Since))
	}
	if err := e.c.query(q+" ORDER BY forgotten_at", args, func(st stmtRow) error {
		rows = append(rows, row{st.ColumnText(0), st.ColumnFloat(1)})
		return nil
	}); err != nil {
		return err
	}
	for _, r := range rows {
		sid, key, _ := strings.Cut(r.key, "\x00")
		ident, known, err := e.identityOfStored(sid)
		if err != nil {
			return err
		}
		if !known {
			// A plain session: its source is in its row, if it still has one.
			ident.source, _, err = e.c.scalarText("SELECT COALESCE(source, '') FROM sessions WHERE id = ?", sid)
			if err != nil {
				return err
			}
		}
		// The receiver's own sessions too: a forget there travels back.
		if err := e.sink.Tombstone(Tombstone{Machine: ident.machine, Source: ident.source, ID: ident.native, Key: key, At: r.at}); err != nil {
			return err
		}
	}
	return nil
}

// rawMessageSelect is messageSelect without decoding: a batch carries
// the stored text as it is.
func (l layout) rawMessageSelect() string { return l.messageSelect() }

// scanRawMessage is scanMessage keeping the content's stored bytes.
func scanRawMessage(st stmtRow) Message {
	m := scanMessage(st)
	m.Content = st.ColumnText(3)
	return m
}
