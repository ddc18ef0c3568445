// Package hermes copies Hermes Agent sessions from its state.db
// ($HERMES_HOME/state.db, else ~/.hermes/state.db, plus one per profile
// under profiles/<name>/) into a recall database.
//
// The source is opened read-only and never altered, so an import runs while
// Hermes writes. It is incremental: recall remembers per source database
// the highest message id it copied and, per session, a hash of the session
// row and how many visible messages up to that id it holds. Each run copies
// the changed session rows and the messages after the high-water mark; a
// session whose earlier messages changed in Hermes (a rewind deactivated
// some, or replace_messages rewrote them) is compared whole with recall's
// copy (store.Tx.MirrorSession): it then reads as Hermes shows it, and what
// Hermes took back stays in recall as earlier versions.
//
// Session ids, sources (cli, telegram, subagent, ...), parent links, model,
// title, token counts and costs are kept; messages keep role, tool calls,
// tool names and ids, reasoning and finish reason. Rewound rows (active=0,
// not compacted) and display_kind='hidden' rows are skipped as Hermes's own
// search skips them; multimodal content ("\x00json:" + parts) is reduced to
// its text.
package hermes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName names the importer and its bookkeeping; sessions keep the
// source Hermes gave them.
const SourceName = "hermes"

func init() { importer.Register(&Source{}) }

// Source imports Hermes state.db files.
type Source struct{}

// Name is "hermes".
func (*Source) Name() string { return SourceName }

// Home is $HERMES_HOME, else ~/.hermes.
func Home() string {
	return importer.HomeDir("HERMES_HOME", ".hermes")
}

// DefaultPaths is the main state.db and every profile's.
func (*Source) DefaultPaths() []string {
	h := Home()
	if h == "" {
		return nil
	}
	out := []string{filepath.Join(h, "state.db")}
	profiles, _ := filepath.Glob(filepath.Join(h, "profiles", "*", "state.db"))
	sort.Strings(profiles)
	return append(out, profiles...)
}

// Discover returns the named databases, and for a folder its state.db and
// its profiles' ones.
func (*Source) Discover(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		add(f)
	}
	for _, p := range dirs {
		if db := filepath.Join(p, "state.db"); importer.IsFile(db) {
			add(db)
		}
		profiles, _ := filepath.Glob(filepath.Join(p, "profiles", "*", "state.db"))
		sort.Strings(profiles)
		for _, db := range profiles {
			add(db)
		}
	}
	return out, nil
}

// chunk is how many source messages one target transaction carries.
var chunk = 2000

// sessState is what recall remembers about one copied session.
type sessState struct {
	Hash string `json:"h"`
	N    int    `json:"n"` // visible source messages with id <= HW that were copied
	// C is how many of those were not live (active=0: compacted into a
	// summary). A compaction keeps N (compacted rows stay visible) but
	// changes C, so the session is compared again with its rows' new state.
	C int `json:"c,omitempty"`
	// I is the sum of their ids: a rewind and a restore of as many rows
	// between two imports keep N and C, not I.
	I int64 `json:"i,omitempty"`
}

// counts is what sessState holds of a session's visible rows.
type counts struct {
	n, inactive int
	ids         int64
}

func (ss *sessState) counts() counts {
	if ss == nil {
		return counts{}
	}
	return counts{ss.N, ss.C, ss.I}
}

func (ss *sessState) set(c counts) { ss.N, ss.C, ss.I = c.n, c.inactive, c.ids }

// add counts one more visible message (hermesID its row id).
func (ss *sessState) add(m store.Message) {
	ss.N++
	if m.Inactive {
		ss.C++
	}
	ss.I += hermesID(m)
}

// state is saved in the source's import-file row.
type state struct {
	Sig      sqlitero.Signature    `json:"sig"`
	HW       int64                 `json:"hw"`
	Sessions map[string]*sessState `json:"s"`
}

// Import brings the copy of one Hermes database up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	var rep importer.Report
	if importer.SameFile(file, st.Path()) {
		return rep, fmt.Errorf("%s is the recall database itself", file)
	}
	sig, fi, err := sqlitero.SignatureOf(file)
	if err != nil {
		return rep, err
	}
	t0 := time.Now()
	var prev state
	unchanged := false
	err = st.Write(ctx, func(tx *store.Tx) error {
		rec, ok, err := tx.ImportFile(file)
		if err != nil || !ok {
			return err
		}
		if rec.State != "" && json.Unmarshal([]byte(rec.State), &prev) != nil {
			prev = state{} // unreadable bookkeeping: copy again (message keys prevent duplicates)
		}
		unchanged = prev.Sig == sig
		return nil
	})
	if err != nil {
		return rep, err
	}
	if unchanged {
		rep.Unchanged = 1
		return rep, nil
	}
	if prev.Sessions == nil {
		prev.Sessions = map[string]*sessState{}
	}
	src, err := openSource(ctx, file)
	if err != nil {
		return importer.PassOver(rep, file, err)
	}
	defer src.close()
	imp := &run{ctx: ctx, st: st, src: src, file: file, fi: fi, state: prev, prevSig: prev.Sig, rep: &rep, t0: t0}
	if err := imp.do(sig); err != nil {
		return importer.PassOver(rep, file, err)
	}
	rep.Files = 1
	return rep, nil
}

