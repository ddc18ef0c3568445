package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// sessionSelect is the column list scanSession reads, built per layout so old
// Hermes files without some columns read the same way.
func (l layout) sessionSelect() string {
	cols := []string{
		"s.id", "COALESCE(s.source, '')", "COALESCE(s.model, '')",
		"COALESCE(" + l.sessionCol("model_config", "NULL") + ", '')",
		"COALESCE(" + l.sessionCol("title", "NULL") + ", '')",
		"COALESCE(s.parent_session_id, '')", "COALESCE(s.started_at, 0)", "COALESCE(s.ended_at, 0)",
		"COALESCE(s.end_reason, '')", "COALESCE(s.message_count, 0)", "COALESCE(s.tool_call_count, 0)",
		"COALESCE(s.input_tokens, 0)", "COALESCE(s.output_tokens, 0)",
		"COALESCE(" + l.sessionCol("cache_read_tokens", "0") + ", 0)",
		"COALESCE(" + l.sessionCol("cache_write_tokens", "0") + ", 0)",
		"COALESCE(" + l.sessionCol("reasoning_tokens", "0") + ", 0)",
		"COALESCE(" + l.sessionCol("estimated_cost_usd", "0") + ", 0)",
		"COALESCE(" + l.sessionCol("actual_cost_usd", "0") + ", 0)",
		"COALESCE(" + l.sessionCol("cwd", "NULL") + ", '')",
		"COALESCE(" + l.sessionCol("git_branch", "NULL") + ", '')",
		"COALESCE(" + l.sessionCol("archived", "0") + ", 0)",
	}
	if l.hasIdentity {
		cols = append(cols, "COALESCE((SELECT i.native_id FROM recall_session_identity i WHERE i.id = s.id), s.id)",
			"COALESCE((SELECT i.machine FROM recall_session_identity i WHERE i.id = s.id), '')")
	} else {
		cols = append(cols, "s.id", "''")
	}
	if l.hasSync {
		cols = append(cols, `COALESCE((SELECT COALESCE(m.host, m.name) FROM recall_session_identity i JOIN recall_machines m ON m.id = i.machine
			WHERE i.id = s.id AND i.machine <> ''), '')`)
	} else {
		cols = append(cols, "''")
	}
	return strings.Join(cols, ", ")
}

const sessionColumns = 24

func scanSession(st stmtRow, at int) Session {
	return Session{
		ID: st.ColumnText(at), Source: st.ColumnText(at + 1), Model: st.ColumnText(at + 2),
		ModelConfig: st.ColumnText(at + 3), Title: st.ColumnText(at + 4), ParentID: st.ColumnText(at + 5),
		StartedAt: fromEpoch(st.ColumnFloat(at + 6)), EndedAt: fromEpoch(st.ColumnFloat(at + 7)),
		EndReason: st.ColumnText(at + 8), MessageCount: st.ColumnInt(at + 9), ToolCallCount: st.ColumnInt(at + 10),
		InputTokens: st.ColumnInt64(at + 11), OutputTokens: st.ColumnInt64(at + 12),
		CacheReadTokens: st.ColumnInt64(at + 13), CacheWriteTokens: st.ColumnInt64(at + 14),
		ReasoningTokens: st.ColumnInt64(at + 15), EstimatedCostUSD: st.ColumnFloat(at + 16),
		ActualCostUSD: st.ColumnFloat(at + 17), Cwd: st.ColumnText(at + 18), GitBranch: st.ColumnText(at + 19),
		Archived: st.ColumnInt(at+20) != 0, NativeID: st.ColumnText(at + 21), Machine: st.ColumnText(at + 22), Host: st.ColumnText(at + 23),
	}
}

// UpsertSession inserts a session or, when it exists, fills only its empty
// columns (Hermes create_session semantics: a later bare write never clobbers).
// The session is named by its identity (identity.go): sess.ID (or NativeID)
// is the source's own id, and the store picks the stored one.
func (tx *Tx) UpsertSession(sess Session) error {
	_, err := tx.upsertSession(sess)
	return err
}

