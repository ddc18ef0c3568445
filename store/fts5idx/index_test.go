package fts5idx

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/embed"
)

// connSource reads the shadow tables of table t through one connection.
type connSource struct {
	db    *sqlite3.Conn
	t     string
	reads *int // when set, counts the blocks read
}

func (s connSource) Block(id int64) ([]byte, error) {
	if s.reads != nil {
		*s.reads++
	}
	st, _, err := s.db.Prepare("SELECT block FROM " + s.t + "_data WHERE id = ?")
	if err != nil {
		return nil, err
	}
	defer st.Close()
	st.BindInt64(1, id)
	if st.Step() {
		return st.ColumnBlob(0, nil), nil
	}
	return nil, st.Err()
}

func (s connSource) SeekPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.t+"_idx WHERE segid = ? AND term <= ? ORDER BY term DESC LIMIT 1", segid, term)
}

func (s connSource) NextPage(segid int, term []byte) (int, bool, error) {
	return s.idxPage("SELECT pgno FROM "+s.t+"_idx WHERE segid = ? AND term > ? ORDER BY term LIMIT 1", segid, term)
}

func (s connSource) idxPage(sql string, segid int, term []byte) (int, bool, error) {
	st, _, err := s.db.Prepare(sql)
	if err != nil {
		return 0, false, err
	}
	defer st.Close()
	st.BindInt(1, segid)
	st.BindBlob(2, term)
	if st.Step() {
		return int(st.ColumnInt64(0) >> 1), true, nil
	}
	return 0, false, st.Err()
}

func (s connSource) Blocks(from, to int64, fn func(id int64, b []byte) bool) error {
	st, _, err := s.db.Prepare("SELECT id, block FROM " + s.t + "_data WHERE id >= ? AND id <= ?")
	if err != nil {
		return err
	}
	defer st.Close()
	st.BindInt64(1, from)
	st.BindInt64(2, to)
	for st.Step() {
		if s.reads != nil {
			*s.reads++
		}
		if !fn(st.ColumnInt64(0), st.ColumnRawBlob(1)) {
			break
		}
	}
	return st.Err()
}

func openTable(t *testing.T, create string) *sqlite3.Conn {
	t.Helper()
	db, err := sqlite3.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Exec(create); err != nil {
		t.Fatal(err)
	}
	return db
}

