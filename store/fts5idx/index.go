package fts5idx

import (
	"bytes"
	"fmt"
	"math"
	"sync"
)

// Main is the byte that starts every term of the main index; prefix index
// i (1-based, in the order of the table's prefix= option) uses Main+i
// (fts5_index.c: FTS5_MAIN_PREFIX).
const Main = '0'

// Postings returns the current doclist of the index term key (its first
// byte names the index: Main, or a prefix index), over every segment:
// ascending rowids, each row's newest entry, deleted rows left out. With
// prefix, every term starting with key is read and a row's postings are
// combined (Tf summed). Position lists are kept when withPos is set and
// only one term was read.
func Postings(src Source, st Structure, key []byte, prefix, withPos bool) (Doclist, error) {
	return PostingsOf(src, st, key, prefix, withPos, nil)
}

// PostingsOf is Postings for the rows only accepts (nil: every row): the
// doclist is still walked whole, but nothing is kept of the other rows.
func PostingsOf(src Source, st Structure, key []byte, prefix, withPos bool, only func(rowid int64) bool) (Doclist, error) {
	return postings(src, st, key, prefix, withPos, only, nil)
}

// PostingsAmong is the combined doclist of the terms of keys (full keys,
// index byte first), which all start with prefix: one scan of the prefix's
// terms per segment, reading the wanted ones and skipping the others,
// instead of a lookup per key (an absent key costs as much as a present
// one, and a word's inflections are mostly absent).
func PostingsAmong(src Source, st Structure, prefix []byte, keys [][]byte) (Doclist, error) {
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		if !bytes.HasPrefix(k, prefix) {
			return Doclist{}, fmt.Errorf("fts5idx: key %q does not start with %q", k, prefix)
		}
		want[string(k)] = true
	}
	return postings(src, st, prefix, true, false, nil, func(term []byte) bool { return want[string(term)] })
}

func postings(src Source, st Structure, key []byte, prefix, withPos bool, only func(rowid int64) bool, want func([]byte) bool) (Doclist, error) {
	var d Doclist
	type span struct{ from, to int }
	bySeg := map[string][]span{} // per term, its doclist in each segment (in buf), oldest first
	var order []string
	buf := getScratch()
	defer putScratch(buf)
	if withPos {
		d.lists = getLists()
	}
	for _, seg := range st.Segments { // oldest first
		sc := scan{src: src, seg: seg, buf: buf, only: only, want: want}
		if withPos {
			sc.pos = &d.lists
		}
		err := sc.terms(key, prefix, func(term []byte, ps []Posting) {
			t := string(term)
			if _, seen := bySeg[t]; !seen {
				order = append(order, t)
			}
			// ps is the tail of buf, where it was just decoded.
			bySeg[t] = append(bySeg[t], span{len(*buf) - len(ps), len(*buf)})
		})
		if err != nil {
			return d, err
		}
	}
	terms := make([][]Posting, 0, len(order))
	for _, t := range order {
		segs := make([][]Posting, 0, len(bySeg[t]))
		for _, sp := range bySeg[t] {
			segs = append(segs, (*buf)[sp.from:sp.to])
		}
		terms = append(terms, current(segs))
	}
	if len(terms) > 1 {
		d.Release() // the position lists of several terms are not combined
	}
	d.Rows = CombineAll(terms)
	return d, nil
}

// kept holds up to n buffers between queries. Not a sync.Pool: a pool is
// emptied by every garbage collection, and a common word's doclist is
// exactly what makes collections frequent, so it would grow the buffer
// anew for each query.
type kept[T any] struct {
	mu   sync.Mutex
	free []T
	n    int
}

// get returns a kept buffer, or false when none is.
func (k *kept[T]) get() (T, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var b T
	if n := len(k.free); n > 0 {
		b, k.free = k.free[n-1], k.free[:n-1]
		return b, true
	}
	return b, false
}

// put keeps b if fewer than n are kept.
func (k *kept[T]) put(b T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.free) < k.n {
		k.free = append(k.free, b)
	}
}

// Decoding buffers: one is kept, of at most maxScratch rows (16 MB); a
// second search at once, or a doclist longer than that, allocates its own.
var scratch = kept[*[]Posting]{n: 1}

const maxScratch = 1 << 20

func getScratch() *[]Posting {
	if b, ok := scratch.get(); ok {
		*b = (*b)[:0]
		return b
	}
	return new([]Posting)
}

