package fts5idx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Source reads an FTS5 table's shadow tables.
type Source interface {
	// Block returns the %_data record id (nil when there is none).
	Block(id int64) ([]byte, error)
	// SeekPage returns the leaf page of segment segid on which a term equal
	// to or just before term would start: %_idx's last key <= term.
	SeekPage(segid int, term []byte) (pgno int, ok bool, err error)
	// NextPage returns the first leaf page of segment segid on which a term
	// after term starts: %_idx's first key > term.
	NextPage(segid int, term []byte) (pgno int, ok bool, err error)
	// Blocks calls fn with each %_data record whose id is in [from, to],
	// in id order, until fn returns false; b is valid during the call only.
	Blocks(from, to int64, fn func(id int64, b []byte) bool) error
}

// Posting is one row of a term's doclist. It holds no pointers, so that
// the hundreds of thousands of a common word's rows copy and merge as
// plain memory.
type Posting struct {
	Rowid int64
	// Tf is the number of the term's positions in the row (every column);
	// 0 while an entry is a delete marker (an empty position list).
	Tf  int32
	pos int32 // index of the row's position list in Doclist.lists; -1 for none
}

// deleted reports a delete marker: as in fts5MultiIterIsEmpty, an entry
// with an empty position list means the row is gone.
func (p Posting) deleted() bool { return p.Tf == 0 }

// Doclist is a term's rows, ascending, with their position lists when
// they were asked for.
type Doclist struct {
	Rows []Posting
	lists
	own *[]Posting // the kept buffer Rows is in (Recycle); nil: the collector's
}

// lists holds position lists copied one after another into one buffer:
// no pointer per row for the collector to scan, one allocation that grows.
type lists struct {
	arena []byte
	spans [][2]int32 // offset and length in arena
}

// Pos returns row i's raw position list (collists, fts5_index.c "poslist
// format"); nil when position lists were not kept or several terms were
// combined.
func (d Doclist) Pos(i int) []byte {
	if k := d.Rows[i].pos; k >= 0 && int(k) < len(d.spans) {
		sp := d.spans[k]
		return d.arena[sp[0] : sp[0]+sp[1] : sp[0]+sp[1]]
	}
	return nil
}

// segmentRowid is a leaf page's id in %_data (fts5_index.c: FTS5_SEGMENT_ROWID).
func segmentRowid(segid, pgno int) int64 {
	return int64(segid)<<(31+5+1) + int64(pgno)
}

// page is one leaf page, split into its parts.
type page struct {
	b        []byte
	rowidOff int   // offset of the first rowid, if before the first term (else 0)
	szLeaf   int   // where the footer starts
	terms    []int // offsets of the terms on the page
}

func (s *scan) loadPage(pgno int) (*page, error) {
	b, err := s.src.Block(segmentRowid(s.seg.ID, pgno))
	if err != nil {
		return nil, err
	}
	return parsePage(b, s.seg.ID, pgno)
}

// parsePage reads a leaf page's header and footer; p.b is b itself.
func parsePage(b []byte, segid, pgno int) (*page, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: leaf page %d of segment %d has %d bytes", ErrUnsupported, pgno, segid, len(b))
	}
	p := &page{b: b, rowidOff: int(binary.BigEndian.Uint16(b)), szLeaf: int(binary.BigEndian.Uint16(b[2:]))}
	if p.szLeaf < 4 || p.szLeaf > len(b) || p.rowidOff > p.szLeaf {
		return nil, fmt.Errorf("%w: leaf page %d of segment %d: bad header", ErrUnsupported, pgno, segid)
	}
	off := 0
	for i := p.szLeaf; i < len(b); {
		v, n := Varint(b[i:])
		if n == 0 {
			return nil, fmt.Errorf("%w: leaf page %d of segment %d: bad footer", ErrUnsupported, pgno, segid)
		}
		i += n
		off += int(v)
		if off < 4 || off >= p.szLeaf {
			return nil, fmt.Errorf("%w: leaf page %d of segment %d: term offset %d", ErrUnsupported, pgno, segid, off)
		}
		p.terms = append(p.terms, off)
	}
	return p, nil
}