func structure(t *testing.T, src connSource) Structure {
	t.Helper()
	b, err := src.Block(StructureID)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ParseStructure(b)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// instances counts the term's instances per row with fts5vocab.
func instances(t *testing.T, db *sqlite3.Conn, table, term string, prefix bool) map[int64]int32 {
	t.Helper()
	if err := db.Exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_" + table + " USING fts5vocab(main, " + table + ", instance)"); err != nil {
		t.Fatal(err)
	}
	cond := "term = ?"
	arg := term
	if prefix {
		cond = "term >= ? AND term < ?"
	}
	st, _, err := db.Prepare("SELECT doc, count(*) FROM temp.v_" + table + " WHERE " + cond + " GROUP BY doc")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.BindText(1, arg)
	if prefix {
		st.BindText(2, term+"\U0010FFFF")
	}
	out := map[int64]int32{}
	for st.Step() {
		out[st.ColumnInt64(0)] = int32(st.ColumnInt64(1))
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func check(t *testing.T, db *sqlite3.Conn, table, term string, prefix bool, prefixIndex int) {
	t.Helper()
	src := connSource{db: db, t: table}
	key := []byte{byte(Main + prefixIndex)}
	key = append(key, term...)
	exp := instances(t, db, table, term, prefix)
	// With position lists kept (a phrase's) and without (a word's, decoded
	// by their own loop): the same rows and counts, FTS5's.
	for _, withPos := range []bool{true, false} {
		d, err := Postings(src, structure(t, src), key, prefix && prefixIndex == 0, withPos)
		got := d.Rows
		if err != nil {
			t.Fatalf("%s %q: %v", table, term, err)
		}
		if len(got) != len(exp) {
			t.Fatalf("%s %q (prefix %v, index %d, positions %v): %d rows, FTS5 has %d", table, term, prefix, prefixIndex, withPos, len(got), len(exp))
		}
		for i, p := range got {
			if i > 0 && got[i-1].Rowid >= p.Rowid {
				t.Fatalf("%q: rowids not ascending at %d", term, i)
			}
			if pl := d.Pos(i); withPos && !prefix && int32(len(positions(pl))) != p.Tf {
				t.Fatalf("%q row %d: %d positions decoded, tf %d", term, p.Rowid, len(positions(pl)), p.Tf)
			}
			if exp[p.Rowid] != p.Tf {
				t.Fatalf("%s %q row %d (positions %v): tf %d, FTS5 counts %d", table, term, p.Rowid, withPos, p.Tf, exp[p.Rowid])
			}
		}
		d.Recycle()
	}
}

// TestPostingsMatchFTS5 writes a table the way an index grows (many
// transactions, so many segments and merges; updates and deletes, so
// delete markers; long rows, so doclists and position lists spanning
// pages) and checks every term's doclist against FTS5's own view.
func TestPostingsMatchFTS5(t *testing.T) {
	for _, tc := range []struct{ name, create string }{
		{"plain", "CREATE VIRTUAL TABLE t USING fts5(content, prefix='1 2')"},
		{"multicol", "CREATE VIRTUAL TABLE t USING fts5(content, tool_name, tool_calls)"},
		{"secure", "CREATE VIRTUAL TABLE t USING fts5(content); INSERT INTO t(t, rank) VALUES('secure-delete', 1)"},
		{"smallpages", "CREATE VIRTUAL TABLE t USING fts5(content, prefix='1'); INSERT INTO t(t, rank) VALUES('pgsz', 64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openTable(t, tc.create)
			rng := rand.New(rand.NewSource(7))
			words := []string{"error", "docker", "network", "the", "a", "deploy", "dockerfile", "docs", "zebra", "errand", "été", "日本"}
			doc := func() string {
				n := 1 + rng.Intn(12)
				if rng.Intn(40) == 0 {
					n = 3000 // position lists longer than a page
				}
				var b strings.Builder
				for i := 0; i < n; i++ {
					w := words[rng.Intn(len(words))]
					if rng.Intn(3) == 0 {
						w = "error"
					}
					b.WriteString(w + " ")
				}
				return b.String()
			}
			cols := 1
			if tc.name == "multicol" {
				cols = 3
			}
			insert := func(id int) {
				vals := make([]string, cols)
				for i := range vals {
					vals[i] = fmt.Sprintf("'%s'", doc())
				}
				if err := db.Exec(fmt.Sprintf("INSERT OR REPLACE INTO t(rowid, %s) VALUES (%d, %s)", colNames(cols), id, strings.Join(vals, ","))); err != nil {
					t.Fatal(err)
				}
			}
			id := 0
			for tx := 0; tx < 60; tx++ {
				if err := db.Exec("BEGIN"); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < 1+rng.Intn(80); i++ {
					id++
					insert(id)
				}
				for i := 0; i < rng.Intn(6); i++ {
					victim := 1 + rng.Intn(id)
					if rng.Intn(2) == 0 {
						db.Exec(fmt.Sprintf("DELETE FROM t WHERE rowid = %d", victim))
					} else {
						db.Exec(fmt.Sprintf("DELETE FROM t WHERE rowid = %d", victim))
						insert(victim) // rewritten in place: same rowid, new text
					}
				}
				if err := db.Exec("COMMIT"); err != nil {
					t.Fatal(err)
				}
			}
			for _, w := range words {
				check(t, db, "t", w, false, 0)
			}
			check(t, db, "t", "doc", true, 0)
			check(t, db, "t", "e", true, 0)
			check(t, db, "t", "missing", false, 0)
			check(t, db, "t", "zz", true, 0)
			if strings.Contains(tc.create, "prefix='1") {
				check(t, db, "t", "d", true, 1)
				check(t, db, "t", "e", true, 1)
			}
			// A filtered read keeps exactly the accepted rows, with their positions.
			src := connSource{db: db, t: "t"}
			all, err := Postings(src, structure(t, src), []byte("0error"), false, true)
			if err != nil {
				t.Fatal(err)
			}
			odd, err := PostingsOf(src, structure(t, src), []byte("0error"), false, true, func(id int64) bool { return id%2 == 1 })
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for i, p := range all.Rows {
				if p.Rowid%2 == 0 {
					continue
				}
				if k >= len(odd.Rows) || odd.Rows[k].Rowid != p.Rowid || odd.Rows[k].Tf != p.Tf || string(odd.Pos(k)) != string(all.Pos(i)) {
					t.Fatalf("filtered read differs at row %d", p.Rowid)
				}
				k++
			}
			if k != len(odd.Rows) {
				t.Fatalf("filtered read kept %d rows, want %d", len(odd.Rows), k)
			}
			if err := db.Exec("INSERT INTO t(t) VALUES('optimize')"); err != nil {
				t.Fatal(err)
			}
			check(t, db, "t", "error", false, 0)
			check(t, db, "t", "dock", true, 0)
			// Terms that sort just after error, whose doclist runs over many
			// pages: absent ones and a prefix are found without reading them.
			for _, w := range []string{"errore", "errors", "erroz"} {
				check(t, db, "t", w, false, 0)
			}
			check(t, db, "t", "errore", true, 0)
			check(t, db, "t", "eu", true, 0)
			reads := 0
			counted := connSource{db: db, t: "t", reads: &reads}
			st := structure(t, counted)
			pages := 0
			for _, sg := range st.Segments {
				pages += sg.Last - sg.First + 1
			}
			// Several terms of one prefix in one scan, the others skipped:
			// each row once, counting the instances of every term, as
			// FTS5 counts them.
			for _, keys := range [][]string{{"error", "errors", "errorz"}, {"docker", "docs"}, {"errand", "errore"}, {"dockerfile"}} {
				var ks [][]byte
				want := map[int64]int32{}
				for _, k := range keys {
					ks = append(ks, append([]byte{Main}, k...))
					for row, n := range instances(t, db, "t", k, false) {
						want[row] += n
					}
				}
				got, err := PostingsAmong(counted, st, append([]byte{Main}, keys[0][:3]...), ks)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Rows) != len(want) {
					t.Fatalf("%v among their prefix: %d rows, FTS5 has %d", keys, len(got.Rows), len(want))
				}
				for i, p := range got.Rows {
					if want[p.Rowid] != p.Tf || (i > 0 && got.Rows[i-1].Rowid >= p.Rowid) {
						t.Fatalf("%v among their prefix, row %d: %+v, FTS5 counts %d", keys, i, p, want[p.Rowid])
					}
				}
			}
			for _, w := range []string{"errore", "errors"} {
				reads = 0
				if _, err := Postings(counted, st, append([]byte{Main}, w...), false, false); err != nil {
					t.Fatal(err)
				}
				if reads > 2 {
					t.Errorf("looking up %q (absent) read %d of the %d leaf pages", w, reads, pages)
				}
			}
		})
	}
}

