package qconv

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
	"github.com/recall-dev/recall/store/importer/internal/textutil"
)

// DataDirs are an app's data folders where dirs::data_local_dir() puts
// them: $XDG_DATA_HOME/<name> (else ~/.local/share/<name>), and macOS's
// ~/Library/Application Support/<name>.
func DataDirs(name string) []string {
	var out []string
	for _, d := range []string{importer.DataHome(name), importer.HomeDir("", filepath.Join("Library", "Application Support", name))} {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// DiscoverDB is the discovery Amazon Q and Kiro CLI share: the named files,
// and each named folder's data.sqlite3.
func DiscoverDB(paths []string) ([]string, error) {
	files, dirs, err := importer.SplitPaths(paths)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if db := filepath.Join(d, "data.sqlite3"); importer.IsFile(db) {
			files = append(files, db)
		}
	}
	return files, nil
}

// Reader reads the conversations of an Amazon Q or Kiro CLI database: the
// table conversations (key, value), or conversations_v2 (key,
// conversation_id, value, created_at, updated_at in ms).
type Reader struct {
	DB     *sqlitero.DB
	Source string
	Table  string
}

func (r *Reader) v2() bool { return r.Table == "conversations_v2" }

// Heads lists one head per conversation, fingerprinted by its JSON.
func (r *Reader) Heads() ([]export.Head, error) {
	q := `SELECT COALESCE(json_extract(value, '$.conversation_id'), key), value FROM conversations ORDER BY rowid`
	if r.v2() {
		q = `SELECT conversation_id, value FROM conversations_v2 ORDER BY created_at, conversation_id`
	}
	var out []export.Head
	seen := map[string]bool{}
	err := r.DB.Query(q, nil, func(row sqlitero.Row) error {
		id := row.Text(0)
		if seen[id] {
			return nil // Kiro may list one conversation under two directories: the newest is read
		}
		seen[id] = true
		sum := sha256.Sum256([]byte(row.Text(1)))
		out = append(out, export.Head{ID: id, Fingerprint: hex.EncodeToString(sum[:12])})
		return nil
	})
	return out, err
}

// Load reads one conversation.
func (r *Reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	q := `SELECT key, value, 0, 0 FROM conversations WHERE COALESCE(json_extract(value, '$.conversation_id'), key) = ?`
	if r.v2() {
		q = `SELECT key, value, created_at, updated_at FROM conversations_v2 WHERE conversation_id = ? ORDER BY updated_at DESC LIMIT 1`
	}
	var key, value string
	var created, updated int64
	found := false
	err := r.DB.Query(q, []any{h.ID}, func(row sqlitero.Row) error {
		found = true
		key, value, created, updated = row.Text(0), row.Text(1), row.Int(2), row.Int(3)
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	var s State
	if err := json.Unmarshal([]byte(value), &s); err != nil {
		t.Malformed("conversation %s: %s", h.ID, importer.DecodeProblem(err))
		return export.Conversation{}, false, nil
	}
	var start time.Time
	if created > 0 {
		start = time.UnixMilli(created).UTC()
	}
	msgs, prompt, cwd, first, last := Convert(h.ID, s, start, t)
	if len(msgs) == 0 {
		t.Skip()
		return export.Conversation{}, false, nil
	}
	if key != "" && filepath.IsAbs(key) {
		cwd = key // the directory the CLI keys the conversation by
	}
	model := s.ModelID()
	if model == "auto" {
		model = "" // the CLI picks one per request; no model to record
	}
	sess := store.Session{ID: h.ID, Source: r.Source, Model: model, Title: textutil.Title(prompt), Cwd: cwd, StartedAt: first, EndedAt: last}
	if created > 0 {
		sess.StartedAt = start
	}
	if updated > 0 {
		sess.EndedAt = time.UnixMilli(updated).UTC()
	}
	return export.Conversation{Session: sess, Messages: msgs}, true, nil
}