// scan reads the doclists of one segment.
type scan struct {
	src Source
	seg Segment
	// buf is where doclists are decoded, one after another, reused from
	// query to query: a common word's rows grown into fresh slices cost
	// more than reading them.
	buf *[]Posting
	pos *lists // where position lists are kept; nil: not kept
	// only, when set, keeps the rows it accepts and drops the others.
	only func(rowid int64) bool
	// want, when set, chooses which terms of a prefix are read; the
	// others' doclists are skipped unread.
	want func(term []byte) bool
	dels int // delete markers decoded so far
}

// keep stores a position list and returns its index.
func (s *scan) keep(pl []byte) int32 {
	if s.pos == nil {
		return -1
	}
	s.pos.spans = append(s.pos.spans, [2]int32{int32(len(s.pos.arena)), int32(len(pl))})
	s.pos.arena = append(s.pos.arena, pl...)
	return int32(len(s.pos.spans) - 1)
}

// Terms calls fn with the doclist (ascending rowids, delete markers kept)
// of each term of seg that equals target, or, with prefix, starts with it.
// dels is how many of ps are delete markers.
func (s *scan) terms(target []byte, prefix bool, fn func(term []byte, ps []Posting, dels int)) error {
	pgno, ok, err := s.src.SeekPage(s.seg.ID, target)
	if err != nil {
		return err
	}
	if !ok || pgno < s.seg.First {
		pgno = s.seg.First
	}
	var term []byte
pages:
	for ; pgno <= s.seg.Last; pgno++ {
		p, err := s.loadPage(pgno)
		if err != nil {
			return err
		}
		for i, off := range p.terms {
			r := reader{b: p.b[:p.szLeaf], off: off}
			if i == 0 {
				n := int(r.varint())
				term = append(term[:0], r.bytes(n)...)
			} else {
				keep, n := int(r.varint()), int(r.varint())
				if keep > len(term) {
					return fmt.Errorf("%w: segment %d page %d: term prefix %d of %d bytes", ErrUnsupported, s.seg.ID, pgno, keep, len(term))
				}
				term = append(term[:keep], r.bytes(n)...)
			}
			if r.err != nil {
				return fmt.Errorf("%w: segment %d page %d: %v", ErrUnsupported, s.seg.ID, pgno, r.err)
			}
			match := bytes.Equal(term, target) || (prefix && bytes.HasPrefix(term, target))
			if !match && bytes.Compare(term, target) > 0 {
				return nil // terms are sorted: nothing further matches
			}
			if match && s.want != nil && !s.want(term) {
				match = false // a term of the prefix the caller does not want: skipped like one before it
			}
			if !match {
				if i+1 < len(p.terms) {
					continue
				}
				// The page's last term comes before target, and its doclist
				// may run on over many pages that start no term (a common
				// word's: hundreds). Every page on which a term starts has an
				// %_idx key (fts5WriteAppendTerm), so the next term starts
				// on the page of the first key after this term; and that key
				// is after target, or SeekPage would have returned its page:
				// target itself is in no later page. (A prefix's terms may
				// be, and a skipped term's doclist is jumped over the same way.)
				if !prefix {
					return nil
				}
				next, ok, err := s.src.NextPage(s.seg.ID, term)
				if err != nil {
					return err
				}
				if !ok || next > s.seg.Last {
					return nil
				}
				pgno = next - 1
				continue pages
			}
			end := p.szLeaf
			if i+1 < len(p.terms) {
				end = p.terms[i+1]
			}
			dels := s.dels
			ps, lastPg, err := s.doclist(p, pgno, r.off, end, i+1 == len(p.terms))
			if err != nil {
				return err
			}
			fn(append([]byte(nil), term...), ps, s.dels-dels)
			if !prefix {
				return nil
			}
			if lastPg != pgno {
				// The doclist ran on to later pages: go on from the page
				// where it ended, whose first term comes next.
				pgno = lastPg - 1
				continue pages
			}
		}
	}
	return nil
}

