package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ImportProgress is what a running import tells other processes of the
// same database (a TUI opened meanwhile): where it is and since when. It
// lives in state_meta under one key, so a native reader sees it too.
type ImportProgress struct {
	Source     string    `json:"source"`
	FilesDone  int       `json:"files_done"`
	FilesTotal int       `json:"files_total"`
	BytesDone  int64     `json:"bytes_done"`
	BytesTotal int64     `json:"bytes_total"`
	Messages   int       `json:"messages"`
	Started    time.Time `json:"started"`
	Updated    time.Time `json:"updated"`
	PID        int       `json:"pid"`
}

// importProgressKey is the state_meta key of the running import.
const importProgressKey = "recall_import_progress"

// ImportStale is how long a progress record may go without an update
// before it is taken for an import that died (kill -9 leaves it behind):
// a running import updates it after every file, and no single file takes
// this long.
const ImportStale = 2 * time.Minute

// Running reports whether the record is of an import still at work at now.
func (p ImportProgress) Running(now time.Time) bool {
	return !p.Updated.IsZero() && now.Sub(p.Updated) < ImportStale && (p.FilesTotal == 0 || p.FilesDone < p.FilesTotal)
}

// ETA is the time left at the rate so far (bytes when known, else files);
// false while there is no rate yet.
func (p ImportProgress) ETA() (time.Duration, bool) {
	elapsed := p.Updated.Sub(p.Started)
	done, total := float64(p.BytesDone), float64(p.BytesTotal)
	if p.BytesTotal <= 0 {
		done, total = float64(p.FilesDone), float64(p.FilesTotal)
	}
	if done <= 0 || total <= done || elapsed <= 0 {
		return 0, false
	}
	return time.Duration(float64(elapsed) * (total - done) / done), true
}

// SetImportProgress records p as the running import's progress, in a
// short transaction of its own.
func (s *Store) SetImportProgress(ctx context.Context, p ImportProgress) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return s.Write(ctx, func(tx *Tx) error { return tx.SetMeta(importProgressKey, string(raw)) })
}

// ClearImportProgress removes the record when the import ends.
func (s *Store) ClearImportProgress(ctx context.Context) error {
	return s.Write(ctx, func(tx *Tx) error {
		return tx.c.run("DELETE FROM state_meta WHERE key = ?", importProgressKey)
	})
}

// RunningImport returns the progress of an import at work on this
// database, if any (false for none, a finished one, or one that died).
func (s *Store) RunningImport(ctx context.Context) (ImportProgress, bool, error) {
	if !s.layout.hasImportMeta {
		return ImportProgress{}, false, nil // not recall's database: nobody imports into it
	}
	var raw string
	var ok bool
	err := s.read(ctx, func(c *conn) error {
		var err error
		raw, ok, err = c.scalarText("SELECT COALESCE(value, '') FROM state_meta WHERE key = ?", importProgressKey)
		return err
	})
	if err != nil {
		return ImportProgress{}, false, fmt.Errorf("read import progress: %w", err)
	}
	if !ok {
		return ImportProgress{}, false, nil
	}
	var p ImportProgress
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return ImportProgress{}, false, errors.New("read import progress: the record is not JSON")
	}
	return p, p.Running(now()), nil
}
