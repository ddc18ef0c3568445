package rowcache

import (
	"sync"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/budget"
	"github.com/recall-dev/recall/store/fts5idx"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// Lens caches one table's per-row token counts (its %_docsize, summed
// over columns) by rowid: bm25 needs the length of every matching row, and
// a %_docsize lookup per row is what makes FTS5's own ranking of a broad
// query slow. Rows added since the last query are read on the next one; a
// row rewritten in place is caught when the answer's rows are checked
// against %_docsize (VerifyLens), which then drops the cache (Forget).
type Lens struct {
	cache *Cache
	table string
	mu    sync.Mutex
	lens  []uint32 // by rowid; 0 for no row
	upTo  int64    // rows with rowid <= upTo are loaded
}

// MaxRowid bounds the slice a table's rowids index: beyond it (sparse or
// huge rowids) full ranking is not used.
const MaxRowid = 64 << 20

// RowsFilled counts the rows the caches read with SQL (for tests: a
// process that starts from a rank cache file reads none of the rows it holds).
var RowsFilled atomic.Int64

// lensFile is Lens as a rank cache file holds it.
type lensFile struct {
	UpTo int64
	Lens []uint32
}

// Refresh reads the rows added since the last call; it returns the lengths
// to use (shared, read-only) or ok=false when rowids are out of range. A
// new process starts from the rank cache file when there is one
// (cache.go) and writes one after reading many rows.
func (d *Lens) Refresh(c engine.Conn) (lens []uint32, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	table := d.table
	kind := "lens-" + table
	if d.upTo == 0 {
		var f lensFile
		if d.cache.load(kind, &f) && f.UpTo > 0 && int64(len(f.Lens)) == f.UpTo+1 {
			// A file can outlive its database (deleted, and its inode
			// reused): rows spread over the file must read the same.
			if same, err := VerifyLens(c, table, f.Lens, SpreadIDs(f.UpTo)); err == nil && same {
				d.lens, d.upTo = f.Lens, f.UpTo
			}
		}
	}
	top, _, err := c.ScalarInt("SELECT COALESCE(MAX(id), 0) FROM " + table + "_docsize")
	if err != nil {
		return nil, false, err
	}
	if top > MaxRowid {
		return nil, false, nil
	}
	if top < d.upTo {
		d.lens, d.upTo = nil, 0 // rows went away at the end: read again
	}
	if top > d.upTo {
		grown := make([]uint32, top+1)
		copy(grown, d.lens)
		from := d.upTo
		d.lens = grown
		// Kept as it is read: an interrupted fill goes on from there next time.
		err := budget.Unbudgeted(c.SQLite(), func() error {
			return c.Query("SELECT id, sz FROM "+table+"_docsize WHERE id > ? ORDER BY id", []any{from}, func(st *sqlite3.Stmt) error {
				id := st.ColumnInt64(0)
				if id >= 0 && id <= top {
					grown[id] = SumVarints(st.ColumnRawBlob(1))
					d.upTo = id
					RowsFilled.Add(1)
				}
				return nil
			})
		})
		if err != nil {
			return nil, false, err
		}
		d.upTo = top
		if top-from >= MinRows {
			d.cache.save(kind, &lensFile{UpTo: d.upTo, Lens: d.lens})
		}
	}
	return d.lens, true, nil
}

// Forget drops the lengths and their file (a length read from %_docsize
// differed): the next search reads every row again.
func (d *Lens) Forget() {
	d.mu.Lock()
	d.lens, d.upTo = nil, 0
	d.mu.Unlock()
	d.cache.remove("lens-" + d.table)
}

// SumVarints adds the varints of a %_docsize record: the row's tokens in
// every column.
func SumVarints(b []byte) uint32 {
	var n uint64
	for i := 0; i < len(b); {
		v, k := fts5idx.Varint(b[i:])
		if k == 0 {
			break
		}
		n += v
		i += k
	}
	return uint32(min(n, 1<<32-1))
}

// SpreadIDs are up to 32 rowids spread evenly over [1, upTo].
func SpreadIDs(upTo int64) []int64 {
	var ids []int64
	for i := int64(0); i < 32 && i < upTo; i++ {
		ids = append(ids, 1+i*upTo/min(32, upTo))
	}
	return ids
}

// VerifyLens checks the cached lengths of rows against %_docsize.
func VerifyLens(c engine.Conn, table string, lens []uint32, ids []int64) (bool, error) {
	if len(ids) == 0 {
		return true, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	same := true
	err := c.Query("SELECT id, sz FROM "+table+"_docsize WHERE id IN ("+sqlutil.Placeholders(len(ids))+")", args, func(st *sqlite3.Stmt) error {
		id := st.ColumnInt64(0)
		if id < 0 || id >= int64(len(lens)) || lens[id] != SumVarints(st.ColumnRawBlob(1)) {
			same = false
		}
		return nil
	})
	return same, err
}
