// Package fill reads the rows a search lists: it takes message ids (the
// best rows, or a session's matching messages) and the caller's filter,
// and gives hits, each message joined with its session, only those the
// filters pass; the WHERE clause and the hit columns every path shares are
// here.
package fill

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/rowcache"
	"github.com/recall-dev/recall/store/engine/score"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Where is the WHERE part shared by every path, over messages m and
// sessions s: visibility (the rows search may match at all, Hermes's rule:
// never a hidden or rewound one) and the caller's filters. It is the one
// place rows are filtered; ranking from the index leaves the unsearched
// rows out before any row is read (rowcache.SessionMap), and reading the
// listed rows checks that it did (Sessions).
func Where(l engine.Layout, f engine.Filter) (string, []any) {
	rest, args := callerWhere(l, f)
	return l.Visible + " AND " + rest, args
}

// callerWhere is the caller's filters of Where, without visibility.
func callerWhere(l engine.Layout, f engine.Filter) (string, []any) {
	where := []string{"1"}
	var args []any
	switch {
	case len(f.Roles) > 0 && f.ShownRoles:
		where, args = shownRoleClause(l, where, args, f.Roles)
	case len(f.Roles) > 0:
		where, args = sqlutil.InClause(where, args, "m.role IN", f.Roles)
	}
	where, args = sqlutil.InClause(where, args, "s.source IN", f.Sources)
	where, args = sqlutil.InClause(where, args, "s.source NOT IN", f.ExcludeSources)
	where, args = sqlutil.InClause(where, args, "m.session_id NOT IN", f.ExcludeSessionIDs)
	where, args = sqlutil.CwdClause(where, args, l.CwdCol, f.Cwd)
	if l.MachineClause != nil {
		where, args = l.MachineClause(where, args, f.Machines)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "m.timestamp >= ?"), append(args, f.Since)
	}
	if !f.Until.IsZero() {
		where, args = append(where, "m.timestamp < ?"), append(args, f.Until)
	}
	return strings.Join(where, " AND "), args
}

// Columns are the columns of a hit, over messages m and sessions s, with
// snippet and rank as SQL (ScanHit reads them).
func Columns(l engine.Layout, snippet string, rank string) string {
	return "m.id, m.session_id, m.role, " + snippet + ", m.timestamp, COALESCE(m.tool_name, ''), COALESCE(s.source, ''), COALESCE(s.model, ''), COALESCE(" +
		l.TitleCol + ", ''), COALESCE(s.started_at, 0), COALESCE(s.parent_session_id, ''), " + rank +
		", COALESCE(" + l.DisplayKindCol + ", '')"
}

// ColumnCount is how many columns Columns selects (a query may add its own after them).
const ColumnCount = 13

// ScanHit reads a row of Columns, served by index.
func ScanHit(st *sqlite3.Stmt, index engine.Index) engine.Hit {
	return engine.Hit{
		MessageID: st.ColumnInt64(0), SessionID: st.ColumnText(1), Role: st.ColumnText(2), Snippet: strings.TrimSpace(st.ColumnText(3)),
		Timestamp: sqlutil.FromEpoch(st.ColumnFloat(4)), ToolName: st.ColumnText(5), Source: st.ColumnText(6), Model: st.ColumnText(7),
		SessionTitle: st.ColumnText(8), SessionStarted: sqlutil.FromEpoch(st.ColumnFloat(9)), ParentID: st.ColumnText(10),
		Rank: st.ColumnFloat(11), Index: index, DisplayKind: st.ColumnText(12),
	}
}

// ErrStale: a row read with its session disagrees with the session map
// (a session renamed, a message moved since the map was read).
var ErrStale = errors.New("session map out of date")

// Sessions reads each session's matching messages that pass the filters
// (Where), best first, at most perSession; ErrStale when one's session or
// title differs from the map's (meta), or when one is no longer searched
// (hidden or rewound in place since the map left the others out: it
// counted in its session's rank).
func Sessions(c engine.Conn, l engine.Layout, batch []*collect.Sess, meta []rowcache.SessionMeta, f engine.Filter, perSession int) error {
	var args []any
	bySess := map[int64]*collect.Sess{}
	for _, se := range batch {
		for _, r := range se.Rows {
			args = append(args, r.ID)
			bySess[r.ID] = se
		}
	}
	filter, fargs := callerWhere(l, f)
	sql := "SELECT " + Columns(l, "''", "0") + ", (" + l.Visible + ") FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id IN (" +
		sqlutil.Placeholders(len(args)) + ") AND " + filter
	stale := false
	err := c.Query(sql, append(args, fargs...), func(st *sqlite3.Stmt) error {
		h := ScanHit(st, engine.IndexUnicode61)
		if se := bySess[h.MessageID]; se != nil {
			if md := meta[se.O]; h.SessionID != md.ID || (l.HasTitle && h.SessionTitle != md.Title) {
				stale = true
			}
			if st.ColumnInt(ColumnCount) == 0 {
				stale = true // the map counted a row search no longer matches
				return nil
			}
			h.Rank = -se.Value(h.MessageID)
			se.Hits = append(se.Hits, h)
		}
		return nil
	})
	for _, se := range batch {
		// Best first, newer first among equals: as they are listed.
		slices.SortFunc(se.Hits, func(a, b engine.Hit) int {
			if c := collect.CmpFloatDesc(-a.Rank, -b.Rank); c != 0 {
				return c
			}
			return cmp.Compare(b.MessageID, a.MessageID)
		})
		if len(se.Hits) > 0 {
			se.Hits[0].SessionHits = len(se.Hits)
		}
		se.Hits = se.Hits[:min(len(se.Hits), perSession)]
	}
	if err == nil && stale {
		err = ErrStale
	}
	return err
}

