package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// A session's identity is (machine, source, the source's own id): Copilot
// CLI and Qwen Code both name sessions 11111111-…, Cline, Roo Code and Kilo
// name tasks by millisecond timestamps, Aider and exports count. sessions.id
// stays Hermes's unique TEXT key; the first session with a given own id is
// stored under it, and a later one of another identity under a qualified id
// (qualifiedIDs), with its own id, source and machine kept beside it in
// recall_session_identity (migration 1030 says when a row exists).
//
// Importers never compute stored ids: they write sessions and messages under
// the source's own ids, as before, and a Tx maps them (idScope): a session
// written in the transaction (UpsertSession, UpdateSession) or listed by the
// file being imported (AdoptSessions) names its stored id for the messages
// and the calls that follow. An id the transaction has not seen is taken as
// a stored id when a session has it, else as the own id of the one session
// that has it (resolveNative).

// identity is what a session is, whatever id it is stored under.
type identity struct {
	machine string // "" for this machine
	source  string
	native  string
}

// key is the identity as compared: by agent, not platform.
func (i identity) key() identity {
	return identity{machine: i.machine, source: agentOf(i.source), native: i.native}
}

// idScope is what a transaction knows about the ids it was given.
type idScope struct {
	byIdent map[identity]string
	// written are the stored ids of the sessions written in the
	// transaction, by own id: two when one file holds two sources' sessions
	// of the same id (its messages then name their Source).
	written map[string][]string
	// adopted are the sessions the file being imported produced before, by
	// own id (weaker than written: a file read again after a split names
	// the merged session there, and writes its own).
	adopted map[string]string
	// none is set while the store has no identity row at all (most
	// databases): every session is then stored under its own id.
	none, checked bool
}

func (tx *Tx) scope() *idScope {
	if tx.ids == nil {
		tx.ids = &idScope{byIdent: map[identity]string{}, written: map[string][]string{}, adopted: map[string]string{}}
	}
	return tx.ids
}

// wrote records that the session ident is stored under stored.
func (sc *idScope) wrote(ident identity, stored string) {
	sc.byIdent[ident.key()] = stored
	for _, s := range sc.written[ident.native] {
		if s == stored {
			return
		}
	}
	sc.written[ident.native] = append(sc.written[ident.native], stored)
}

// identityOf is the identity sess is written under: its NativeID when it
// was read from the store, else its ID, as an importer gives it.
func identityOf(sess Session) identity {
	native := sess.NativeID
	if native == "" {
		native = sess.ID
	}
	return identity{machine: sess.Machine, source: sess.Source, native: native}
}

// storedID returns the id the session ident is stored under. When none is
// and create is set, it picks one (its own id when free, else a qualified
// one) and records the identity; ok is false when the session does not
// exist and create is not set.
func (tx *Tx) storedID(ident identity, create bool) (stored string, ok bool, err error) {
	sc := tx.scope()
	if s, ok := sc.byIdent[ident.key()]; ok {
		return s, true, nil
	}
	if !tx.s.layout.hasIdentity {
		return ident.native, true, nil
	}
	stored, ok, err = tx.c.scalarText("SELECT id FROM recall_session_identity WHERE native_id = ? AND source = ? AND machine = ?",
		ident.native, agentOf(ident.source), ident.machine)
	if err != nil {
		return "", false, fmt.Errorf("look up session %s of %s: %w", clipID(ident.native), ident.source, err)
	}
	if !ok && ident.machine == "" {
		src, plain, err := tx.plainSession(ident.native)
		if err != nil {
			return "", false, err
		}
		if plain && sameSource(src, ident.source) {
			stored, ok = ident.native, true
		}
	}
	if !ok && create {
		if stored, err = tx.allocate(ident); err != nil {
			return "", false, err
		}
		ok = true
	}
	if ok {
		sc.wrote(ident, stored)
	}
	return stored, ok, nil
}

// sameSource reports whether a stored session of source have is the
// session of source want: the same agent (agentOf), or a row made before
// its source was known (a parent named by a child, a Hermes message whose
// session is gone).
func sameSource(have, want string) bool {
	return agentOf(have) == agentOf(want) || have == "" || have == "unknown"
}