// UpsertSessionID is UpsertSession that also returns the id the session is
// stored under.
func (tx *Tx) UpsertSessionID(sess Session) (string, error) {
	return tx.upsertSession(sess)
}

func (tx *Tx) upsertSession(sess Session) (string, error) {
	if sess.ID == "" && sess.NativeID == "" {
		return "", errors.New("upsert session: empty session id")
	}
	if sess.Source == "" {
		sess.Source = "unknown"
	}
	ident := identityOf(sess)
	stored, _, err := tx.storedID(ident, true)
	if err != nil {
		return "", err
	}
	if gone, err := tx.sessionForgotten(stored); err != nil || gone {
		return stored, err // forgotten: an import must not bring it back
	}
	sess.ID = stored
	tx.redactSession(&sess)
	if sess.StartedAt.IsZero() {
		sess.StartedAt = now()
	}
	title, err := tx.keptTitle(sanitizeTitle(sess.Title))
	if err != nil {
		return "", err
	}
	if title, err = tx.freeTitle(sess.ID, title); err != nil {
		return "", err
	}
	if sess.ParentID, err = tx.parentOrPending(stored, sess); err != nil {
		return "", err
	}
	err = tx.c.run(`INSERT INTO sessions(id, source, model, model_config, title, parent_session_id, started_at, ended_at, end_reason,
			input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, estimated_cost_usd, actual_cost_usd,
			cwd, git_branch)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
		ON CONFLICT(id) DO UPDATE SET
			started_at = MIN(sessions.started_at, excluded.started_at),
			model = COALESCE(sessions.model, excluded.model),
			model_config = COALESCE(sessions.model_config, excluded.model_config),
			title = COALESCE(sessions.title, excluded.title),
			parent_session_id = COALESCE(sessions.parent_session_id, excluded.parent_session_id),
			ended_at = COALESCE(sessions.ended_at, excluded.ended_at),
			end_reason = COALESCE(sessions.end_reason, excluded.end_reason),
			cwd = COALESCE(sessions.cwd, excluded.cwd),
			git_branch = COALESCE(sessions.git_branch, excluded.git_branch)`,
		sess.ID, sess.Source, nullString(sess.Model), nullString(sess.ModelConfig), nullString(title),
		nullString(sess.ParentID), sess.StartedAt, sess.EndedAt, nullString(sess.EndReason),
		sess.InputTokens, sess.OutputTokens, sess.CacheReadTokens, sess.CacheWriteTokens, sess.ReasoningTokens,
		sess.EstimatedCostUSD, nullFloat(sess.ActualCostUSD), nullString(sess.Cwd), nullString(sess.GitBranch))
	if err != nil {
		return "", fmt.Errorf("upsert session %s: %w", sess.ID, err)
	}
	if tx.s.layout.hasImportMeta && !tx.pendingParents {
		// A child parked earlier may be waiting for this very session.
		_, waiting, err := tx.c.scalarInt("SELECT 1 FROM recall_pending_parents WHERE parent_id = ? LIMIT 1", ident.native)
		if err != nil {
			return "", err
		}
		tx.pendingParents = waiting
	}
	return stored, nil
}

