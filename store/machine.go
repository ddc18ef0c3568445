package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"
)

// Machine is a machine whose sessions a database holds or exchanges
// (recall sync): its id (random, made once per database), the name it gave
// itself (its hostname), and the ssh host this database reaches it by.
type Machine struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Host      string    `json:"host,omitempty"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
}

// Label is how the machine is shown: its ssh host, else its name.
func (m Machine) Label() string {
	if m.Host != "" {
		return m.Host
	}
	return m.Name
}

const (
	metaMachineID   = "recall_machine_id"
	metaMachineName = "recall_machine_name"
)

// ErrNoSync is returned by the sync methods on a database without recall's
// sync tables (a Hermes state.db, opened read-only).
var ErrNoSync = errors.New("this database has no sync tables (a Hermes state.db, or read-only before `recall migrate`)")

// ThisMachine returns this database's machine, naming it on first use
// (a random id and the hostname).
func (s *Store) ThisMachine(ctx context.Context) (Machine, error) {
	if !s.layout.hasSync {
		return Machine{}, ErrNoSync
	}
	var m Machine
	read := func(c *conn) error {
		var err error
		m.ID, _, err = c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaMachineID)
		if err == nil {
			m.Name, _, err = c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaMachineName)
		}
		return err
	}
	if err := s.read(ctx, read); err != nil || m.ID != "" {
		return m, err
	}
	if s.readOnly {
		return m, fmt.Errorf("this database has no machine id yet and is open read-only")
	}
	err := s.Write(ctx, func(tx *Tx) error {
		if err := read(tx.c); err != nil || m.ID != "" {
			return err
		}
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		m.ID = hex.EncodeToString(b[:])
		if m.Name, _ = os.Hostname(); m.Name == "" {
			m.Name = "unnamed"
		}
		if err := tx.SetMeta(metaMachineID, m.ID); err != nil {
			return err
		}
		return tx.SetMeta(metaMachineName, m.Name)
	})
	return m, err
}

// machineID is this database's machine id inside a transaction ("" when it
// has none yet: then no session can be this machine's under another id).
func (tx *Tx) machineID() (string, error) {
	if !tx.s.layout.hasSync {
		return "", nil
	}
	id, _, err := tx.c.scalarText("SELECT value FROM state_meta WHERE key = ?", metaMachineID)
	return id, err
}

// NoteMachine records a machine heard of (a batch's writer, or one it
// names): its name, and the ssh host when host is set; the first time it
// is seen is kept.
func (tx *Tx) NoteMachine(m Machine) error {
	if !tx.s.layout.hasSync {
		return ErrNoSync
	}
	at := now()
	return tx.c.run(`INSERT INTO recall_machines(id, name, host, first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?4)
		ON CONFLICT(id) DO UPDATE SET name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE name END,
			host = COALESCE(excluded.host, host), last_seen = excluded.last_seen`,
		m.ID, m.Name, nullString(m.Host), at)
}

// Machines lists the machines this database has heard of, by name.
func (s *Store) Machines(ctx context.Context) ([]Machine, error) {
	if !s.layout.hasSync {
		return nil, nil
	}
	var out []Machine
	err := s.read(ctx, func(c *conn) error {
		out = out[:0]
		return c.query("SELECT id, name, COALESCE(host, ''), first_seen, last_seen FROM recall_machines ORDER BY name, id", nil, func(st stmtRow) error {
			out = append(out, Machine{ID: st.ColumnText(0), Name: st.ColumnText(1), Host: st.ColumnText(2),
				FirstSeen: fromEpoch(st.ColumnFloat(3)), LastSeen: fromEpoch(st.ColumnFloat(4))})
			return nil
		})
	})
	return out, err
}

// MachineByHost returns the machine last reached by ssh host host.
func (s *Store) MachineByHost(ctx context.Context, host string) (Machine, bool, error) {
	ms, err := s.Machines(ctx)
	if err != nil {
		return Machine{}, false, err
	}
	var best Machine
	found := false
	for _, m := range ms {
		if m.Host == host && (!found || m.LastSeen.After(best.LastSeen)) {
			best, found = m, true
		}
	}
	return best, found, nil
}

// Watermark is how much of another database this one holds: every message
// up to MessageID (that database's ids) and every tombstone up to
// TombstoneAt (its clock).
type Watermark struct {
	MessageID   int64   `json:"message_id"`
	TombstoneAt float64 `json:"tombstone_at"`
}

// PeerWatermark returns how much of machine's database this one holds.
func (s *Store) PeerWatermark(ctx context.Context, machine string) (Watermark, error) {
	var w Watermark
	if !s.layout.hasSync {
		return w, ErrNoSync
	}
	err := s.read(ctx, func(c *conn) error {
		return c.query("SELECT message_id, tombstone_at FROM recall_sync_peers WHERE machine = ?", []any{machine}, func(st stmtRow) error {
			w = Watermark{MessageID: st.ColumnInt64(0), TombstoneAt: st.ColumnFloat(1)}
			return nil
		})
	})
	return w, err
}

// SetPeerWatermark records that this database holds machine's up to w
// (never moving back).
func (tx *Tx) SetPeerWatermark(machine string, w Watermark) error {
	if !tx.s.layout.hasSync {
		return ErrNoSync
	}
	return tx.c.run(`INSERT INTO recall_sync_peers(machine, message_id, tombstone_at, synced_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(machine) DO UPDATE SET message_id = MAX(message_id, excluded.message_id),
			tombstone_at = MAX(tombstone_at, excluded.tombstone_at), synced_at = excluded.synced_at`,
		machine, w.MessageID, w.TombstoneAt, now())
}

// SessionHosts maps the stored id of every session synced from another
// machine to that machine's label (its ssh host, else its name), for the
// lists that mark such sessions.
func (s *Store) SessionHosts(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	if !s.layout.hasSync || !s.layout.hasIdentity {
		return out, nil
	}
	err := s.read(ctx, func(c *conn) error {
		return c.query(`SELECT i.id, COALESCE(m.host, m.name, substr(i.machine, 1, 8)) FROM recall_session_identity i
			LEFT JOIN recall_machines m ON m.id = i.machine WHERE i.machine <> ''`, nil, func(st stmtRow) error {
			out[st.ColumnText(0)] = st.ColumnText(1)
			return nil
		})
	})
	return out, err
}
