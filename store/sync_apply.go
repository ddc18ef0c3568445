package store

import (
	"context"
	"fmt"
	"strings"
)

// ApplyReport counts what applying a batch did.
type ApplyReport struct {
	From       Machine `json:"from"`        // the machine that wrote the batch
	NewMachine bool    `json:"new_machine"` // first heard of in this batch
	Own        bool    `json:"own"`         // written by this very database
	Sessions   int     `json:"sessions"`    // sessions in the batch
	Messages   int     `json:"messages"`    // messages added
	Rewritten  int     `json:"rewritten"`   // messages given new text (the earlier kept)
	Present    int     `json:"present"`     // messages that were here already
	// ForgottenSessions and ForgottenMessages are what the batch's
	// tombstones deleted here (the messages of those sessions included).
	ForgottenSessions int `json:"forgotten_sessions"`
	ForgottenMessages int `json:"forgotten_messages"`
	Tombstones        int `json:"tombstones"` // tombstones in the batch
}

// applyChunk is how many messages one transaction of ApplyBatch writes:
// a killed apply loses at most one chunk's work (the next sync sends it
// again), and the write lock is never held for long.
var applyChunk = 5000

// Applier applies a batch, record by record (it is a BatchSink), a chunk
// of messages per transaction; Finish writes the rest and the watermark.
// The batch must have been read whole and checked before (store/batch):
// what it applies is never undone, and applying it again adds nothing.
type Applier struct {
	s   *Store
	ctx context.Context
	me  string

	machines []Machine
	tombs    []Tombstone
	tombsOn  bool
	chunk    []syncGroup
	n        int
	rep      ApplyReport
}

type syncGroup struct {
	sess SyncSession
	msgs []SyncMessage
}

// NewApplier starts applying a batch to s.
func (s *Store) NewApplier(ctx context.Context) (*Applier, error) {
	me, err := s.ThisMachine(ctx)
	if err != nil {
		return nil, err
	}
	return &Applier{s: s, ctx: ctx, me: me.ID}, nil
}

// Begin takes the batch's header.
func (a *Applier) Begin(info ExportInfo) error {
	a.rep.From = info.Machine
	a.rep.Own = info.Machine.ID == a.me
	return nil
}

// Machine notes a machine the batch names.
func (a *Applier) Machine(m Machine) error {
	if m.ID != a.me && m.ID != "" {
		a.machines = append(a.machines, Machine{ID: m.ID, Name: m.Name})
	}
	return nil
}

// Tombstone takes a tombstone; they are applied before any session.
func (a *Applier) Tombstone(t Tombstone) error {
	a.tombs = append(a.tombs, t)
	a.rep.Tombstones++
	return nil
}

// Session starts a session's messages.
func (a *Applier) Session(s SyncSession) error {
	if err := a.applyTombstones(); err != nil {
		return err
	}
	a.chunk = append(a.chunk, syncGroup{sess: s})
	a.rep.Sessions++
	return nil
}

// Message adds a message to the current session.
func (a *Applier) Message(m SyncMessage) error {
	if len(a.chunk) == 0 {
		return fmt.Errorf("the batch has a message before any session")
	}
	g := &a.chunk[len(a.chunk)-1]
	g.msgs = append(g.msgs, m)
	a.n++
	if a.n >= applyChunk {
		return a.flush(nil)
	}
	return nil
}

// Finish writes what is left and, when mark is set, records that this
// database now holds the writer's database up to it.
func (a *Applier) Finish(mark *Watermark) (ApplyReport, error) {
	if err := a.applyTombstones(); err != nil {
		return a.rep, err
	}
	err := a.flush(mark)
	return a.rep, err
}

// machineOf is how a batch's machine id is stored: "" for this machine.
func (a *Applier) machineOf(id string) string {
	if id == a.me {
		return ""
	}
	return id
}