func colNames(n int) string {
	return strings.Join([]string{"content", "tool_name", "tool_calls"}[:n], ", ")
}

func TestParseStructureRejectsV2(t *testing.T) {
	if _, err := ParseStructure([]byte{0, 0, 0, 1, 0xff, 0, 0, 1, 0}); err == nil {
		t.Fatal("a V2 structure was read")
	}
	if _, err := ParseStructure([]byte{1}); err == nil {
		t.Fatal("a short record was read")
	}
}

func positions(pl []byte) (out [][2]int) {
	for _, p := range AppendPositions(nil, pl) {
		out = append(out, [2]int{int(p >> 32), int(uint32(p))})
	}
	return out
}

// TestCountPositions: counting the varints' last bytes, eight at a time,
// agrees with decoding, for lists of every length, at a page's end or not,
// with column markers and varints ending in 0x01.
func TestCountPositions(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		var pl []byte
		for range rng.Intn(12) {
			switch rng.Intn(6) {
			case 0:
				pl = appendVarint(append(pl, 1), uint64(rng.Intn(300))) // column marker and number
			case 1:
				pl = appendVarint(pl, uint64(rng.Intn(1<<20))+2)
			default:
				pl = append(pl, byte(rng.Intn(126)+2))
			}
		}
		want := int32(len(AppendPositions(nil, pl)))
		page := append(append([]byte(nil), pl...), strings.Repeat("\x01", rng.Intn(10))...) // what follows on the page
		for _, in := range [][]byte{pl, page[:len(pl)], pl[:len(pl):len(pl)]} {
			if got := countPositions(in); got != want {
				t.Fatalf("% x (cap %d): %d positions, decoding finds %d", in, cap(in), got, want)
			}
		}
	}
}