func putScratch(b *[]Posting) {
	if cap(*b) <= maxScratch {
		scratch.put(b)
	}
}

// Position lists, kept the same way: a phrase's doclists are read with
// their positions, used once to find the phrase, and given back
// (Doclist.Release). Two are kept (a phrase reads two or more lists), of
// at most maxArena bytes each.
var arenas = kept[lists]{n: 2}

const maxArena = 16 << 20

func getLists() lists {
	if l, ok := arenas.get(); ok {
		return lists{arena: l.arena[:0], spans: l.spans[:0]}
	}
	return lists{arena: make([]byte, 0, 4096)}
}

// Release gives d's position lists back for a later read: after it, d.Pos
// returns nil, and no slice it returned before may be used.
func (d *Doclist) Release() {
	l := d.lists
	d.lists = lists{}
	if cap(l.arena) > 0 && cap(l.arena) <= maxArena {
		arenas.put(l)
	}
}

// current merges one term's doclists from segments given oldest first:
// each row's newest entry, deleted rows left out. Segments written by
// appends hold disjoint, increasing rowid ranges, so the usual case is one
// copy; overlapping ones are merged newest first wins.
func current(lists [][]Posting) []Posting {
	ordered := true
	n := 0
	for i, l := range lists {
		n += len(l)
		if i > 0 && len(l) > 0 && len(lists[i-1]) > 0 && lists[i-1][len(lists[i-1])-1].Rowid >= l[0].Rowid {
			ordered = false
		}
	}
	if !ordered {
		acc := lists[0]
		for _, l := range lists[1:] {
			acc = newestWins(acc, l)
		}
		lists = [][]Posting{acc}
	}
	out := make([]Posting, 0, n)
	for _, l := range lists {
		for _, p := range l {
			if !p.deleted() {
				out = append(out, p)
			}
		}
	}
	return out
}

// newestWins merges two ascending doclists of one term; where both hold a
// row, the entry of newer (from the later segment) is kept, delete
// markers included (they hide the older entry until the end).
func newestWins(older, newer []Posting) []Posting {
	if len(older) == 0 {
		return newer
	}
	if len(newer) == 0 {
		return older
	}
	if older[len(older)-1].Rowid < newer[0].Rowid {
		return append(older, newer...)
	}
	out := make([]Posting, 0, len(older)+len(newer))
	i, j := 0, 0
	for i < len(older) && j < len(newer) {
		switch a, b := older[i].Rowid, newer[j].Rowid; {
		case a < b:
			out = append(out, older[i])
			i++
		case a > b:
			out = append(out, newer[j])
			j++
		default:
			out = append(out, newer[j])
			i++
			j++
		}
	}
	out = append(out, older[i:]...)
	return append(out, newer[j:]...)
}

// CombineAll merges the doclists of different terms (a prefix query, or
// the forms of one word) in one pass: a row in several counts the positions
// of all. A single list is returned as it is.
func CombineAll(lists [][]Posting) []Posting {
	var live [][]Posting
	total := 0
	for _, l := range lists {
		if len(l) > 0 {
			live = append(live, l)
			total += len(l)
		}
	}
	switch len(live) {
	case 0:
		return nil
	case 1:
		return live[0]
	}
	out := make([]Posting, 0, total)
	EachRow(live, func(rowid int64, at []int) {
		p := Posting{Rowid: rowid, pos: -1}
		for i, j := range at {
			if j >= 0 {
				p.Tf += live[i][j].Tf
			}
		}
		out = append(out, p)
	})
	return out
}

// EachRow calls fn with every rowid of the union of lists (each ascending),
// in ascending order, and for each list the row's index in it (-1 where it
// is not). at is reused from call to call.
func EachRow(lists [][]Posting, fn func(rowid int64, at []int)) {
	at := make([]int, len(lists))
	if len(lists) == 1 {
		for j, p := range lists[0] {
			at[0] = j
			fn(p.Rowid, at)
		}
		return
	}
	cur := make([]int, len(lists))
	for {
		next := int64(math.MaxInt64)
		for i, l := range lists {
			if cur[i] < len(l) && l[cur[i]].Rowid < next {
				next = l[cur[i]].Rowid
			}
		}
		if next == math.MaxInt64 {
			return
		}
		for i, l := range lists {
			at[i] = -1
			if cur[i] < len(l) && l[cur[i]].Rowid == next {
				at[i] = cur[i]
				cur[i]++
			}
		}
		fn(next, at)
	}
}