// same reports whether a and b are the same file.
// run is one import of one source database.
type run struct {
	ctx   context.Context
	st    *store.Store
	src   *source
	file  string
	fi    os.FileInfo
	state state
	rep   *importer.Report
	t0    time.Time

	prevSig sqlitero.Signature    // the signature saved by the last complete run
	rows    map[string]sessionRow // every source session, by id
	written map[string]bool       // sessions written to the target in this run
}

func (r *run) do(sig sqlitero.Signature) error {
	maxID, err := r.src.maxMessageID()
	if err != nil {
		return err
	}
	oldHW := r.state.HW
	if maxID < oldHW {
		// The database was replaced (restored from a backup, recreated):
		// its ids restarted, so every session is compared afresh.
		oldHW = 0
		r.state.HW = 0
		for _, s := range r.state.Sessions {
			s.Hash = ""
		}
	}
	rows, err := r.src.sessions()
	if err != nil {
		return err
	}
	r.rows = map[string]sessionRow{}
	for _, row := range rows {
		r.rows[row.s.ID] = row
	}
	r.written = map[string]bool{}

	// Sessions whose row changed, and sessions with new messages, may also
	// have had earlier messages changed: compare their visible counts.
	check := map[string]bool{}
	var changed []store.Session
	for _, row := range rows {
		if ss := r.state.Sessions[row.s.ID]; ss == nil || ss.Hash != row.hash {
			check[row.s.ID] = true
			changed = append(changed, r.session(row))
		}
	}
	withNew, err := r.src.sessionsWithMessagesAfter(oldHW, maxID)
	if err != nil {
		return err
	}
	for _, id := range withNew {
		check[id] = true
	}
	var resync []string
	now := map[string]counts{}
	for id := range check {
		if _, ok := r.rows[id]; !ok {
			continue
		}
		c, err := r.src.visibleCount(id, oldHW)
		if err != nil {
			return err
		}
		if c != r.state.Sessions[id].counts() {
			resync = append(resync, id)
			now[id] = c
		}
	}
	sort.Strings(resync)
	r.rep.ParseTime += time.Since(r.t0)

	// First transaction: the changed session rows and the sessions whose
	// earlier rows changed, compared whole (store.Tx.MirrorSession: what
	// Hermes took back stays as earlier versions). Write may run fn more
	// than once, so fn works on a copy of the state and the counters are
	// taken only after it committed.
	t1 := time.Now()
	var next state
	var inserted, skippedRows, rewritten int
	err = r.st.Write(r.ctx, func(tx *store.Tx) error {
		defer func() { rewritten = tx.Rewritten() }()
		next, inserted, skippedRows = r.state.clone(), 0, 0
		if err := importer.WriteSessions(tx, changed, true); err != nil {
			return err
		}
		for _, s := range changed {
			next.sess(s.ID).Hash = r.rows[s.ID].hash
		}
		for _, id := range resync {
			// Up to maxID: rows Hermes wrote again under new ids are
			// matched here; the chunks below count them and skip them.
			msgs, skipped, err := r.src.sessionMessages(id, maxID, oldHW)
			if err != nil {
				return err
			}
			n, err := tx.MirrorSession(id, r.rows[id].s.Source, r.usable(msgs, oldHW))
			if err != nil {
				return err
			}
			inserted += n
			skippedRows += skipped
			next.sess(id).set(now[id])
		}
		return r.save(tx, next, r.prevSig)
	})
	if err != nil {
		return err
	}
	r.state = next
	for _, s := range changed {
		r.written[s.ID] = true
	}
	r.rep.Messages += inserted
	r.rep.Rewritten += rewritten
	r.rep.SkipN("rows Hermes hides", skippedRows)
	r.rep.Sessions += len(changed)
	r.rep.WriteTime += time.Since(t1)

	// Then the new messages, a chunk per transaction, each saving the
	// high-water mark with its messages.
	for r.state.HW < maxID {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		t2 := time.Now()
		msgs, last, skipped, err := r.src.messagesAfter(r.state.HW, maxID, chunk)
		if err != nil {
			return err
		}
		if last <= r.state.HW {
			break
		}
		var missing []store.Session
		for _, m := range msgs {
			if _, ok := r.state.Sessions[m.SessionID]; ok || r.written[m.SessionID] {
				continue
			}
			// A session created after the scan above.
			row, ok, err := r.src.session(m.SessionID)
			if err != nil {
				return err
			}
			if !ok {
				row = sessionRow{s: store.Session{ID: m.SessionID, Source: "unknown", StartedAt: m.Timestamp}}
			}
			r.rows[m.SessionID] = row
			missing = append(missing, r.session(row))
			r.written[m.SessionID] = true
		}
		r.rep.ParseTime += time.Since(t2)
		t3 := time.Now()
		err = r.st.Write(r.ctx, func(tx *store.Tx) error {
			next, inserted = r.state.clone(), 0
			if err := importer.WriteSessions(tx, missing, true); err != nil {
				return err
			}
			n, err := r.insert(tx, msgs)
			if err != nil {
				return err
			}
			inserted = n
			for _, m := range msgs {
				next.sess(m.SessionID).add(m)
			}
			for _, s := range missing {
				next.sess(s.ID).Hash = r.rows[s.ID].hash
			}
			next.HW = last
			return r.save(tx, next, r.prevSig)
		})
		if err != nil {
			return err
		}
		r.state = next
		r.rep.Messages += inserted
		r.rep.Sessions += len(missing)
		r.rep.SkipN("rows Hermes hides", skipped)
		r.rep.WriteTime += time.Since(t3)
	}
	r.state.Sig = sig
	return r.st.Write(r.ctx, func(tx *store.Tx) error { return r.save(tx, r.state, sig) })
}