// UpdateSession overwrites a session's descriptive and accounting columns
// (used by importers when a source file changed); empty strings keep the old value.
func (tx *Tx) UpdateSession(sess Session) error {
	stored, err := tx.upsertSession(sess)
	if err != nil {
		return err
	}
	if gone, err := tx.sessionForgotten(stored); err != nil || gone {
		return err
	}
	tx.redactSession(&sess)
	base, err := tx.keptTitle(sanitizeTitle(sess.Title))
	if err != nil {
		return err
	}
	title, displaced, err := tx.titleByTime(stored, base, sess.StartedAt)
	if err != nil {
		return err
	}
	if sess.ParentID, err = tx.parentOrPending(stored, sess); err != nil {
		return err
	}
	sess.ID = stored
	err = tx.c.run(`UPDATE sessions SET
			source = COALESCE(?2, source), model = COALESCE(?3, model), title = COALESCE(?4, title),
			parent_session_id = COALESCE(?5, parent_session_id), started_at = COALESCE(?6, started_at),
			ended_at = COALESCE(?7, ended_at), end_reason = COALESCE(?8, end_reason),
			input_tokens = ?9, output_tokens = ?10, cache_read_tokens = ?11, cache_write_tokens = ?12,
			reasoning_tokens = ?13, estimated_cost_usd = ?14, actual_cost_usd = COALESCE(?15, actual_cost_usd),
			cwd = COALESCE(?16, cwd), git_branch = COALESCE(?17, git_branch), model_config = COALESCE(?18, model_config)
		WHERE id = ?1`,
		sess.ID, nullString(sess.Source), nullString(sess.Model), nullString(title), nullString(sess.ParentID),
		sess.StartedAt, sess.EndedAt, nullString(sess.EndReason), sess.InputTokens, sess.OutputTokens,
		sess.CacheReadTokens, sess.CacheWriteTokens, sess.ReasoningTokens, sess.EstimatedCostUSD,
		nullFloat(sess.ActualCostUSD), nullString(sess.Cwd), nullString(sess.GitBranch), nullString(sess.ModelConfig))
	if err == nil && tx.s.layout.sessionCols["archived"] {
		// An update carries the whole current row (Overwrite), so archived
		// is copied both ways: Hermes un-archives too.
		err = tx.c.run("UPDATE sessions SET archived = ? WHERE id = ?", boolInt(sess.Archived), sess.ID)
	}
	if err == nil {
		err = tx.retitle(displaced, base)
	}
	if err != nil {
		return fmt.Errorf("update session %s: %w", sess.ID, err)
	}
	return nil
}

// parentOrPending returns the stored id of sess's parent (named by its own
// id, of sess's source and machine, else the one session of that id) when
// that session exists; otherwise it parks the link in
// recall_pending_parents (set by finish once the parent arrives) and
// returns "", because parent_session_id is a foreign key.
func (tx *Tx) parentOrPending(id string, sess Session) (string, error) {
	parent := sess.ParentID
	if parent == "" || parent == id || parent == identityOf(sess).native {
		return "", nil
	}
	stored, ok, err := tx.parentSession(identity{machine: sess.Machine, source: sess.Source, native: parent})
	if err != nil || ok {
		if stored == id {
			return "", err
		}
		return stored, err
	}
	if !tx.s.layout.hasImportMeta {
		return "", nil
	}
	tx.pendingParents = true
	if tx.s.layout.hasIdentity {
		return "", tx.c.run("INSERT OR REPLACE INTO recall_pending_parents(session_id, parent_id, parent_source) VALUES (?, ?, ?)", id, parent, sess.Source)
	}
	return "", tx.c.run("INSERT OR REPLACE INTO recall_pending_parents(session_id, parent_id) VALUES (?, ?)", id, parent)
}

// ParentSession returns the stored id of sess's parent (sess.ParentID, the
// source's own id) when that session exists (see parentOrPending).
func (tx *Tx) ParentSession(sess Session) (string, bool, error) {
	if sess.ParentID == "" {
		return "", false, nil
	}
	return tx.parentSession(identity{machine: sess.Machine, source: sess.Source, native: sess.ParentID})
}

// parentSession finds an existing parent session of the child's identity
// (its agent and machine: a Hermes subagent's parent is a cli session), or
// one the transaction wrote under that own id (the same file's); never a
// session of another agent that happens to have the id.
func (tx *Tx) parentSession(p identity) (string, bool, error) {
	stored, ok, err := tx.storedID(p, false)
	if err != nil {
		return "", false, err
	}
	if !ok {
		w := tx.scope().written[p.native]
		if len(w) != 1 {
			return "", false, nil
		}
		stored = w[0]
	}
	_, exists, err := tx.c.scalarText("SELECT id FROM sessions WHERE id = ?", stored)
	return stored, exists, err
}