// flush writes the gathered sessions and messages in one transaction,
// with the machines named so far and, at the end, the watermark.
func (a *Applier) flush(mark *Watermark) error {
	from := a.rep.From.ID
	var rep ApplyReport
	err := a.s.Write(a.ctx, func(tx *Tx) error {
		rep = ApplyReport{}
		if from != "" && from != a.me {
			known, err := tx.machineKnown(from)
			if err != nil {
				return err
			}
			rep.NewMachine = !known
			if err := tx.NoteMachine(a.rep.From); err != nil {
				return err
			}
		}
		for _, m := range a.machines {
			if err := tx.noteMachineName(m); err != nil {
				return err
			}
		}
		for _, g := range a.chunk {
			if err := a.applyGroup(tx, g, &rep); err != nil {
				return err
			}
		}
		if mark != nil && from != "" && from != a.me {
			return tx.SetPeerWatermark(from, *mark)
		}
		return nil
	})
	if err != nil {
		return err
	}
	a.rep.Messages += rep.Messages
	a.rep.Rewritten += rep.Rewritten
	a.rep.Present += rep.Present
	a.rep.NewMachine = a.rep.NewMachine || rep.NewMachine
	a.machines = nil
	if n := len(a.chunk); n > 0 {
		// The session being read goes on in the next chunk.
		last := a.chunk[n-1]
		a.chunk = a.chunk[:0]
		if mark == nil {
			a.chunk = append(a.chunk, syncGroup{sess: last.sess})
		}
	}
	a.n = 0
	return nil
}

// applyGroup writes one session of the batch and its messages: a session
// of another machine takes the batch's metadata (its machine knows it
// best); this machine's own only gains messages it lacks.
func (a *Applier) applyGroup(tx *Tx, g syncGroup, rep *ApplyReport) error {
	machine := a.machineOf(g.sess.Machine)
	sess := g.sess.session(machine)
	stored, err := tx.UpsertSessionID(sess)
	if err != nil {
		return err
	}
	if gone, err := tx.sessionForgotten(stored); err != nil || gone {
		return err
	}
	if machine != "" {
		sess.NativeID = g.sess.ID
		if err := tx.UpdateSession(sess); err != nil {
			return err
		}
	}
	// A session with no message here yet (the usual case of a first pull)
	// has nothing to compare with: every message is new.
	_, had, err := tx.c.scalarInt("SELECT 1 FROM messages WHERE session_id = ? LIMIT 1", stored)
	if err != nil {
		return err
	}
	var fresh []Message
	for _, sm := range g.msgs {
		m := sm.message(stored)
		if !had {
			fresh = append(fresh, m)
			continue
		}
		before := tx.rewritten
		kept, err := tx.refreshKeyed(stored, &m)
		if err != nil {
			return err
		}
		switch {
		case tx.rewritten > before:
			rep.Rewritten++
		case kept:
			rep.Present++
		default:
			fresh = append(fresh, m)
		}
	}
	if len(fresh) > 0 {
		n, err := tx.InsertMessages(fresh)
		if err != nil {
			return err
		}
		rep.Messages += n
		rep.Present += len(fresh) - n
	}
	return nil
}

func (tx *Tx) machineKnown(id string) (bool, error) {
	_, ok, err := tx.c.scalarInt("SELECT 1 FROM recall_machines WHERE id = ?", id)
	return ok, err
}

// noteMachineName records a machine a batch names (not the one that
// wrote it): its name, never an ssh host (the writer's hosts are its own).
func (tx *Tx) noteMachineName(m Machine) error {
	return tx.c.run(`INSERT INTO recall_machines(id, name, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
		ON CONFLICT(id) DO UPDATE SET name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE name END`, m.ID, m.Name, now())
}

