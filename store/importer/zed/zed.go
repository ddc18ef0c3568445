// Package zed imports the threads of Zed's agent panel (zed-industries/zed):
// one SQLite database, <data dir>/threads/threads.db, table threads with a
// row per thread (id, summary, updated_at, created_at, parent_id,
// folder_paths) and the thread itself as zstd-compressed JSON in data
// (data_type "zstd"; "json" in the first releases), the DbThread of
// crates/agent/src/db.rs.
//
// The database is opened read-only while Zed may be writing it
// (store/importer/internal/sqlitero); a thread is read again only when its
// row changed. Zed rewrites a thread whole on every save, so a thread read
// again replaces its rows.
package zed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/importer"
	"github.com/recall-dev/recall/store/importer/internal/export"
	"github.com/recall-dev/recall/store/importer/internal/sqlitero"
)

// SourceName is the session source of imported Zed threads.
const SourceName = "zed"

func init() { importer.Register(&Source{}, "zed-agent") }

// Source imports Zed's threads.db. Its zero value is ready.
type Source struct{}

// Name is "zed".
func (*Source) Name() string { return SourceName }

// DataDir is Zed's data directory (crates/paths/src/paths.rs data_dir):
// ~/Library/Application Support/Zed on macOS, %LOCALAPPDATA%\Zed on
// Windows, else $FLATPAK_XDG_DATA_HOME/zed or $XDG_DATA_HOME/zed
// (~/.local/share/zed).
func DataDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Zed")
	case "windows":
		if d := os.Getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "Zed")
		}
	}
	if d := os.Getenv("FLATPAK_XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "zed")
	}
	return importer.DataHome("zed")
}

// DefaultPaths is the threads database, and the one of Zed installed as a
// Flatpak (its data under ~/.var/app/dev.zed.Zed) when there is one.
func (*Source) DefaultPaths() []string {
	var out []string
	if d := DataDir(); d != "" {
		out = append(out, filepath.Join(d, "threads", "threads.db"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		if p := filepath.Join(home, ".var", "app", "dev.zed.Zed", "data", "zed", "threads", "threads.db"); importer.IsFile(p) {
			out = append(out, p)
		}
	}
	return out
}

// Discover returns named files, and in a named folder (Zed's data dir or
// its threads folder) threads.db.
func (*Source) Discover(paths []string) ([]string, error) {
	return importer.FilesIn(paths, false, "threads.db", "threads/threads.db")
}

// Import brings the copy of one threads.db up to date.
func (*Source) Import(ctx context.Context, st *store.Store, file string) (importer.Report, error) {
	return export.ImportDB(ctx, st, SourceName, file, func(db *sqlitero.DB) (export.Reader, error) {
		cols, err := db.Columns("threads")
		if err != nil {
			return nil, err
		}
		for _, c := range []string{"id", "summary", "updated_at", "data_type", "data"} {
			if !cols[c] {
				return nil, fmt.Errorf("%s is not Zed's threads.db (no threads.%s)", file, c)
			}
		}
		return &reader{db: db, cols: cols}, nil
	})
}

type reader struct {
	db   *sqlitero.DB
	cols map[string]bool // the threads table's columns: parent_id, folder_paths and created_at came later
}

// col is column name when the table has it, else NULL.
func (r *reader) col(name string) string {
	if r.cols[name] {
		return "COALESCE(" + name + ", '')"
	}
	return "''"
}

// Heads lists the threads, parents first, each with a fingerprint of its
// row (the data's length stands for the data: Zed sets updated_at with
// every save).
func (r *reader) Heads() ([]export.Head, error) {
	var out []export.Head
	err := r.db.Query(`SELECT id, summary, updated_at, data_type, length(data), `+r.col("parent_id")+`, `+r.col("folder_paths")+`
		FROM threads ORDER BY `+r.col("parent_id")+` != '', `+r.col("created_at")+`, updated_at, id`, nil, func(row sqlitero.Row) error {
		h := sha256.New()
		for i := 0; i < 7; i++ {
			h.Write([]byte(row.Text(i)))
			h.Write([]byte{0})
		}
		out = append(out, export.Head{ID: row.Text(0), Fingerprint: hex.EncodeToString(h.Sum(nil)[:12])})
		return nil
	})
	return out, err
}

// row is a threads row.
type row struct {
	id, summary, updatedAt, createdAt, parentID, folderPaths string
	dataType                                                 string
	data                                                     []byte
}

// Load reads one thread.
func (r *reader) Load(h export.Head, t *importer.Tally) (export.Conversation, bool, error) {
	var rw row
	found := false
	err := r.db.Query(`SELECT id, summary, updated_at, `+r.col("created_at")+`, `+r.col("parent_id")+`, `+r.col("folder_paths")+`, data_type, data
		FROM threads WHERE id = ?`, []any{h.ID}, func(q sqlitero.Row) error {
		found = true
		rw = row{id: q.Text(0), summary: q.Text(1), updatedAt: q.Text(2), createdAt: q.Text(3), parentID: q.Text(4), folderPaths: q.Text(5),
			dataType: q.Text(6), data: bytes.Clone(q.ColumnRawBlob(7))}
		return nil
	})
	if err != nil || !found {
		return export.Conversation{}, false, err
	}
	t.Line++
	doc, err := decode(rw.dataType, rw.data)
	if err != nil {
		t.Malformed("thread %s: %v", rw.id, err)
		return export.Conversation{}, false, nil
	}
	c, ok := convert(rw, doc, t)
	return c, ok, nil
}

var (
	decMu   sync.Mutex
	decoder *zstd.Decoder
)

// decode returns the thread's JSON: data as it is for "json", inflated for
// "zstd".
func decode(dataType string, data []byte) ([]byte, error) {
	switch strings.ToLower(dataType) {
	case "json":
		return data, nil
	case "zstd":
		decMu.Lock()
		defer decMu.Unlock()
		if decoder == nil {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
			if err != nil {
				return nil, err
			}
			decoder = d
		}
		out, err := decoder.DecodeAll(data, nil)
		if err != nil {
			return nil, fmt.Errorf("data is not zstd: %v", err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown data_type %q (Zed writes json or zstd)", dataType)
}