// titleByTime is freeTitle for a session that started at started, with
// repeats numbered by time rather than by write order: when a session that
// started later holds the title (or a "#N" of it this session would
// otherwise skip past), it gives it up (its title is cleared and its id
// returned, for retitle once this session's title is written), so the
// oldest session keeps the plain title and "#2" is the next one.
func (tx *Tx) titleByTime(id, title string, started time.Time) (string, []string, error) {
	if title == "" || started.IsZero() {
		t, err := tx.freeTitle(id, title)
		return t, nil, err
	}
	candidate := title
	for n := 2; n < 10000; n++ {
		var owner string
		var ownerStarted float64
		found := false
		err := tx.c.query("SELECT id, COALESCE(started_at, 0) FROM sessions WHERE title = ?", []any{candidate}, func(st stmtRow) error {
			owner, ownerStarted, found = st.ColumnText(0), st.ColumnFloat(1), true
			return nil
		})
		if err != nil {
			return "", nil, err
		}
		if !found || owner == id {
			return candidate, nil, nil
		}
		if fromEpoch(ownerStarted).After(started) {
			if err := tx.c.run("UPDATE sessions SET title = NULL WHERE id = ?", owner); err != nil {
				return "", nil, err
			}
			return candidate, []string{owner}, nil
		}
		candidate = fmt.Sprintf("%s #%d", title, n)
	}
	return "", nil, fmt.Errorf("title %q: too many sessions share it", title)
}

// retitle gives the sessions ids, whose title a session that started
// earlier took, the next free "title #N" by the same rule.
func (tx *Tx) retitle(ids []string, title string) error {
	for depth := 0; len(ids) > 0 && depth < 10000; depth++ {
		id := ids[0]
		ids = ids[1:]
		var started float64
		if err := tx.c.query("SELECT COALESCE(started_at, 0) FROM sessions WHERE id = ?", []any{id}, func(st stmtRow) error {
			started = st.ColumnFloat(0)
			return nil
		}); err != nil {
			return err
		}
		t, more, err := tx.titleByTime(id, title, fromEpoch(started))
		if err != nil {
			return err
		}
		if err := tx.c.run("UPDATE sessions SET title = ? WHERE id = ?", nullString(t), id); err != nil {
			return fmt.Errorf("retitle session %s: %w", id, err)
		}
		ids = append(ids, more...)
	}
	return nil
}

// freeTitle returns title, or "title #N" when another session holds it:
// Hermes keeps titles unique (idx_sessions_title_unique) and numbers repeats.
func (tx *Tx) freeTitle(id, title string) (string, error) {
	if title == "" {
		return "", nil
	}
	candidate := title
	for n := 2; n < 10000; n++ {
		owner, ok, err := tx.c.scalarText("SELECT id FROM sessions WHERE title = ?", candidate)
		if err != nil {
			return "", err
		}
		if !ok || owner == id {
			return candidate, nil
		}
		candidate = fmt.Sprintf("%s #%d", title, n)
	}
	return "", fmt.Errorf("title %q: too many sessions share it", title)
}