// doclist decodes a doclist that starts at offset start of page p (page
// number pgno) and runs to end; when it is the page's last, it may go on
// over the following pages, up to the first term found on one. It returns
// the postings and the number of the page it ended on.
func (s *scan) doclist(p *page, pgno, start, end int, mayContinue bool) ([]Posting, int, error) {
	base := len(*s.buf)
	var (
		rowid int64
		first = true
		carry []byte // a position list begun on an earlier page
		need  int    // bytes of it still to come
		cur   Posting
	)
	decode := func(b []byte, pg int) error {
		r := reader{b: b}
		// Locals in the loop, the closure's variables written back once
		// per page: a common word's doclist is a million rows.
		out, rid, fst, dels := *s.buf, rowid, first, s.dels
		defer func() { *s.buf, rowid, first, s.dels = out, rid, fst, dels }()
		fast := s.only == nil && s.pos == nil
		for r.off < len(b) {
			if fast && need == 0 {
				// The entries wholly on this page, in a loop of its own;
				// the one running on to the next page, below.
				if r.off, rid, fst, out, dels = decodeWhole(b, r.off, rid, fst, out, dels); r.off >= len(b) {
					break
				}
			}
			if need > 0 {
				n := min(need, len(b)-r.off)
				carry = append(carry, b[r.off:r.off+n]...)
				r.off += n
				need -= n
				if need == 0 {
					if s.only == nil || s.only(cur.Rowid) {
						cur.pos = s.keep(carry)
						cur.Tf = countPositions(carry)
						if cur.Tf == 0 {
							dels++
						}
						out = append(out, cur)
					}
					carry = carry[:0] // its memory serves the next
				}
				continue
			}
			v := r.varint()
			if fst {
				rid = int64(v)
				fst = false
			} else {
				rid += int64(v)
			}
			sz := r.varint()
			if r.err != nil {
				return fmt.Errorf("%w: segment %d page %d: %v", ErrUnsupported, s.seg.ID, pg, r.err)
			}
			// The low bit flags a delete, but an entry written by a delete
			// and a re-insert of the row in one transaction carries it
			// beside the new positions: only an empty position list (Tf 0,
			// deleted) means the row is gone.
			n := int(sz >> 1)
			cur = Posting{Rowid: rid}
			if r.off+n <= len(b) && s.only != nil && !s.only(rid) {
				r.off += n
				continue
			}
			if r.off+n <= len(b) {
				cur.pos = s.keep(b[r.off : r.off+n])
				cur.Tf = countPositions(b[r.off : r.off+n])
				if cur.Tf == 0 {
					dels++
				}
				r.off += n
				out = append(out, cur)
				continue
			}
			carry = append(carry[:0], b[r.off:]...)
			need = n - len(carry)
			r.off = len(b)
		}
		return nil
	}
	if err := decode(p.b[start:end], pgno); err != nil {
		return nil, pgno, err
	}
	last := pgno
	if mayContinue && last < s.seg.Last {
		// The following pages, read in one pass over %_data (a common
		// word's doclist runs over hundreds: one lookup each cost ten
		// times the decoding), up to the first that opens with a term.
		var ferr error
		err := s.src.Blocks(segmentRowid(s.seg.ID, last+1), segmentRowid(s.seg.ID, s.seg.Last), func(id int64, b []byte) bool {
			if id != segmentRowid(s.seg.ID, last+1) {
				ferr = fmt.Errorf("%w: leaf page %d of segment %d is missing", ErrUnsupported, last+1, s.seg.ID)
				return false
			}
			q, err := parsePage(b, s.seg.ID, last+1)
			if err != nil {
				ferr = err
				return false
			}
			qEnd := q.szLeaf
			if len(q.terms) > 0 {
				qEnd = q.terms[0]
			}
			if qEnd <= 4 {
				return false // the next page opens with a term: this doclist ended here
			}
			last++
			if need == 0 && q.rowidOff != 4 {
				ferr = fmt.Errorf("%w: segment %d page %d: no rowid where the doclist goes on", ErrUnsupported, s.seg.ID, last)
				return false
			}
			if need > 0 {
				// The rest of a position list, then (at rowidOff) the next rowid, written whole.
				body := q.b[4:qEnd]
				if q.rowidOff > 0 {
					body = q.b[4:q.rowidOff]
				}
				if ferr = decode(body, last); ferr != nil {
					return false
				}
			}
			if q.rowidOff > 0 {
				first = true // a page's first rowid is stored whole, not as a delta
				if ferr = decode(q.b[q.rowidOff:qEnd], last); ferr != nil {
					return false
				}
			}
			return len(q.terms) == 0
		})
		if err == nil {
			err = ferr
		}
		if err != nil {
			return nil, last, err
		}
	}
	if need > 0 {
		return nil, last, fmt.Errorf("%w: segment %d: a position list ends past the segment", ErrUnsupported, s.seg.ID)
	}
	return (*s.buf)[base:], last, nil
}

