// Package fts5idx reads an FTS5 table's index the way SQLite's own
// fts5_index.c lays it out in the %_data and %_idx shadow tables, so that a
// query can be ranked over every match in Go: one pass over each term's
// doclist costs nanoseconds per row, where FTS5's bm25() pays a %_docsize
// lookup and an auxiliary-function call per row (about a second for a word
// in 40 % of a million messages).
//
// Only what ranking needs is read: the structure record (which segments
// exist, oldest first), the averages record (row count and token totals),
// and the leaf pages of the terms asked for. The format is documented at
// the top of SQLite's ext/fts5/fts5_index.c; the comments here name its
// parts. Contentless-delete tables (structure V2, tombstone pages) are not
// read: Structure reports them as unsupported and callers keep using FTS5.
package fts5idx

import (
	"errors"
	"fmt"
)

// ErrUnsupported marks an index this package does not read (a
// contentless_delete table, or a record it does not recognise); callers
// rank with FTS5 itself instead.
var ErrUnsupported = errors.New("fts5 index format not supported")

// Record ids in %_data (fts5_index.c: FTS5_AVERAGES_ROWID, FTS5_STRUCTURE_ROWID).
const (
	AveragesID  = 1
	StructureID = 10
)

// Segment is one b-tree segment: its id and the range of its leaf pages.
type Segment struct {
	ID, First, Last int
}

// Structure lists an index's segments from oldest to newest: where two
// segments hold the same term and row, the later one is the current entry.
type Structure struct {
	Segments []Segment
}

// ParseStructure decodes the structure record (%_data id 10).
func ParseStructure(b []byte) (Structure, error) {
	var st Structure
	if len(b) < 4 {
		return st, fmt.Errorf("%w: structure record of %d bytes", ErrUnsupported, len(b))
	}
	p := b[4:] // the configuration cookie
	if len(p) >= 4 && p[0] == 0xff && p[1] == 0 && p[2] == 0 && p[3] == 1 {
		return st, fmt.Errorf("%w: contentless_delete (V2) structure", ErrUnsupported)
	}
	r := reader{b: p}
	nLevel := int(r.varint())
	r.varint() // total segments
	r.varint() // write counter
	levels := make([][]Segment, nLevel)
	for l := 0; l < nLevel && r.err == nil; l++ {
		r.varint() // input segments of an ongoing merge
		nSeg := int(r.varint())
		if nSeg < 0 || nSeg > 1<<16 {
			return st, fmt.Errorf("%w: %d segments on level %d", ErrUnsupported, nSeg, l)
		}
		for i := 0; i < nSeg && r.err == nil; i++ {
			s := Segment{ID: int(r.varint()), First: int(r.varint()), Last: int(r.varint())}
			levels[l] = append(levels[l], s)
		}
	}
	if r.err != nil {
		return st, fmt.Errorf("%w: structure record: %v", ErrUnsupported, r.err)
	}
	// Level 0 holds the newest segments; within a level the first is the
	// oldest. A segment being written by an incremental merge sits last on
	// the level above its inputs, which are newer than anything else there.
	for l := nLevel - 1; l >= 0; l-- {
		for _, s := range levels[l] {
			if s.ID > 0 && s.First > 0 && s.Last >= s.First {
				st.Segments = append(st.Segments, s)
			}
		}
	}
	return st, nil
}

// Averages is the averages record (%_data id 1): the number of rows and,
// per column, the total number of tokens.
type Averages struct {
	Rows   int64
	Tokens []int64
}

// TotalTokens sums the token totals of every column.
func (a Averages) TotalTokens() int64 {
	var n int64
	for _, t := range a.Tokens {
		n += t
	}
	return n
}

// ParseAverages decodes the averages record.
func ParseAverages(b []byte) (Averages, error) {
	r := reader{b: b}
	a := Averages{Rows: int64(r.varint())}
	for r.err == nil && r.off < len(b) {
		a.Tokens = append(a.Tokens, int64(r.varint()))
	}
	if r.err != nil {
		return a, fmt.Errorf("%w: averages record: %v", ErrUnsupported, r.err)
	}
	return a, nil
}

// reader walks SQLite varints (sqlite3Fts5GetVarint: big-endian groups of
// seven bits, the ninth byte whole).
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) varint() uint64 {
	if r.off < len(r.b) && r.b[r.off] < 0x80 { // most are one byte: a delta, a size
		r.off++
		return uint64(r.b[r.off-1])
	}
	v, n := Varint(r.b[min(r.off, len(r.b)):])
	if n == 0 {
		if r.err == nil {
			r.err = errors.New("truncated varint")
		}
		return 0
	}
	r.off += n
	return v
}

// Varint decodes one SQLite varint from b: its value and length (0 when b
// ends inside it).
func Varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		c := b[i]
		if i == 8 {
			return v<<8 | uint64(c), 9
		}
		v = v<<7 | uint64(c&0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return v, 9
}
