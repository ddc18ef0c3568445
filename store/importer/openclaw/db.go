package openclaw

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
	"github.com/recall-dev/recall/store/importer/pi"
)

// window is one row of session_windows (one session id of a session key)
// with what its session_nodes row says about the key.
type window struct {
	id, key, model, provider, display    string
	parentKey, spawnedBy, reason, prevID string
	label, nodeDisplay, forkSource       string
	created, updated                     int64
}

// dbReader reads an agent database (export.Reader).
type dbReader struct {
	db      *sqlitero.DB
	file    string
	windows map[string]window
	byKey   map[string][]window // a session key's windows, oldest first
}

func newDBReader(file string) func(db *sqlitero.DB) (export.Reader, error) {
	return func(db *sqlitero.DB) (export.Reader, error) {
		return &dbReader{db: db, file: file, windows: map[string]window{}, byKey: map[string][]window{}}, nil
	}
}

// col is name when the table has it, else NULL (the schema grew over the
// releases).
func col(cols map[string]bool, name string) string {
	if cols[name] {
		return name
	}
	return "NULL"
}

// Heads lists the sessions holding transcript events, oldest first, each
// with a fingerprint of its window and node rows and of its events' count
// and last seq. A database without transcript tables (2026.6.5-2026.7.1
// kept only auth and agent state in it) lists none.
func (r *dbReader) Heads() ([]export.Head, error) {
	ev, err := r.db.Columns("transcript_events")
	if err != nil || !ev["session_id"] || !ev["seq"] {
		return nil, err
	}
	w, err := r.db.Columns("session_windows")
	if err != nil || !w["session_id"] {
		return nil, err
	}
	n, err := r.db.Columns("session_nodes")
	if err != nil {
		return nil, err
	}
	wc := func(c string) string { return "w." + col(w, c) }
	nc := func(c string) string {
		if !n["session_key"] {
			return "NULL"
		}
		return "n." + col(n, c)
	}
	join := ""
	if n["session_key"] && w["session_key"] {
		join = " LEFT JOIN session_nodes n ON n.session_key = w.session_key"
	} else {
		nc = func(string) string { return "NULL" }
	}
	q := `SELECT w.session_id, COALESCE(` + wc("session_key") + `, ''), COALESCE(` + wc("model") + `, ''), COALESCE(` + wc("model_provider") + `, ''),
		COALESCE(` + wc("display_name") + `, ''), COALESCE(` + wc("parent_session_key") + `, ` + nc("parent_session_key") + `, ''),
		COALESCE(` + wc("spawned_by") + `, ` + nc("spawned_by") + `, ''), COALESCE(` + wc("reason") + `, ''), COALESCE(` + wc("previous_session_id") + `, ''),
		COALESCE(` + nc("label") + `, ''), COALESCE(` + nc("display_name") + `, ''), COALESCE(` + nc("fork_source_session_id") + `, ''),
		COALESCE(` + wc("created_at") + `, 0), COALESCE(` + wc("updated_at") + `, 0),
		(SELECT count(*) || ':' || COALESCE(max(e.seq), -1) FROM transcript_events e WHERE e.session_id = w.session_id)
		FROM session_windows w` + join + `
		WHERE EXISTS (SELECT 1 FROM transcript_events e WHERE e.session_id = w.session_id)
		ORDER BY 13, w.session_id`
	var heads []export.Head
	err = r.db.Query(q, nil, func(row sqlitero.Row) error {
		win := window{id: row.Text(0), key: row.Text(1), model: row.Text(2), provider: row.Text(3), display: row.Text(4),
			parentKey: row.Text(5), spawnedBy: row.Text(6), reason: row.Text(7), prevID: row.Text(8),
			label: row.Text(9), nodeDisplay: row.Text(10), forkSource: row.Text(11), created: row.Int(12), updated: row.Int(13)}
		h := sha256.New()
		for i := 0; i < 15; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		r.windows[win.id] = win
		r.byKey[win.key] = append(r.byKey[win.key], win)
		heads = append(heads, export.Head{ID: win.id, Fingerprint: fmt.Sprint(parserVersion) + ":" + hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return heads, err
}

// parserVersion is part of every fingerprint: a change to what the same
// rows import as reads every session again.
const parserVersion = 1

// decoder decodes the events OpenClaw stores zstd-compressed (agent schema
// 23: event_zstd, one frame per event).
var decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))

// Load reads one session's events, in order, through Pi's parser.
func (r *dbReader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	win := r.windows[h.ID]
	p := pi.NewParser(SourceName, r.file+"#"+h.ID)
	var failed error
	err := r.db.Query(`SELECT seq, event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq`, []any{h.ID},
		func(row sqlitero.Row) error {
			t.Line = int(row.Int(0)) + 1
			text := []byte(row.Text(1))
			if row.Null(1) {
				var err error
				if text, err = decoder.DecodeAll(row.ColumnRawBlob(2), nil); err != nil {
					t.Malformed("session %s event %d: event_zstd: %v", h.ID, row.Int(0), err)
					return nil
				}
			}
			if err := p.Line(text, t); err != nil {
				failed = err
			}
			return nil
		})
	if err != nil {
		return export.Conversation{}, false, err
	}
	if failed != nil {
		return export.Conversation{}, false, fmt.Errorf("session %s: %w", h.ID, failed)
	}
	res := p.Result()
	if len(res.Sessions) == 0 {
		t.Skip()
		return export.Conversation{}, false, nil
	}
	sessions := res.Sessions
	main := &sessions[0]
	r.describe(main, win)
	if main.EndedAt.IsZero() && win.updated > 0 {
		main.EndedAt = time.UnixMilli(win.updated).UTC()
	}
	for i := range sessions[1:] {
		sessions[i+1].Model = main.Model
	}
	return export.Conversation{Session: *main, Related: sessions[1:], Messages: res.Messages}, true, nil
}

// describe adds what the database knows about a session beside its
// transcript: its title (a label or display name given in OpenClaw), the
// model, and its parent: the session that spawned it (a sub-agent,
// _delegate_from), the one it was forked from (_branched_from), or the one
// it continues after a compaction or rollover.
func (r *dbReader) describe(s *store.Session, win window) {
	if s.Title == "" {
		s.Title = textutil.Title(cmp.Or(win.nodeDisplay, win.label, win.display))
	}
	if s.Model == "" {
		s.Model = win.model
	}
	marker, parent := "", ""
	switch {
	case win.spawnedBy != "" || win.parentKey != "":
		marker, parent = "_delegate_from", r.sessionOf(cmp.Or(win.spawnedBy, win.parentKey), win.created)
	case win.forkSource != "":
		marker, parent = "_branched_from", win.forkSource
	case win.reason == "fork" && win.prevID != "":
		marker, parent = "_branched_from", win.prevID
	case (win.reason == "compaction" || win.reason == "rollover") && win.prevID != "":
		parent = win.prevID
	}
	if parent == s.ID || s.ParentID != "" {
		parent = ""
	}
	setConfig(s, win.key, marker, parent)
}

// setConfig records the session key (what `openclaw tui --session` takes)
// in the session's model_config, and its parent with the marker that says
// how it relates to it.
func setConfig(s *store.Session, key, marker, parent string) {
	cfg := map[string]string{}
	if s.ModelConfig != "" {
		_ = json.Unmarshal([]byte(s.ModelConfig), &cfg)
	}
	if key != "" {
		cfg["session_key"] = key
	}
	if parent != "" {
		s.ParentID = parent
		if marker != "" {
			cfg[marker] = parent
		}
	}
	if len(cfg) > 0 {
		raw, _ := json.Marshal(cfg)
		s.ModelConfig = string(raw)
	}
}

// sessionOf is the session id a session key had at time at (ms): its
// newest window created by then, else its first.
func (r *dbReader) sessionOf(key string, at int64) string {
	ws := r.byKey[key]
	if len(ws) == 0 {
		return ""
	}
	i := sort.Search(len(ws), func(i int) bool { return ws[i].created > at })
	if i == 0 {
		return ws[0].id
	}
	return ws[i-1].id
}