// applyTombstones forgets here what the batch's tombstones name, and keeps
// a tombstone for each (for what is not here yet, too), so that no later
// batch or import brings it back.
func (a *Applier) applyTombstones() error {
	if a.tombsOn || len(a.tombs) == 0 {
		a.tombsOn = true
		return nil
	}
	a.tombsOn = true
	if !a.s.layout.hasForgotten {
		return ErrNoTombstones
	}
	var sessions []string
	var messages []int64
	err := a.s.Write(a.ctx, func(tx *Tx) error {
		sessions, messages = nil, nil
		for _, t := range a.tombs {
			ids, err := tx.tombstoneSessions(a.machineOf(t.Machine), t.Source, t.ID)
			if err != nil {
				return err
			}
			for _, sid := range ids {
				if t.Key == "" {
					if err := tx.tomb(sid); err != nil {
						return err
					}
					// Only what is here is forgotten (again): Forget
					// renews a tombstone's time, which would send it back.
					if _, here, err := tx.c.scalarInt("SELECT 1 FROM sessions WHERE id = ?", sid); err != nil {
						return err
					} else if here {
						sessions = append(sessions, sid)
					}
					continue
				}
				if err := tx.tomb(sid + "\x00" + t.Key); err != nil {
					return err
				}
				found, err := tx.messagesByKey(sid, t.Key)
				if err != nil {
					return err
				}
				messages = append(messages, found...)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("apply the batch's tombstones: %w", err)
	}
	if len(sessions) == 0 && len(messages) == 0 {
		return nil
	}
	res, err := a.s.Forget(a.ctx, sessions, messages, ForgetOptions{})
	a.rep.ForgottenSessions += res.Sessions
	a.rep.ForgottenMessages += res.Messages
	return err
}

// tombstoneSessions are the stored ids a tombstone's session has here: the
// one of its identity (made now when it is not here yet, so its tombstone
// has an id), or, for a tombstone without a source, every session of that
// own id from that machine.
func (tx *Tx) tombstoneSessions(machine, source, id string) ([]string, error) {
	if source != "" {
		ident := identity{machine: machine, source: source, native: id}
		stored, _, err := tx.storedID(ident, true)
		if err != nil {
			return nil, err
		}
		// Its id stays its own, whether the session is here or not.
		tx.scope().none = false
		return []string{stored}, tx.c.run("INSERT OR IGNORE INTO recall_session_identity(id, source, native_id, machine) VALUES (?, ?, ?, ?)",
			stored, agentOf(source), id, machine)
	}
	var out []string
	err := tx.c.query(`SELECT i.id FROM recall_session_identity i WHERE i.native_id = ?1 AND i.machine = ?2
		UNION SELECT s.id FROM sessions s WHERE ?2 = '' AND s.id = ?1 AND NOT EXISTS (SELECT 1 FROM recall_session_identity i WHERE i.id = s.id)`,
		[]any{id, machine}, func(st stmtRow) error {
			out = append(out, st.ColumnText(0))
			return nil
		})
	if len(out) == 0 && machine == "" {
		out = []string{id}
	}
	return out, err
}

// tomb writes the tombstone key now, as Forget does, unless it is kept
// already: a tombstone that comes back from a machine it went to keeps its
// time, and so is not sent out again (no ping-pong between two machines).
func (tx *Tx) tomb(key string) error {
	return tx.c.run("INSERT OR IGNORE INTO recall_forgotten(key, forgotten_at) VALUES (?, ?)", key, toEpoch(now()))
}

// messagesByKey finds the messages of session sid a message tombstone's
// key names: by source key, else by the hash of role and text.
func (tx *Tx) messagesByKey(sid, key string) ([]int64, error) {
	var out []int64
	if tx.s.layout.hasKeys {
		if err := tx.c.query("SELECT message_id FROM recall_message_keys WHERE key = ?", []any{sid + "\x00" + key}, func(st stmtRow) error {
			out = append(out, st.ColumnInt64(0))
			return nil
		}); err != nil || len(out) > 0 {
			return out, err
		}
	}
	if !strings.HasPrefix(key, "#") {
		return nil, nil
	}
	err := tx.c.query("SELECT id, role, COALESCE(content, '') FROM messages WHERE session_id = ?", []any{sid}, func(st stmtRow) error {
		if contentKey(sid, st.ColumnText(1), st.ColumnText(2)) == sid+"\x00"+key {
			out = append(out, st.ColumnInt64(0))
		}
		return nil
	})
	return out, err
}
