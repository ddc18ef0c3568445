package rowcache

import (
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/budget"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// SessionMap caches, per store, which session each message row belongs to
// and what session-level ranking reads of each session (its title's words,
// its time span), so that a plain query's sessions can be scored over every
// matching row without a lookup per row (store/engine/pipeline). Rows and
// sessions added since the last query are read on the next one; a session
// renamed or a row moved since is caught when the answer's rows are read
// with their session (their columns then differ) and the map is read again.
type SessionMap struct {
	cache    *Cache
	mu       sync.Mutex
	of       []int32 // by message rowid: the session's ordinal, -1 for none
	at       []int32 // by message rowid: its timestamp, in whole seconds
	upTo     int64   // message rowids <= upTo are mapped
	sessUpTo int64   // session rowids <= sessUpTo are loaded
	byID     map[string]int32
	meta     []SessionMeta
	// titleWords: each word of a title (lower-cased, as analysis.Tokens splits)
	// to the sessions whose title holds it.
	titleWords map[string][]int32
}

// SessionMeta is what ranking reads of one session.
type SessionMeta struct {
	ID, Title string
	Started   float64 // epoch seconds
	// first is the session's first message (by time, then id): its first
	// prompt, as far as the index can tell (system prompts live in the
	// sessions table, not in messages).
	First int64
}

// ordinal returns id's ordinal, adding a session with no metadata (a row
// whose session row is missing) when it is new.
func (m *SessionMap) ordinal(id string) int32 {
	if o, ok := m.byID[id]; ok {
		return o
	}
	o := int32(len(m.meta))
	m.byID[id] = o
	m.meta = append(m.meta, SessionMeta{ID: id})
	return o
}

// Refresh reads what was added since the last call. It runs outside the
// search budget: it is a one-time cost per process (about half a second
// per million messages), not the query's.
//
// A message added later than its session's others but dated before them
// does not become the session's first (a native writer back-filling a
// session; recall itself writes sessions in order).
func (m *SessionMap) Refresh(c engine.Conn, l engine.Layout) (ok bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.upTo == 0 && m.sessUpTo == 0 {
		var f sessionsFile
		if m.cache.load(sessionsKind, &f) && sameSessions(c, f) {
			m.restore(f)
		}
	}
	from := m.upTo
	defer func() {
		if err == nil && m.upTo-from >= MinRows {
			f := m.snapshot()
			m.cache.save(sessionsKind, &f)
			m.cache.remove(legacySessionsKind)
		}
	}()
	err = budget.Unbudgeted(c.SQLite(), func() error {
		title := l.TitleCol
		if err := c.Query("SELECT rowid, id, COALESCE("+title+", ''), COALESCE(started_at, 0) FROM sessions s WHERE rowid > ? ORDER BY rowid",
			[]any{m.sessUpTo}, func(st *sqlite3.Stmt) error {
				o := m.ordinal(st.ColumnText(1))
				md := &m.meta[o]
				md.Title, md.Started = st.ColumnText(2), st.ColumnFloat(3)
				for _, w := range query.DedupeFold(analysis.Tokens(md.Title)) {
					m.titleWords[w] = append(m.titleWords[w], o)
				}
				m.sessUpTo = st.ColumnInt64(0)
				return nil
			}); err != nil {
			return err
		}
		top, _, err := c.ScalarInt("SELECT COALESCE(MAX(id), 0) FROM messages")
		if err != nil || top <= m.upTo {
			return err
		}
		if top > MaxRowid {
			return nil
		}
		grown, at := make([]int32, top+1), make([]int32, top+1)
		copy(grown, m.of)
		copy(at, m.at)
		for i := m.upTo + 1; i <= top; i++ {
			grown[i] = -1
		}
		m.of, m.at = grown, at
		// The first fill asks for every row, which SQLite answers from
		// idx_messages_session (session_id, timestamp) alone, in time
		// order within each session (0.45 s per million rows; a rowid
		// range would read every row's text); later ones read the new
		// rows by rowid.
		sql, args := "SELECT id, session_id, timestamp FROM messages ORDER BY session_id, timestamp, id", []any{}
		if m.upTo > 0 {
			sql, args = "SELECT id, session_id, timestamp FROM messages WHERE id > ? AND id <= ? ORDER BY timestamp, id", []any{m.upTo, top}
		}
		unsearched, err := unsearchedRows(c, l, m.upTo, top)
		if err != nil {
			return err
		}
		var last []byte // rows come grouped by session: look a session up once per run
		lastO := int32(-1)
		err = c.Query(sql, args, func(st *sqlite3.Stmt) error {
			if id := st.ColumnInt64(0); id > m.upTo && id <= top && !unsearched[id] {
				sid := st.ColumnRawText(1)
				if lastO < 0 || string(sid) != string(last) {
					lastO, last = m.ordinal(string(sid)), append(last[:0], sid...)
				}
				o := lastO
				RowsFilled.Add(1)
				grown[id], at[id] = o, int32(min(max(st.ColumnFloat(2), 0), 1<<31-1))
				if m.meta[o].First == 0 {
					m.meta[o].First = id
				}
			}
			return nil
		})
		if err == nil {
			m.upTo = top
		}
		return err
	})
	return err == nil && m.upTo <= MaxRowid, err
}

// The sessions file's kind: its rows leave out the unsearched ones since
// version 2, so a file of the first kind is not read (and is removed).
const (
	sessionsKind       = "sessions2"
	legacySessionsKind = "sessions"
)

// unsearchedRows are the rows in (from, to] that search never matches
// (engine.Layout.Unsearched: hidden, rewound). The map leaves them out, so
// no ranking counts them as a session's evidence, nor as its first
// message. On recall's files an index holds exactly these rows (migration
// 1065); a Hermes file without it is read once, at the map's first fill.
func unsearchedRows(c engine.Conn, l engine.Layout, from, to int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if l.Unsearched == "" || l.Unsearched == "0" {
		return out, nil
	}
	err := c.Query("SELECT m.id FROM messages m WHERE m.id > ? AND m.id <= ? AND ("+l.Unsearched+")", []any{from, to}, func(st *sqlite3.Stmt) error {
		out[st.ColumnInt64(0)] = true
		return nil
	})
	return out, err
}

// Forget drops everything and its file (a session or row changed under
// the cache): the next search reads the map again.
func (m *SessionMap) Forget() {
	m.mu.Lock()
	m.of, m.at, m.upTo, m.sessUpTo = nil, nil, 0, 0
	m.byID, m.meta, m.titleWords = map[string]int32{}, nil, map[string][]int32{}
	m.mu.Unlock()
	m.cache.remove(sessionsKind)
}

// View is what one search reads of the map, at one moment: per message
// rowid its session's ordinal (of) and time in whole seconds (at), per
// ordinal the session (meta), all shared and read-only; and, per session
// whose title holds words of pq, the mask of those words.
func (m *SessionMap) View(pq query.Plain) (of, at []int32, meta []SessionMeta, titleMask map[int32]uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.of, m.at, m.meta, m.titleMasks(pq)
}

// titleMasks returns, per session ordinal holding a query word in its
// title, the mask of those words.
func (m *SessionMap) titleMasks(pq query.Plain) map[int32]uint64 {
	out := map[int32]uint64{}
	for i, w := range pq.Words {
		bit := uint64(1) << i
		for _, f := range w.Forms {
			for _, o := range m.titleWords[f] {
				out[o] |= bit
			}
		}
		if w.Prefix {
			p := strings.ToLower(w.Text)
			for tw, list := range m.titleWords {
				if strings.HasPrefix(tw, p) {
					for _, o := range list {
						out[o] |= bit
					}
				}
			}
		}
	}
	return out
}

// sessionsFile is SessionMap as a rank cache file holds it.
type sessionsFile struct {
	UpTo, SessUpTo int64
	Of, At         []int32
	IDs, Titles    []string
	Started        []float64
	First          []int64
}

func (m *SessionMap) snapshot() sessionsFile {
	f := sessionsFile{UpTo: m.upTo, SessUpTo: m.sessUpTo, Of: m.of, At: m.at}
	for _, md := range m.meta {
		f.IDs, f.Titles = append(f.IDs, md.ID), append(f.Titles, md.Title)
		f.Started, f.First = append(f.Started, md.Started), append(f.First, md.First)
	}
	return f
}

// restore fills an empty map from a file, when it is whole.
func (m *SessionMap) restore(f sessionsFile) {
	n := len(f.IDs)
	if f.UpTo <= 0 || int64(len(f.Of)) != f.UpTo+1 || len(f.At) != len(f.Of) || len(f.Titles) != n || len(f.Started) != n || len(f.First) != n {
		return
	}
	for _, o := range f.Of {
		if o >= int32(n) {
			return
		}
	}
	for i, id := range f.IDs {
		o := m.ordinal(id)
		md := &m.meta[o]
		md.Title, md.Started, md.First = f.Titles[i], f.Started[i], f.First[i]
		for _, w := range query.DedupeFold(analysis.Tokens(md.Title)) {
			m.titleWords[w] = append(m.titleWords[w], o)
		}
	}
	m.of, m.at, m.upTo, m.sessUpTo = f.Of, f.At, f.UpTo, f.SessUpTo
}

// sameSessions checks rows spread over a sessions file against the
// database: a file can outlive its database (deleted, and its inode reused).
func sameSessions(c engine.Conn, f sessionsFile) bool {
	ids := SpreadIDs(f.UpTo)
	want := map[int64]string{}
	args := make([]any, 0, len(ids))
	for _, id := range ids {
		if id < int64(len(f.Of)) && f.Of[id] >= 0 && int(f.Of[id]) < len(f.IDs) {
			want[id] = f.IDs[f.Of[id]]
		}
		args = append(args, id)
	}
	got := map[int64]string{}
	err := c.Query("SELECT id, session_id FROM messages WHERE id IN ("+sqlutil.Placeholders(len(args))+")", args, func(st *sqlite3.Stmt) error {
		got[st.ColumnInt64(0)] = st.ColumnText(1)
		return nil
	})
	if err != nil || len(got) != len(want) {
		return false
	}
	for id, sid := range want {
		if got[id] != sid {
			return false
		}
	}
	return true
}
