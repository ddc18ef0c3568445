package postings

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/recall-dev/recall/store/engine"
	"github.com/recall-dev/recall/store/engine/rowcache"
)

// Table is what full ranking needs to know of one FTS5 table, read from
// its CREATE VIRTUAL TABLE statement.
type Table struct {
	name     string
	trigram  bool     // tokenize='trigram' (case folded, no diacritics removed)
	prefixes []int    // the prefix= lengths, in characters, in declared order
	names    []string // the columns' names, lower-cased, in order
}

var (
	ftsOptionRE = regexp.MustCompile(`(?i)(\w+)\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|[\w.]+)`)
	ftsArgsRE   = regexp.MustCompile(`(?is)using\s+fts5\s*\((.*)\)\s*;?\s*$`)
)

// Indexes opens one database's FTS5 tables for reading: each table's
// declaration, read once (the schema a store works with is settled when it
// opens, as its layout is), and its row lengths (rowcache).
type Indexes struct {
	tables sync.Map // per table, its declaration (known)
	rows   *rowcache.Cache
}

// NewIndexes reads the tables of the database whose row caches are rows.
func NewIndexes(rows *rowcache.Cache) *Indexes { return &Indexes{rows: rows} }

// table is readFTSTable, read once per store.
func (x *Indexes) table(c engine.Conn, table string) (Table, bool, error) {
	type known struct {
		t  Table
		ok bool
	}
	if v, found := x.tables.Load(table); found {
		k := v.(known)
		return k.t, k.ok, nil
	}
	t, ok, err := readFTSTable(c, table)
	if err == nil {
		x.tables.Store(table, known{t, ok})
	}
	return t, ok, err
}

// readFTSTable parses table's declaration; ok is false for options full
// ranking does not read the same way FTS5 does (another tokenizer or its
// options, detail other than full, no %_docsize, contentless deletes).
func readFTSTable(c engine.Conn, table string) (Table, bool, error) {
	sql, found, err := c.ScalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", table)
	if err != nil || !found {
		return Table{}, false, err
	}
	m := ftsArgsRE.FindStringSubmatch(sql)
	if m == nil {
		return Table{}, false, nil
	}
	t := Table{name: table}
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

// source reads a table's %_data and %_idx through a connection's
// statement cache (fts5idx.Source).
type source struct {
	c     engine.Conn
	table string
}

// Block reads one %_data record.
func (s source) Block(id int64) ([]byte, error) {
	st, err := s.c.Prepare("SELECT block FROM " + s.table + "_data WHERE id = ?")
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
func (s source) SeekPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.table+"_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1", segid, term)
}

// NextPage finds, in %_idx, the first leaf page where a term after term starts.
func (s source) NextPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.table+"_idx WHERE segid = ? AND term > ? ORDER BY term LIMIT 1", segid, term)
}

// idxPage runs one %_idx lookup of segid and term for a page number.
func (s source) idxPage(sql string, segid int, term []byte) (int, bool, error) {
	st, err := s.c.Prepare(sql)
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
func (s source) Blocks(from, to int64, fn func(id int64, b []byte) bool) error {
	st, err := s.c.Prepare("SELECT id, block FROM " + s.table + "_data WHERE id >= ? AND id <= ?")
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
