package store

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/recall-dev/recall/store/fts5idx"
	"github.com/recall-dev/recall/store/internal/sqlutil"
)

// ftsTable is what full ranking needs to know of one FTS5 table, read
// from its CREATE VIRTUAL TABLE statement.
type ftsTable struct {
	name     string
	trigram  bool     // tokenize='trigram' (case folded, no diacritics removed)
	prefixes []int    // the prefix= lengths, in characters, in declared order
	names    []string // the columns' names, lower-cased, in order
}

var (
	ftsOptionRE = regexp.MustCompile(`(?i)(\w+)\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|[\w.]+)`)
	ftsArgsRE   = regexp.MustCompile(`(?is)using\s+fts5\s*\((.*)\)\s*;?\s*$`)
)

// ftsTable is readFTSTable, read once per store: the schema a store works
// with is settled when it opens (migrations run then), as its layout is.
func (s *Store) ftsTable(c *conn, table string) (ftsTable, bool, error) {
	type known struct {
		t  ftsTable
		ok bool
	}
	if v, found := s.ftsTables.Load(table); found {
		k := v.(known)
		return k.t, k.ok, nil
	}
	t, ok, err := readFTSTable(c, table)
	if err == nil {
		s.ftsTables.Store(table, known{t, ok})
	}
	return t, ok, err
}

// readFTSTable parses table's declaration; ok is false for options full
// ranking does not read the same way FTS5 does (another tokenizer or its
// options, detail other than full, no %_docsize, contentless deletes).
func readFTSTable(c *conn, table string) (ftsTable, bool, error) {
	sql, found, err := c.scalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table)
	if err != nil || !found {
		return ftsTable{}, false, err
	}
	m := ftsArgsRE.FindStringSubmatch(sql)
	if m == nil {
		return ftsTable{}, false, nil
	}
	t := ftsTable{name: table}
	for _, arg := range strings.Split(m[1], ",") {
		arg = strings.TrimSpace(arg)
		if !strings.Contains(arg, "=") {
			if f := strings.Fields(arg); len(f) > 0 { // a column: its name, then perhaps UNINDEXED
				t.names = append(t.names, strings.ToLower(strings.Trim(f[0], `"'`+"`[]")))
			}
			continue
		}
		o := ftsOptionRE.FindStringSubmatch(arg)
		if o == nil {
			return t, false, nil
		}
		key, val := strings.ToLower(o[1]), strings.Trim(o[2], `'"`)
		switch key {
		case "prefix":
			for _, f := range strings.Fields(val) {
				n, err := strconv.Atoi(f)
				if err != nil {
					return t, false, nil
				}
				t.prefixes = append(t.prefixes, n)
			}
		case "tokenize":
			switch strings.ToLower(strings.TrimSpace(val)) {
			case "trigram":
				t.trigram = true
			case "unicode61":
			default:
				return t, false, nil
			}
		case "content", "content_rowid":
			// External content changes where text lives, not the index.
		default:
			return t, false, nil // detail, columnsize, contentless_delete, tokenchars...
		}
	}
	return t, len(t.names) > 0, nil
}

// ftsSource reads a table's %_data and %_idx through a connection's
// statement cache.
type ftsSource struct {
	c     *conn
	table string
}

// Block reads one %_data record.
func (s ftsSource) Block(id int64) ([]byte, error) {
	st, err := s.c.prepare("SELECT block FROM " + s.table + "_data WHERE id = ?")
	if err != nil {
		return nil, err
	}
	defer st.Reset()
	st.BindInt64(1, id)
	if st.Step() {
		return st.ColumnBlob(0, nil), nil
	}
	return nil, st.Err()
}

// SeekPage finds, in %_idx, the leaf page where term would start.
func (s ftsSource) SeekPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.table+"_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1", segid, term)
}

// NextPage finds, in %_idx, the first leaf page where a term after term starts.
func (s ftsSource) NextPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.table+"_idx WHERE segid = ? AND term > ? ORDER BY term LIMIT 1", segid, term)
}

// idxPage runs one %_idx lookup of segid and term for a page number.
func (s ftsSource) idxPage(sql string, segid int, term []byte) (int, bool, error) {
	st, err := s.c.prepare(sql)
	if err != nil {
		return 0, false, err
	}
	defer st.Reset()
	st.BindInt(1, segid)
	st.BindBlob(2, term)
	if st.Step() {
		return int(st.ColumnInt64(0) >> 1), true, nil // the low bit flags a doclist index
	}
	return 0, false, st.Err()
}