// sanitizeTitle applies Hermes's title rules: control and invisible
// characters removed, whitespace collapsed, at most 100 characters.
func sanitizeTitle(t string) string {
	var b strings.Builder
	for _, r := range t {
		switch {
		case r < 0x20 || r == 0x7f, r >= 0x200b && r <= 0x200f, r >= 0x2028 && r <= 0x202e,
			r >= 0x2060 && r <= 0x2069, r == 0xfeff, r >= 0xfff9 && r <= 0xfffc:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	t = strings.Join(strings.Fields(b.String()), " ")
	if r := []rune(t); len(r) > TitleMaxChars {
		t = strings.TrimSpace(string(r[:TitleMaxChars]))
	}
	return t
}

func nullFloat(f float64) any {
	if f == 0 {
		return nil
	}
	return f
}

// DeleteSession removes a session and its messages; its children are orphaned, as in Hermes.
func (tx *Tx) DeleteSession(id string) error {
	if err := tx.c.run("UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?", id); err != nil {
		return err
	}
	if err := tx.c.run("DELETE FROM messages WHERE session_id = ?", id); err != nil {
		return err
	}
	return tx.c.run("DELETE FROM sessions WHERE id = ?", id)
}

// Session returns one session.
func (s *Store) Session(ctx context.Context, id string) (Session, error) {
	var sess Session
	found := false
	err := s.read(ctx, func(c *conn) error {
		return c.query("SELECT "+s.layout.sessionSelect()+" FROM sessions s WHERE s.id = ?", []any{id}, func(st stmtRow) error {
			sess, found = scanSession(st, 0), true
			return nil
		})
	})
	if err != nil {
		return sess, fmt.Errorf("get session %s: %w", id, err)
	}
	if !found {
		return sess, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	return sess, nil
}

// ResolveSessionID returns the stored id of the session arg names: its
// stored id, the source's own id for it when one session has that own id,
// "<own id>@<source>" or "<prefix of it>@<source>" (a short id, ShortIDs),
// else the single stored id starting with arg (byte for byte, else in any
// case). An arg that fits several sessions is an error naming each by its
// short id.
func (s *Store) ResolveSessionID(ctx context.Context, arg string) (string, error) {
	var ids []string
	var more bool
	err := s.read(ctx, func(c *conn) error {
		ids, more = ids[:0], false
		if _, ok, err := c.scalarText("SELECT id FROM sessions WHERE id = ?", arg); err != nil || ok {
			if ok {
				ids = []string{arg}
			}
			return err
		}
		if s.layout.hasIdentity {
			err := c.query(`SELECT i.id FROM recall_session_identity i JOIN sessions s ON s.id = i.id
				WHERE i.native_id = ? ORDER BY s.started_at, i.id LIMIT 6`, []any{arg}, func(st stmtRow) error {
				ids = append(ids, st.ColumnText(0))
				return nil
			})
			if err != nil || len(ids) > 0 {
				return err
			}
		}
		if at := strings.LastIndexByte(arg, '@'); at > 0 {
			var err error
			if ids, err = s.ownWithSource(c, arg[:at], arg[at+1:]); err != nil || len(ids) > 0 {
				return err
			}
		}
		if len(arg) > maxIDPrefix {
			// Not an id and too long for a LIKE pattern (SQLite refuses
			// patterns over 50,000 bytes as "too complex").
			return nil
		}
		var err error
		ids, err = idsByPrefix(c, arg, 6)
		return err
	})
	if len(ids) > 5 {
		ids, more = ids[:5], true
	}
	switch {
	case err != nil:
		return "", err
	case len(ids) == 0:
		return "", fmt.Errorf("session %q: %w", clipID(arg), ErrNotFound)
	case len(ids) > 1:
		return "", s.ambiguous(ctx, arg, ids, more)
	}
	return ids[0], nil
}

// ambiguous is the error for an id that fits several sessions: each is
// named by its short id (ShortIDs), with its source where that does not
// say it, so the person can pick one and type it back.
func (s *Store) ambiguous(ctx context.Context, arg string, ids []string, more bool) error {
	short, _ := s.ShortIDs(ctx, ids) // a stored id names it if this fails
	names := make([]string, 0, len(ids)+1)
	for _, id := range ids {
		name := clipID(id)
		if sh, ok := short[id]; ok {
			name = clipID(sh)
		}
		if sess, err := s.Session(ctx, id); err == nil && (sess.Host != "" || !strings.Contains(name, "@")) {
			if sess.Host != "" {
				sess.Source += "@" + sess.Host
			}
			name += " (" + sess.Source + ")"
		}
		names = append(names, name)
	}
	if more {
		names = append(names, "…")
	}
	return fmt.Errorf("session id %q is ambiguous: %s", clipID(arg), strings.Join(names, ", "))
}

// maxIDPrefix is the longest id prefix looked up by LIKE, in bytes: ids
// are tens of bytes; a longer text is matched exactly or not at all.
const maxIDPrefix = 1024

// clipID shortens an id for an error message: a caller may pass anything.
func clipID(id string) string {
	if len(id) <= 80 {
		return id
	}
	cut := 80
	for cut > 0 && !utf8.RuneStart(id[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…[%d bytes]", id[:cut], len(id))
}

// SessionByTitle finds a session by exact title, case-insensitively.
func (s *Store) SessionByTitle(ctx context.Context, title string) (Session, error) {
	if !s.layout.sessionCols["title"] || strings.TrimSpace(title) == "" {
		return Session{}, ErrNotFound
	}
	var sess Session
	found := false
	err := s.read(ctx, func(c *conn) error {
		return c.query(s.sessionByTitleSQL(),
			[]any{strings.TrimSpace(title)}, func(st stmtRow) error {
				sess, found = scanSession(st, 0), true
				return nil
			})
	})
	if err != nil {
		return sess, err
	}
	if !found {
		return sess, ErrNotFound
	}
	return sess, nil
}

// sessionByTitleSQL finds the newest session of a title, any case (by
// idx_sessions_title_nocase where the file has it).
func (s *Store) sessionByTitleSQL() string {
	return "SELECT " + s.layout.sessionSelect() + " FROM sessions s WHERE s.title = ? COLLATE NOCASE ORDER BY s.started_at DESC LIMIT 1"
}

// ListOptions filters and pages RecentSessions.
type ListOptions struct {
	Limit, Offset  int
	Sources        []string
	ExcludeSources []string
	Since, Until   time.Time // on started_at
	// IncludeChildren includes delegated and compressed children; without
	// it a list holds root sessions and branches (a /branch, a Codex
	// fork: a conversation of its own), as Hermes lists them.
	IncludeChildren bool
	Cwd             string // only sessions run in this directory or under it ("" all)
	// Machines keeps only sessions from these machines (an id, name or ssh
	// host; "local" for this machine's own), as Sources does for sources.
	Machines []string
}

// RecentSessions lists sessions by last activity, newest first, with a preview of the first user
// message the person typed (a row with a display kind, such as a slash
// command or text the agent wrote into a user record, never previews) and
// the last activity time; it reads no other message bodies.
func (s *Store) RecentSessions(ctx context.Context, o ListOptions) ([]SessionSummary, error) {
	if o.Limit <= 0 {
		o.Limit = 20
	}
	var where []string
	var args []any
	if !o.IncludeChildren {
		where = append(where, s.layout.listableSession())
	}
	if s.layout.sessionCols["archived"] {
		where = append(where, "COALESCE(s.archived, 0) = 0")
	}
	where, args = sqlutil.InClause(where, args, "s.source IN", o.Sources)
	where, args = sqlutil.InClause(where, args, "s.source NOT IN", o.ExcludeSources)
	where, args = s.cwdClause(where, args, o.Cwd)
	where, args = s.layout.machineClause(where, args, o.Machines)
	if !o.Since.IsZero() {
		where, args = append(where, "s.started_at >= ?"), append(args, o.Since)
	}
	if !o.Until.IsZero() {
		where, args = append(where, "s.started_at < ?"), append(args, o.Until)
	}
	cond := "1"
	if len(where) > 0 {
		cond = strings.Join(where, " AND ")
	}
	vis := s.layout.visibleMessage()
	// The page of sessions is chosen first (MATERIALIZED) so the preview
	// subqueries run for the rows shown, not for every session before the
	// sort: on a million-message corpus that is 40 ms instead of 12 s.
	//
	// Sessions are ordered by last activity (their newest message), as
	// Claude Code's and Codex's own pickers do, and the list shows that
	// time: a session resumed today comes first whenever it started. The
	// importers keep ended_at at the newest message's time, so that is
	// read where set; only a session without it costs a seek into
	// idx_messages_session (40,000 seeks are over a second under wazero).
	// Only ids and times are sorted; the page's rows are read after.
	q := `WITH ranked AS MATERIALIZED (SELECT s.id, MAX(COALESCE(s.ended_at, (SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = s.id), 0),
			COALESCE(s.started_at, 0)) AS last_active FROM sessions s WHERE ` + cond + `
			ORDER BY last_active DESC, s.id DESC LIMIT ? OFFSET ?),
		page AS MATERIALIZED (SELECT s.*, r.last_active FROM ranked r JOIN sessions s ON s.id = r.id)
		SELECT ` + s.layout.sessionSelect() + `,
		COALESCE((SELECT CASE WHEN substr(CAST(m.content AS BLOB), 1, 1) = X'00' THEN m.content ELSE substr(m.content, 1, 200) END FROM messages m WHERE m.session_id = s.id AND m.role = 'user'
			AND m.content IS NOT NULL AND m.content <> '' AND ` + vis + ` AND ` + s.layout.ordinaryMessage() + ` ORDER BY m.id LIMIT 1), ''),
		s.last_active
		FROM page s ORDER BY s.last_active DESC, s.id DESC`
	args = append(args, o.Limit, o.Offset)
	var out []SessionSummary
	err := s.read(ctx, func(c *conn) error {
		return c.query(q, args, func(st stmtRow) error {
			out = append(out, SessionSummary{
				Session:    scanSession(st, 0),
				Preview:    preview(DecodeContent(st.ColumnText(sessionColumns)), PreviewChars),
				LastActive: fromEpoch(st.ColumnFloat(sessionColumns + 1)),
			})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// preview collapses whitespace and cuts to n characters plus "...", as Hermes does.
func preview(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}

// RootSession walks parent_session_id to the root of the lineage, whatever
// the edge type (delegation, compression, branch), guarding against cycles.
func (s *Store) RootSession(ctx context.Context, id string) (string, error) {
	cur := id
	seen := map[string]bool{}
	err := s.read(ctx, func(c *conn) error {
		for hops := 0; hops < 100 && !seen[cur]; hops++ {
			seen[cur] = true
			parent, ok, err := c.scalarText("SELECT COALESCE(parent_session_id, '') FROM sessions WHERE id = ?", cur)
			if err != nil {
				return err
			}
			if !ok || parent == "" {
				return nil
			}
			if _, exists, err := c.scalarText("SELECT id FROM sessions WHERE id = ?", parent); err != nil || !exists {
				return err // a dangling parent: the child is the root we can show
			}
			cur = parent
		}
		return nil
	})
	return cur, err
}

// Children lists the sessions whose parent is id.
func (s *Store) Children(ctx context.Context, id string) ([]string, error) {
	var out []string
	err := s.read(ctx, func(c *conn) error {
		return c.query("SELECT id FROM sessions WHERE parent_session_id = ? ORDER BY started_at, id", []any{id}, func(st stmtRow) error {
			out = append(out, st.ColumnText(0))
			return nil
		})
	})
	return out, err
}

// RootSessions resolves many sessions to their lineage roots in one recursive
// query (the discover phase resolves every hit's session while the user types).
// Sessions that do not exist map to themselves; cycles stop after 100 hops.
func (s *Store) RootSessions(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	var pending []string
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			out[id] = id
			pending = append(pending, id)
		}
	}
	if len(pending) == 0 {
		return out, nil
	}
	ph := strings.TrimSuffix(strings.Repeat("(?),", len(pending)), ",")
	args := make([]any, len(pending))
	for i, id := range pending {
		args[i] = id
	}
	q := `WITH RECURSIVE start(id) AS (VALUES ` + ph + `),
		walk(start, cur, depth) AS (
			SELECT id, id, 0 FROM start
			UNION ALL
			SELECT w.start, p.id, w.depth + 1 FROM walk w
			JOIN sessions c ON c.id = w.cur
			JOIN sessions p ON p.id = c.parent_session_id
			WHERE w.depth < 100 AND p.id <> w.start)
		SELECT start, cur FROM walk w WHERE depth = (SELECT MAX(depth) FROM walk x WHERE x.start = w.start)`
	err := s.read(ctx, func(c *conn) error {
		return c.query(q, args, func(st stmtRow) error {
			out[st.ColumnText(0)] = st.ColumnText(1)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("resolve lineage roots: %w", err)
	}
	return out, nil
}