// hermesPlatforms are the sources Hermes Agent writes (its platforms): one
// agent, whose session ids are unique across them (a subagent child of a
// cli session is the same agent's).
var hermesPlatforms = map[string]bool{"cli": true, "tui": true, "telegram": true, "discord": true, "whatsapp": true,
	"slack": true, "cron": true, "acp": true, "tool": true, "subagent": true, "kanban": true, "signal": true,
	"email": true, "matrix": true, "homeassistant": true, "mattermost": true, "sms": true, "webhook": true, "api_server": true}

// agentOf is the agent a source names, which an identity is of: Hermes's
// platforms are all "hermes"; any other source is its own.
func agentOf(source string) string {
	if hermesPlatforms[source] {
		return "hermes"
	}
	return source
}

// plainSession reports a session stored under id with no identity row
// (stored under its own id, on this machine), and its source.
func (tx *Tx) plainSession(id string) (source string, ok bool, err error) {
	source, ok, err = tx.c.scalarText(`SELECT COALESCE(s.source, '') FROM sessions s WHERE s.id = ?1
		AND NOT EXISTS (SELECT 1 FROM recall_session_identity i WHERE i.id = ?1)`, id)
	if err != nil {
		return "", false, fmt.Errorf("look up session %s: %w", clipID(id), err)
	}
	return source, ok, nil
}

// idTaken reports a stored id in use, or kept for a forgotten session.
func (tx *Tx) idTaken(id string) (bool, error) {
	_, taken, err := tx.c.scalarInt("SELECT 1 FROM sessions WHERE id = ?1 UNION ALL SELECT 1 FROM recall_session_identity WHERE id = ?1 LIMIT 1", id)
	return taken, err
}

// qualifiedIDs are the stored ids tried, in order, for a session whose own
// id is taken: "<id>@<source>", then numbered.
func qualifiedIDs(ident identity, n int) string {
	q := ident.native + "@" + agentOf(ident.source)
	if n > 1 {
		q += "~" + strconv.Itoa(n)
	}
	return q
}

// allocate picks the stored id of a new session: its own id when free,
// else the first free qualified id; an identity row records it unless it is
// a plain one (its own id, this machine).
func (tx *Tx) allocate(ident identity) (string, error) {
	stored := ident.native
	for n := 1; ; n++ {
		taken, err := tx.idTaken(stored)
		if err != nil {
			return "", fmt.Errorf("allocate an id for session %s of %s: %w", clipID(ident.native), ident.source, err)
		}
		if !taken {
			break
		}
		if n > 1000 {
			return "", fmt.Errorf("allocate an id for session %s of %s: a thousand sessions share it", clipID(ident.native), ident.source)
		}
		stored = qualifiedIDs(ident, n)
	}
	if stored == ident.native && ident.machine == "" {
		return stored, nil
	}
	tx.scope().none = false
	if err := tx.c.run("INSERT INTO recall_session_identity(id, source, native_id, machine) VALUES (?, ?, ?, ?)",
		stored, agentOf(ident.source), ident.native, ident.machine); err != nil {
		return "", fmt.Errorf("record the identity of session %s: %w", clipID(stored), err)
	}
	return stored, nil
}

// resolveNative maps an id an importer gave (the source's own id) to the
// stored id: the session written in this transaction under that own id
// (the one of source when source is set and two were), else the session the
// file listed, else a session stored under id, else the one session whose
// own id it is; id itself when none is.
func (tx *Tx) resolveNative(id, source string) (string, error) {
	if id == "" {
		return id, nil
	}
	sc := tx.scope()
	if source != "" {
		if s, ok, err := tx.storedID(identity{source: source, native: id}, false); err != nil || ok {
			return s, err
		}
	}
	switch w := sc.written[id]; {
	case len(w) == 1:
		return w[0], nil
	case len(w) > 1:
		for _, s := range w {
			if s == id {
				return s, nil
			}
		}
		return "", fmt.Errorf("session id %s names %d sessions of different sources in one batch: the record must name its source", clipID(id), len(w))
	}
	if s, ok := sc.adopted[id]; ok {
		return s, nil
	}
	if !tx.s.layout.hasIdentity {
		return id, nil
	}
	if !sc.checked {
		_, any, err := tx.c.scalarInt("SELECT 1 FROM recall_session_identity LIMIT 1")
		if err != nil {
			return "", err
		}
		sc.none, sc.checked = !any, true
	}
	if sc.none {
		return id, nil
	}
	stored := id
	if _, exists, err := tx.c.scalarInt("SELECT 1 FROM sessions WHERE id = ?", id); err != nil {
		return "", err
	} else if !exists {
		var found []string
		if err := tx.c.query("SELECT id FROM recall_session_identity WHERE native_id = ? AND machine = '' LIMIT 2", []any{id}, func(st stmtRow) error {
			found = append(found, st.ColumnText(0))
			return nil
		}); err != nil {
			return "", err
		}
		if len(found) == 1 {
			stored = found[0]
		}
	}
	sc.adopted[id] = stored
	return stored, nil
}