// sess returns the entry for a session, creating it.
func (s *state) sess(id string) *sessState {
	ss := s.Sessions[id]
	if ss == nil {
		ss = &sessState{}
		s.Sessions[id] = ss
	}
	return ss
}

// clone is a deep copy.
func (s state) clone() state {
	c := s
	c.Sessions = make(map[string]*sessState, len(s.Sessions))
	for id, ss := range s.Sessions {
		cp := *ss
		c.Sessions[id] = &cp
	}
	return c
}

// session is the target row for a source session; a parent Hermes no
// longer has is dropped rather than invented.
func (r *run) session(row sessionRow) store.Session {
	s := row.s
	if s.ParentID != "" {
		if _, ok := r.rows[s.ParentID]; !ok {
			s.ParentID = ""
		}
	}
	return s
}

// insert writes messages, noting (and skipping) rows the target cannot hold.
func (r *run) insert(tx *store.Tx, msgs []store.Message) (int, error) {
	ok := r.usable(msgs, math.MaxInt64)
	if len(ok) == 0 {
		return 0, nil
	}
	return tx.InsertMessages(ok)
}

// usable is msgs with their session's source, without the rows the target
// cannot hold; those with ids up to reportUpTo are reported (the others
// are reported when the chunk holding them is copied).
func (r *run) usable(msgs []store.Message, reportUpTo int64) []store.Message {
	ok := msgs[:0:0]
	for _, m := range msgs {
		if row, known := r.rows[m.SessionID]; known {
			m.Source = row.s.Source // Hermes's id may be another source's too
		}
		if m.Role == "" {
			if hermesID(m) <= reportUpTo {
				r.rep.Problemf(r.file, 0, "message %d in session %s has no role", hermesID(m), m.SessionID)
			}
			continue
		}
		ok = append(ok, m)
	}
	return ok
}

// hermesID is the Hermes row id of a message read from the source.
func hermesID(m store.Message) int64 {
	id, _ := strconv.ParseInt(strings.TrimPrefix(m.SourceKey, keyPrefix), 10, 64)
	return id
}

// save records the bookkeeping. Until the run ends the signature saved is
// the one found at its start, so an interrupted run is resumed, not skipped.
func (r *run) save(tx *store.Tx, st state, sig sqlitero.Signature) error {
	st.Sig = sig
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	// The sessions the database holds, so that recall can tell when it is
	// gone (store.SourceGone).
	ids := make([]string, 0, len(st.Sessions))
	for id := range st.Sessions {
		ids = append(ids, r.storedID(tx, id))
	}
	sort.Strings(ids)
	return tx.SetImportFile(store.ImportFile{
		Path: r.file, Source: SourceName, Size: r.fi.Size(), ModTime: r.fi.ModTime(),
		Offset: st.HW, State: string(raw), Sessions: strings.Join(ids, " "),
	})
}

// hashRow is a short hash of a row's columns.
func hashRow(parts []string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// storedID is the id the Hermes session id is stored under in recall (its
// own, unless a session of another source had it first).
func (r *run) storedID(tx *store.Tx, id string) string {
	if row, ok := r.rows[id]; ok {
		if s, found, err := tx.StoredID(row.s.Source, id); err == nil && found {
			return s
		}
	}
	return id
}