// Blocks reads the %_data records with ids in [from, to], in order, until
// fn returns false: one statement stepped, not a lookup per page.
func (s ftsSource) Blocks(from, to int64, fn func(id int64, b []byte) bool) error {
	st, err := s.c.prepare("SELECT id, block FROM " + s.table + "_data WHERE id >= ? AND id <= ?")
	if err != nil {
		return err
	}
	defer st.Reset()
	st.BindInt64(1, from)
	st.BindInt64(2, to)
	for st.Step() {
		if !fn(st.ColumnInt64(0), st.ColumnRawBlob(1)) {
			break
		}
	}
	return st.Err()
}

// docLens caches one table's per-row token counts (its %_docsize, summed
// over columns) by rowid: bm25 needs the length of every matching row, and
// a %_docsize lookup per row is what makes FTS5's own ranking of a broad
// query slow. Rows added since the last query are read on the next one; a
// row rewritten in place is caught when the answer's rows are checked
// against %_docsize (verifyLens), which then drops the cache.
type docLens struct {
	mu   sync.Mutex
	lens []uint32 // by rowid; 0 for no row
	upTo int64    // rows with rowid <= upTo are loaded
}

// maxCachedRowid bounds the slice a table's rowids index: beyond it (sparse
// or huge rowids) full ranking is not used.
const maxCachedRowid = 64 << 20

func (s *Store) docLens(table string) *docLens {
	v, _ := s.lenCaches.LoadOrStore(table, &docLens{})
	return v.(*docLens)
}

// rowsFilled counts the rows the caches read with SQL (for tests: a process
// that starts from a rank cache file reads none of the rows it holds).
var rowsFilled atomic.Int64

// lensFile is docLens as a rank cache file holds it.
type lensFile struct {
	UpTo int64
	Lens []uint32
}

// refresh reads the rows added since the last call; it returns the lengths
// to use (shared, read-only) or ok=false when rowids are out of range. A
// new process starts from the rank cache file when there is one
// (rank_cache.go) and writes one after reading many rows.
func (d *docLens) refresh(c *conn, table string, s *Store) (lens []uint32, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	kind := "lens-" + table
	if d.upTo == 0 && s != nil {
		var f lensFile
		if s.loadRankCache(kind, &f) && f.UpTo > 0 && int64(len(f.Lens)) == f.UpTo+1 {
			// A file can outlive its database (deleted, and its inode
			// reused): rows spread over the file must read the same.
			if same, err := verifyLens(c, table, f.Lens, spreadIDs(f.UpTo)); err == nil && same {
				d.lens, d.upTo = f.Lens, f.UpTo
			}
		}
	}
	top, _, err := c.scalarInt("SELECT COALESCE(MAX(id), 0) FROM " + table + "_docsize")
	if err != nil {
		return nil, false, err
	}
	if top > maxCachedRowid {
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
		err := c.unbudgeted(func() error {
			return c.query("SELECT id, sz FROM "+table+"_docsize WHERE id > ? ORDER BY id", []any{from}, func(st stmtRow) error {
				id := st.ColumnInt64(0)
				if id >= 0 && id <= top {
					grown[id] = sumVarints(st.ColumnRawBlob(1))
					d.upTo = id
					rowsFilled.Add(1)
				}
				return nil
			})
		})
		if err != nil {
			return nil, false, err
		}
		d.upTo = top
		if s != nil && top-from >= rankCacheMinRows {
			s.saveRankCache(kind, &lensFile{UpTo: d.upTo, Lens: d.lens})
		}
	}
	return d.lens, true, nil
}

// drop forgets the cache (a length read from %_docsize differed).
func (d *docLens) drop() {
	d.mu.Lock()
	d.lens, d.upTo = nil, 0
	d.mu.Unlock()
}

// sumVarints adds the varints of a %_docsize record: the row's tokens in
// every column.
func sumVarints(b []byte) uint32 {
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

// spreadIDs are up to 32 rowids spread evenly over [1, upTo].
func spreadIDs(upTo int64) []int64 {
	var ids []int64
	for i := int64(0); i < 32 && i < upTo; i++ {
		ids = append(ids, 1+i*upTo/min(32, upTo))
	}
	return ids
}

// verifyLens checks the cached lengths of rows against %_docsize.
func verifyLens(c *conn, table string, lens []uint32, ids []int64) (bool, error) {
	if len(ids) == 0 {
		return true, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	same := true
	err := c.query("SELECT id, sz FROM "+table+"_docsize WHERE id IN ("+sqlutil.Placeholders(len(ids))+")", args, func(st stmtRow) error {
		id := st.ColumnInt64(0)
		if id < 0 || id >= int64(len(lens)) || lens[id] != sumVarints(st.ColumnRawBlob(1)) {
			same = false
		}
		return nil
	})
	return same, err
}