// decodeWhole appends the entries of b from off on that lie wholly in it
// (rowid, size, position list; the list counted, not kept), and returns
// where it stopped: at the end of b, or before an entry that runs past it.
// It is the doclist loop for a common word's hundreds of thousands of
// rows: its state in locals, a short list counted in place.
func decodeWhole(b []byte, off int, rid int64, first bool, out []Posting, dels int) (int, int64, bool, []Posting, int) {
	const high, ones = 0x8080808080808080, 0x0101010101010101
	for off < len(b) {
		at := off
		delta, k := uint64(b[off]), 1
		if delta >= 0x80 {
			if delta, k = Varint(b[off:]); k == 0 {
				return at, rid, first, out, dels
			}
		}
		off += k
		if off >= len(b) {
			return at, rid, first, out, dels
		}
		sz, k := uint64(b[off]), 1
		if sz >= 0x80 {
			if sz, k = Varint(b[off:]); k == 0 {
				return at, rid, first, out, dels
			}
		}
		off += k
		n := int(sz >> 1)
		if off+n > len(b) {
			return at, rid, first, out, dels
		}
		if first {
			rid, first = int64(delta), false
		} else {
			rid += int64(delta)
		}
		var tf int32
		if n <= 8 && off+8 <= cap(b) {
			// countPositions for one word's worth, the bytes past the
			// list taken for continuation bytes.
			keep := uint64(1)<<(8*n) - 1
			w := binary.LittleEndian.Uint64(b[off:off+8])&keep | high&^keep
			if x := w ^ ones; (x-ones)&^x&high == 0 {
				tf = int32(8 - bits.OnesCount64(w&high))
			} else {
				tf = countPositions(b[off : off+n])
			}
		} else {
			tf = countPositions(b[off : off+n])
		}
		if tf == 0 {
			dels++
		}
		out = append(out, Posting{Rowid: rid, Tf: tf, pos: -1})
		off += n
	}
	return off, rid, first, out, dels
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.off+n > len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("%d bytes past the end", n)
		}
		return nil
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}

// countPositions counts the positions in a position list: every varint but
// the 0x01 column markers and the column numbers after them.
//
// Most lists are a few one-byte varints. Each varint ends in the one byte
// of it below 0x80, so counting those counts positions, unless a byte is
// 0x01: a column marker (varint 1, always that one byte) or the end of a
// longer varint, told apart by decoding. The bytes are taken eight at a
// time: a common word's doclist is a million lists.
func countPositions(pl []byte) int32 {
	const high, ones = 0x8080808080808080, 0x0101010101010101
	n := 0
	for rest := pl; len(rest) > 0; {
		var w uint64
		switch {
		case len(rest) >= 8:
			w = binary.LittleEndian.Uint64(rest)
			rest = rest[8:]
		case cap(rest) >= 8:
			// The list's page goes on past it: read a whole word and
			// take its bytes past the list for continuation bytes.
			keep := uint64(1)<<(8*len(rest)) - 1
			w = binary.LittleEndian.Uint64(rest[:8])&keep | high&^keep
			rest = nil
		default:
			keep := uint64(1)<<(8*len(rest)) - 1
			for i, b := range rest {
				w |= uint64(b) << (8 * i)
			}
			w |= high &^ keep
			rest = nil
		}
		if x := w ^ ones; (x-ones)&^x&high != 0 { // a byte is 0x01
			var buf [64]uint64
			return int32(len(AppendPositions(buf[:0], pl)))
		}
		n += 8 - bits.OnesCount64(w&high)
	}
	return int32(n)
}

// AppendPositions appends the positions of a position list to dst, in
// order, each as its column << 32 | its offset.
func AppendPositions(dst []uint64, pl []byte) []uint64 {
	var col, off uint64
	for i := 0; i < len(pl); {
		v, k := uint64(pl[i]), 1
		if v >= 0x80 {
			if v, k = Varint(pl[i:]); k == 0 {
				return dst
			}
		}
		i += k
		if v == 1 {
			c, k := Varint(pl[i:])
			if k == 0 {
				return dst
			}
			i += k
			col, off = c, 0
			continue
		}
		off += v - 2
		dst = append(dst, col<<32|off)
	}
	return dst
}