// FirstMessages returns each session's first message id (by time), one
// indexed lookup per session (idx_messages_session).
func FirstMessages(c engine.Conn, ids []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	sql := "SELECT v.column1, (SELECT id FROM messages WHERE session_id = v.column1 AND role = 'user' ORDER BY timestamp, id LIMIT 1) FROM (VALUES " +
		strings.TrimSuffix(strings.Repeat("(?),", len(ids)), ",") + ") v"
	err := c.Query(sql, args, func(st *sqlite3.Stmt) error {
		out[st.ColumnText(0)] = st.ColumnInt64(1)
		return nil
	})
	return out, err
}

// TitleRows finds up to plainTitleSessions sessions whose title holds a
// word of pq and returns their first prompts' ids.
func TitleRows(c engine.Conn, l engine.Layout, pq query.Plain) ([]int64, error) {
	if !l.HasTitle {
		return nil, nil
	}
	var conds []string
	var args []any
	for _, w := range pq.Words {
		conds = append(conds, "s.title LIKE ? ESCAPE '\\'")
		args = append(args, "%"+sqlutil.EscapeLike(strings.ToLower(w.Text))+"%")
	}
	var ids []string
	err := c.Query("SELECT s.id FROM sessions s WHERE "+strings.Join(conds, " OR ")+" ORDER BY s.started_at DESC LIMIT ?",
		append(args, plainTitleSessions), func(st *sqlite3.Stmt) error {
			ids = append(ids, st.ColumnText(0))
			return nil
		})
	if err != nil {
		return nil, err
	}
	firsts, err := FirstMessages(c, ids)
	var out []int64
	for _, id := range ids {
		if f := firsts[id]; f != 0 {
			out = append(out, f)
		}
	}
	return out, err
}

// plainTitleSessions bounds the sessions found by their title alone.
const plainTitleSessions = 20

// maxDateSessions bounds the sessions of a date whose rows are preferred.
const maxDateSessions = 200

// DateSpans returns the message id span of each session started in d
// (none for a zero range), newest sessions first, at most maxDateSessions.
func DateSpans(c engine.Conn, d query.DateRange) (score.Spans, error) {
	if d.Zero() {
		return nil, nil
	}
	var out score.Spans
	err := c.Query("SELECT (SELECT MIN(id) FROM messages WHERE session_id = s.id), (SELECT MAX(id) FROM messages WHERE session_id = s.id)"+
		" FROM sessions s WHERE s.started_at >= ? AND s.started_at < ? ORDER BY s.started_at DESC LIMIT ?",
		[]any{sqlutil.ToEpoch(d.From), sqlutil.ToEpoch(d.To), maxDateSessions}, func(st *sqlite3.Stmt) error {
			out = append(out, [2]int64{st.ColumnInt64(0), st.ColumnInt64(1)})
			return nil
		})
	return out, err
}

// ByID reads the messages ids that pass the filters (Where), as hits
// served by index, with their searchable text when withText (decoded, for
// a Go score or snippet), calling fn for each in no particular order.
func ByID(c engine.Conn, l engine.Layout, ids []any, filter string, fargs []any, index engine.Index, withText bool, fn func(h engine.Hit, text string)) error {
	cols := Columns(l, "''", "0")
	if withText {
		cols += ", " + engine.Haystack
	}
	sql := "SELECT " + cols + " FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id IN (" +
		sqlutil.Placeholders(len(ids)) + ") AND " + filter
	return c.Query(sql, append(ids, fargs...), func(st *sqlite3.Stmt) error {
		text := ""
		if withText {
			text = analysis.DecodeContent(st.ColumnText(ColumnCount))
		}
		fn(ScanHit(st, index), text)
		return nil
	})
}
