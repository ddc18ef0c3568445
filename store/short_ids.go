package store

import (
	"context"
	"fmt"
	"github.com/recall-dev/recall/store/internal/sqlutil"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A session is shown to a person by a short id, as git shows a commit: the
// shortest prefix of its own id (at least MinShortID characters) that no
// other session's id starts with, and "@<source>" after it only where
// sessions of several sources share the own id (Copilot CLI's and Qwen
// Code's 11111111-…). Every short id is typed back as it is shown:
// ResolveSessionID takes a unique prefix, and "<prefix>@<source>".

// MinShortID is the fewest characters a short id has (git's 7 plus one:
// UUID-like ids of millions of sessions stay unique at 8).
const MinShortID = 8

// ShortIDs returns the short id of each stored id given (ids not in the
// store are left out). One read; a few indexed look-ups per id (its own id,
// its neighbours in id order, the sources sharing it).
func (s *Store) ShortIDs(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	err := s.read(ctx, func(c *conn) error {
		for _, id := range ids {
			if _, done := out[id]; done {
				continue
			}
			short, ok, err := s.shortID(c, id)
			if err != nil {
				return err
			}
			if ok {
				out[id] = short
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("short session ids: %w", err)
	}
	return out, nil
}

// shortID is the short id of the session stored under id.
func (s *Store) shortID(c *conn, id string) (short string, ok bool, err error) {
	own, agent, ok, err := s.ownID(c, id)
	if err != nil || !ok {
		return "", ok, err
	}
	// The sessions whose stored id starts with a prefix of own are
	// contiguous in the id index: the nearest other ones on either side
	// share the longest prefix with it. Stored ids of sessions with this
	// own id ("own", "own@source") are not others.
	prev, _, err := c.scalarText("SELECT id FROM sessions WHERE id < ?1 ORDER BY id DESC LIMIT 1", own)
	if err != nil {
		return "", false, err
	}
	nextSQL := "SELECT id FROM sessions WHERE id > ?1 ORDER BY id LIMIT 1"
	if s.layout.hasIdentity {
		nextSQL = `SELECT id FROM sessions WHERE id > ?1
			AND id NOT IN (SELECT id FROM recall_session_identity WHERE native_id = ?1) ORDER BY id LIMIT 1`
	}
	next, _, err := c.scalarText(nextSQL, own)
	if err != nil {
		return "", false, err
	}
	short = abbreviate(own, max(sharedBytes(own, prev), sharedBytes(own, next))+1)
	if !s.layout.hasIdentity {
		return short, true, nil
	}
	// Sessions of other sources (or machines) with the same own id: the
	// source tells them apart, and where it does not (one agent's session
	// on two machines) only the stored id does.
	var sharing, sameAgent int
	err = c.query(`SELECT COALESCE(i.source, s.source, '') FROM sessions s LEFT JOIN recall_session_identity i ON i.id = s.id
		WHERE s.id = ?1 AND i.id IS NULL
		UNION ALL SELECT i.source FROM recall_session_identity i JOIN sessions s ON s.id = i.id WHERE i.native_id = ?1`,
		[]any{own}, func(st stmtRow) error {
			sharing++
			if agentOf(st.ColumnText(0)) == agent {
				sameAgent++
			}
			return nil
		})
	switch {
	case err != nil:
		return "", false, err
	case sharing <= 1:
		return short, true, nil
	case sameAgent > 1 || agent == "":
		return id, true, nil
	}
	return short + "@" + agent, true, nil
}

// ownID is the source's own id of the session stored under id, and the
// agent it is of; ok is false when no session is.
func (s *Store) ownID(c *conn, id string) (own, agent string, ok bool, err error) {
	sql := "SELECT id, COALESCE(source, '') FROM sessions WHERE id = ?1"
	if s.layout.hasIdentity {
		sql = `SELECT COALESCE(i.native_id, s.id), COALESCE(i.source, s.source, '') FROM sessions s
			LEFT JOIN recall_session_identity i ON i.id = s.id WHERE s.id = ?1`
	}
	err = c.query(sql, []any{id}, func(st stmtRow) error {
		own, agent, ok = st.ColumnText(0), agentOf(st.ColumnText(1)), true
		return nil
	})
	return own, agent, ok, err
}

// sharedBytes is how many leading bytes a and b share.
func sharedBytes(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// abbreviate is id's prefix of at least n bytes and MinShortID characters,
// cut on a character boundary; id whole when that is all or most of it (a
// prefix one character short of the id saves nothing).
func abbreviate(id string, n int) string {
	cut := 0
	for chars := 0; cut < len(id) && (cut < n || chars < MinShortID); chars++ {
		_, size := utf8.DecodeRuneInString(id[cut:])
		cut += size
	}
	if len(id)-cut <= 1 {
		return id
	}
	return id[:cut]
}

// prefixUpper is the least string greater than every string that starts
// with p (for an indexed range scan): p with its last byte below 0xff
// incremented; "" when there is none (p all 0xff bytes).
func prefixUpper(p string) string {
	b := []byte(strings.TrimRight(p, "\xff"))
	if len(b) == 0 {
		return ""
	}
	b[len(b)-1]++
	return string(b)
}

// idsByPrefix are up to limit stored ids starting with prefix: byte for
// byte (an indexed range: ABCDEFGH and abcdefgh are two short ids), else
// in any case, as typed by hand.
func idsByPrefix(c *conn, prefix string, limit int) ([]string, error) {
	var ids []string
	add := func(st stmtRow) error {
		ids = append(ids, st.ColumnText(0))
		return nil
	}
	q, args := "SELECT id FROM sessions WHERE id >= ?1", []any{prefix}
	if upper := prefixUpper(prefix); upper != "" {
		q, args = q+" AND id < ?2", append(args, upper)
	}
	if err := c.query(q+" ORDER BY started_at, id LIMIT "+strconv.Itoa(limit), args, add); err != nil || len(ids) > 0 {
		return ids, err
	}
	err := c.query("SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY started_at, id LIMIT "+strconv.Itoa(limit),
		[]any{sqlutil.EscapeLike(prefix) + "%"}, add)
	return ids, err
}

// ownWithSource are the stored ids of the sessions of source (an agent:
// "hermes" names every Hermes platform) whose own id is own, else whose own
// id starts with it: a short id "<prefix>@<source>" typed back.
func (s *Store) ownWithSource(c *conn, own, source string) ([]string, error) {
	var exact, prefixed []string
	keep := func(st stmtRow) error {
		if agentOf(st.ColumnText(2)) != agentOf(source) {
			return nil
		}
		if st.ColumnText(1) == own {
			exact = append(exact, st.ColumnText(0))
		} else {
			prefixed = append(prefixed, st.ColumnText(0))
		}
		return nil
	}
	upper := prefixUpper(own)
	if upper == "" {
		return nil, nil
	}
	q := `SELECT s.id, s.id, COALESCE(s.source, '') FROM sessions s WHERE s.id >= ?1 AND s.id < ?2`
	if s.layout.hasIdentity {
		q += ` AND NOT EXISTS (SELECT 1 FROM recall_session_identity i WHERE i.id = s.id)
			UNION ALL SELECT i.id, i.native_id, i.source FROM recall_session_identity i JOIN sessions s ON s.id = i.id
			WHERE i.native_id >= ?1 AND i.native_id < ?2`
	}
	if err := c.query(q+" LIMIT 1000", []any{own, upper}, keep); err != nil {
		return nil, err
	}
	if len(exact) > 0 {
		return exact, nil
	}
	return prefixed, nil
}