// appendVarint appends v as SQLite writes a varint (big-endian groups of 7
// bits, the high bit set on all but the last byte; v < 1<<56).
func appendVarint(b []byte, v uint64) []byte {
	var groups []byte
	for {
		groups = append(groups, byte(v&0x7f))
		if v >>= 7; v == 0 {
			break
		}
	}
	for i := len(groups) - 1; i >= 0; i-- {
		c := groups[i]
		if i > 0 {
			c |= 0x80
		}
		b = append(b, c)
	}
	return b
}

// TestContiguous: segments' doclists decoded one after another are a
// term's rows as they are only when each starts after the one before ends,
// in the buffer and in rowid order (an empty one between them too), with
// no delete marker.
func TestContiguous(t *testing.T) {
	buf := []Posting{{Rowid: 1, Tf: 1}, {Rowid: 5, Tf: 1}, {Rowid: 3, Tf: 1}, {Rowid: 9, Tf: 1}}
	cases := []struct {
		name string
		runs []run
		ok   bool
	}{
		{"a gap in the buffer", []run{{0, 2, 0}, {3, 4, 0}}, false},
		{"one run", []run{{0, 2, 0}}, true},
		{"overlapping rowids", []run{{0, 2, 0}, {2, 4, 0}}, false},
		{"overlapping across an empty run", []run{{0, 2, 0}, {2, 2, 0}, {2, 4, 0}}, false},
		{"ascending across an empty run", []run{{2, 3, 0}, {3, 3, 0}, {3, 4, 0}}, true},
		{"a delete marker", []run{{2, 3, 0}, {3, 4, 1}}, false},
		{"none", nil, false},
	}
	for _, tc := range cases {
		if _, _, ok := contiguous(tc.runs, buf); ok != tc.ok {
			t.Errorf("%s: contiguous %v, want %v", tc.name, ok, tc.ok)
		}
	}
}

// TestSeek: the galloping search finds what a step-by-step walk finds,
// from every start, for every id around the rows.
func TestSeek(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 200; trial++ {
		var ps []Posting
		n := rng.Intn(40)
		for id := int64(rng.Intn(5)); len(ps) < n; id += 1 + int64(rng.Intn(6)) {
			ps = append(ps, Posting{Rowid: id, Tf: 1})
		}
		for from := 0; from <= len(ps); from++ {
			for id := int64(-1); id < 250; id++ {
				want := from
				for want < len(ps) && ps[want].Rowid < id {
					want++
				}
				if got := Seek(ps, from, id); got != want {
					t.Fatalf("rows %v, from %d, id %d: %d, want %d", ps, from, id, got, want)
				}
			}
		}
	}
}
