package store

import (
	"context"
	"encoding/json"
	"time"
)

// metaImportProgress is the state_meta key under which a running import
// records how far it is, for a TUI opened meanwhile.
const metaImportProgress = "recall_import_progress"

// ImportStale is how long after its last update a not-done import progress
// record is taken for an import that was killed: the importer rewrites it at
// least once a second between files, so only a single file that takes
// longer than this to import looks stale while still running.
const ImportStale = time.Minute

// ImportProgress is how far the import running on a database is.
type ImportProgress struct {
	Source     string    `json:"source"`
	FilesDone  int       `json:"files_done"`
	FilesTotal int       `json:"files_total"`
	Messages   int       `json:"messages"`
	BytesDone  int64     `json:"bytes_done"`
	BytesTotal int64     `json:"bytes_total"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"`
	Done       bool      `json:"done"`
}

// Running reports whether the import is still going at now: not marked
// done and updated recently (a killed import stops updating).
func (p ImportProgress) Running(now time.Time) bool {
	return !p.Done && !p.Updated.IsZero() && now.Sub(p.Updated) < ImportStale
}

// ETA estimates the time left from the share of bytes done since Started;
// ok is false until there is something to extrapolate from.
func (p ImportProgress) ETA() (left time.Duration, ok bool) {
	el := p.Updated.Sub(p.Started)
	if p.BytesDone <= 0 || p.BytesTotal <= 0 || el <= 0 {
		return 0, false
	}
	if p.BytesDone >= p.BytesTotal {
		return 0, true
	}
	return time.Duration(float64(el) * float64(p.BytesTotal-p.BytesDone) / float64(p.BytesDone)), true
}

// SetImportProgress records p (one small upsert in state_meta).
func (tx *Tx) SetImportProgress(p ImportProgress) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return tx.SetMeta(metaImportProgress, string(b))
}

// ImportProgress reads the last recorded import progress; ok is false when
// no import has recorded any (or the database predates the record).
func (s *Store) ImportProgress(ctx context.Context) (p ImportProgress, ok bool, err error) {
	err = s.read(ctx, func(c *conn) error {
		n, _, err := c.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='state_meta'")
		if err != nil || n == 0 {
			return err
		}
		v, found, err := c.scalarText("SELECT COALESCE(value, '') FROM state_meta WHERE key = ?", metaImportProgress)
		if err != nil || !found {
			return err
		}
		if json.Unmarshal([]byte(v), &p) != nil {
			return nil // a record this version cannot read: as if none
		}
		ok = true
		return nil
	})
	return p, ok, err
}