// resolveMessage is resolveNative for a message's session.
func (tx *Tx) resolveMessage(m *Message) (string, error) {
	return tx.resolveNative(m.SessionID, m.Source)
}

// AdoptSessions reads the sessions an import file produced before (stored
// ids, as ImportFile.Sessions lists them) into the transaction's scope and
// returns their own ids, in order: the file's records name them so, and
// later calls of the transaction map them back.
func (tx *Tx) AdoptSessions(stored []string) ([]string, error) {
	out := make([]string, len(stored))
	sc := tx.scope()
	for i, id := range stored {
		out[i] = id
		if !tx.s.layout.hasIdentity {
			continue
		}
		native, ok, err := tx.c.scalarText("SELECT native_id FROM recall_session_identity WHERE id = ?", id)
		if err != nil {
			return nil, fmt.Errorf("read the identity of session %s: %w", clipID(id), err)
		}
		if ok {
			out[i] = native
		}
		sc.adopted[out[i]] = id
	}
	return out, nil
}

// StoredID returns the stored id of the session source gave id (on this
// machine) when one exists: what the transaction wrote, else the store's.
func (tx *Tx) StoredID(source, id string) (string, bool, error) {
	return tx.storedID(identity{source: source, native: id}, false)
}

// storedIDs maps the ids an import file lists (own ids, or stored ids) to
// stored ids, for ImportFile.Sessions: an own id two sessions of this
// transaction share stands for both.
func (tx *Tx) storedIDs(ids []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, id := range ids {
		if w := tx.scope().written[id]; len(w) > 1 {
			for _, s := range w {
				add(s)
			}
			continue
		}
		s, err := tx.resolveNative(id, "")
		if err != nil {
			return nil, err
		}
		add(s)
	}
	return out, nil
}

// reserveIdentity gives a session about to be forgotten an identity row,
// so that its stored id (which its tombstone names) is never given to a
// session of another source, which the tombstone would then hide.
func (tx *Tx) reserveIdentity(id string) error {
	if !tx.s.layout.hasIdentity {
		return nil
	}
	src, ok, err := tx.c.scalarText("SELECT COALESCE(source, 'unknown') FROM sessions WHERE id = ?", id)
	if err != nil || !ok {
		return err
	}
	tx.scope().none = false
	return tx.c.run("INSERT OR IGNORE INTO recall_session_identity(id, source, native_id, machine) VALUES (?, ?, ?, '')", id, agentOf(src), id)
}

// SessionOf returns the session source gave the own id id, on this
// machine, wherever it is stored.
func (s *Store) SessionOf(ctx context.Context, source, id string) (Session, error) {
	stored := id
	if s.layout.hasIdentity {
		err := s.read(ctx, func(c *conn) error {
			v, ok, err := c.scalarText("SELECT id FROM recall_session_identity WHERE native_id = ? AND source = ? AND machine = ''", id, agentOf(source))
			if ok {
				stored = v
			}
			return err
		})
		if err != nil {
			return Session{}, err
		}
	}
	sess, err := s.Session(ctx, stored)
	if err == nil && stored == id && !sameSource(sess.Source, source) {
		return Session{}, fmt.Errorf("session %s of %s: %w", clipID(id), source, ErrNotFound)
	}
	return sess, err
}

// OwnID is the source's own id of a session stored as stored: stored
// without the qualifier ("@<source>", "@<source>~N") a session whose id
// another source's had first is stored with. For a session read from the
// store, its NativeID says the same; this serves ids named elsewhere (a
// parent_session_id).
func OwnID(stored, source string) string {
	q := "@" + agentOf(source)
	if i := strings.LastIndex(stored, q); i > 0 {
		rest := stored[i+len(q):]
		if rest == "" {
			return stored[:i]
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(rest, "~")); err == nil && n > 1 && strings.HasPrefix(rest, "~") {
			return stored[:i]
		}
	}
	return stored
}
