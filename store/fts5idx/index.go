package fts5idx

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"unsafe"
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
	bySeg := map[string][]run{} // per term, its doclist in each segment (in buf), oldest first
	var order []string
	buf := getScratch(0)
	if withPos {
		d.lists = getLists()
	}
	for _, seg := range st.Segments { // oldest first
		sc := scan{src: src, seg: seg, buf: buf, only: only, want: want}
		if withPos {
			sc.pos = &d.lists
		}
		err := sc.terms(key, prefix, func(term []byte, ps []Posting, dels int) {
			t := string(term)
			if _, seen := bySeg[t]; !seen {
				order = append(order, t)
			}
			// ps is the tail of buf, where it was just decoded.
			bySeg[t] = append(bySeg[t], run{len(*buf) - len(ps), len(*buf), dels})
		})
		if err != nil {
			putScratch(buf)
			d.Release()
			return Doclist{}, err
		}
	}
	if len(order) == 1 {
		if from, to, ok := contiguous(bySeg[order[0]], *buf); ok {
			// One term whose segments' doclists were decoded one after
			// another, in rowid order, with no delete marker: they are
			// its rows already, in the buffer, which d now owns.
			d.Rows, d.own = (*buf)[from:to], buf
			return d, nil
		}
	}
	terms := make([][][]Posting, 0, len(order))
	for _, t := range order {
		segs := make([][]Posting, 0, len(bySeg[t]))
		for _, r := range bySeg[t] {
			segs = append(segs, (*buf)[r.from:r.to:r.to]) // capped: a merge must not append over the next
		}
		terms = append(terms, segs)
	}
	if len(terms) > 1 {
		d.Release() // the position lists of several terms are not combined
	}
	out := getScratch(len(*buf))
	*out = mergeTerms(*out, terms)
	putScratch(buf)
	d.Rows, d.own = *out, out
	return d, nil
}

// run is where one segment's doclist of a term was decoded in the buffer,
// and how many delete markers it holds.
type run struct{ from, to, dels int }

// contiguous reports whether runs lie one after another in buf, each
// after the one before in rowid order too (segments written by appends),
// without delete markers, and returns their extent.
func contiguous(runs []run, buf []Posting) (from, to int, ok bool) {
	for i, r := range runs {
		if r.dels > 0 {
			return 0, 0, false
		}
		// buf[r.from-1] is the last row of the runs before (they are
		// contiguous), whichever of them was the last to hold one.
		if i > 0 && (r.from != runs[i-1].to || (r.to > r.from && r.from > runs[0].from && buf[r.from].Rowid <= buf[r.from-1].Rowid)) {
			return 0, 0, false
		}
	}
	if len(runs) == 0 {
		return 0, 0, false
	}
	return runs[0].from, runs[len(runs)-1].to, true
}

// kept holds up to n buffers between queries, of budget bytes in all. Not
// a sync.Pool: a pool is emptied by every garbage collection, and a common
// word's doclist is exactly what makes collections frequent, so it would
// grow the buffer anew for each query.
type kept[T any] struct {
	mu     sync.Mutex
	free   []T
	n      int
	size   func(T) int // the bytes a buffer holds
	budget int
	held   int // the bytes of those in free
}

// get returns a kept buffer, or false when none is: the smallest of at
// least want bytes, else the largest (0: the largest), so that a long
// doclist does not grow a short one's buffer while a long one is kept.
func (k *kept[T]) get(want int) (T, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var b T
	if len(k.free) == 0 {
		return b, false
	}
	pick := 0
	for i, f := range k.free[1:] {
		w, pw := k.size(f), k.size(k.free[pick])
		fits, pfits := want > 0 && w >= want, want > 0 && pw >= want
		if fits && (!pfits || w < pw) || !fits && !pfits && w > pw {
			pick = i + 1
		}
	}
	b = k.free[pick]
	k.free = slices.Delete(k.free, pick, pick+1)
	k.held -= k.size(b)
	return b, true
}

// put keeps b if fewer than n are kept and the budget has room.
func (k *kept[T]) put(b T) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if w := k.size(b); len(k.free) < k.n && k.held+w <= k.budget {
		k.free = append(k.free, b)
		k.held += w
	}
}

// Row buffers: where doclists are decoded and merged, and which a
// Doclist's rows then stay in until it is recycled. Many are kept (a
// question of four words holds one per word, and one per word of the
// phrase with its positions, while its forms' doclists are read and
// merged beside them), each of at most maxScratch rows (16 MB), 64 MB in
// all; more at once, or a doclist longer than that, allocate their own.
var scratch = kept[*[]Posting]{n: 16, budget: 64 << 20, size: func(b *[]Posting) int { return cap(*b) * int(unsafe.Sizeof(Posting{})) }}

const maxScratch = 1 << 20

// getScratch returns an empty row buffer, of room for want rows if one
// kept has it (0: the largest kept).
func getScratch(want int) *[]Posting {
	if b, ok := scratch.get(want * int(unsafe.Sizeof(Posting{}))); ok {
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
// (Doclist.Release). Eight are kept (a question's phrase reads one list
// per word of it, stopwords too), of at most maxArena bytes each, 48 MB in
// all.
var arenas = kept[lists]{n: 8, budget: 3 * maxArena, size: func(l lists) int { return cap(l.arena) + 8*cap(l.spans) }}

const maxArena = 16 << 20

func getLists() lists {
	if l, ok := arenas.get(0); ok {
		return lists{arena: l.arena[:0], spans: l.spans[:0]}
	}
	return lists{arena: make([]byte, 0, 4096)}
}

// Recycle gives all of d's memory back for a later read, its rows and
// position lists: after it, d is empty, and no slice it gave may be used.
// A doclist never recycled is left to the collector (its buffer is then
// not reused).
func (d *Doclist) Recycle() {
	d.Release()
	if d.own != nil {
		putScratch(d.own)
	}
	*d = Doclist{}
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

// chain returns one term's current rows, from its doclists in segments
// given oldest first, as ascending runs: the doclists themselves when they
// hold disjoint, increasing rowid ranges (segments written by appends, the
// usual case), else their merge, each row's newest entry winning. Delete
// markers are left in; the merge drops them.
func chain(segs [][]Posting) [][]Posting {
	for i := 1; i < len(segs); i++ {
		if len(segs[i]) > 0 && len(segs[i-1]) > 0 && segs[i-1][len(segs[i-1])-1].Rowid >= segs[i][0].Rowid {
			acc := segs[0]
			for _, l := range segs[1:] {
				acc = newestWins(acc, l)
			}
			return [][]Posting{acc}
		}
	}
	return segs
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

// Combine merges the doclists of different terms (a prefix query, or the
// forms of one word): a row in several counts the positions of all. When
// one holds rows, it is returned as it is; several are merged (merged
// true) into a doclist of its own, position lists not kept, theirs left to
// the caller to Recycle.
func Combine(ds ...Doclist) (d Doclist, merged bool) {
	var live []Doclist
	for _, d := range ds {
		if len(d.Rows) > 0 {
			live = append(live, d)
		}
	}
	switch len(live) {
	case 0:
		return Doclist{}, false
	case 1:
		return live[0], false
	}
	terms := make([][][]Posting, len(live))
	total := 0
	for i, d := range live {
		terms[i] = [][]Posting{d.Rows}
		total += len(d.Rows)
	}
	out := getScratch(total)
	*out = mergeTerms(*out, terms)
	return Doclist{Rows: *out, own: out}, true
}

// mergeTerms appends to dst the rows of the union of terms (each one
// term's doclists, oldest segment first), ascending, each once with the
// positions of every term counted, delete markers and deleted rows left
// out.
func mergeTerms(dst []Posting, terms [][][]Posting) []Posting {
	cs := make([]cursor, 0, len(terms))
	total := 0
	for _, segs := range terms {
		for _, r := range segs {
			total += len(r)
		}
	}
	dst = slices.Grow(dst, total) // once: growing by appends copies a common word's rows again and again
	for _, segs := range terms {
		c := cursor{runs: chain(segs)}
		c.next()
		if len(c.cur) > 0 {
			cs = append(cs, c)
		}
	}
	if len(cs) == 1 {
		for _, r := range append([][]Posting{cs[0].cur}, cs[0].runs...) {
			for _, p := range r {
				if !p.deleted() {
					dst = append(dst, p)
				}
			}
		}
		return dst
	}
	for {
		// The lowest head, and the next lowest of the other cursors: the
		// rows before that are the lowest cursor's alone (a word's rare
		// forms beside its common one: most rows), copied as they are.
		low, next, second := -1, int64(math.MaxInt64), int64(math.MaxInt64)
		for i := range cs {
			if len(cs[i].cur) == 0 {
				continue
			}
			if h := cs[i].cur[0].Rowid; h < next {
				low, next, second = i, h, next
			} else if h < second {
				second = h
			}
		}
		if low < 0 {
			return dst
		}
		if c := &cs[low]; next < second {
			run := c.cur
			k := Seek(run, 0, second)
			for _, p := range run[:k] {
				if !p.deleted() {
					p.pos = -1
					dst = append(dst, p)
				}
			}
			if c.cur = run[k:]; len(c.cur) == 0 {
				c.next()
			}
			continue
		}
		p := Posting{Rowid: next, pos: -1}
		for i := range cs {
			if c := &cs[i]; len(c.cur) > 0 && c.cur[0].Rowid == next {
				p.Tf += c.cur[0].Tf
				c.cur = c.cur[1:]
				if len(c.cur) == 0 {
					c.next()
				}
			}
		}
		if p.Tf > 0 { // in every term a delete marker: the row is gone
			dst = append(dst, p)
		}
	}
}

// Seek returns the first index at or after from whose rowid is at least
// id (len(ps) when none is): a galloping search, as cheap for the next row
// as a step, and for a row far on as a binary search.
func Seek(ps []Posting, from int, id int64) int {
	if from >= len(ps) || ps[from].Rowid >= id {
		return from
	}
	step := 1
	for from+step < len(ps) && ps[from+step].Rowid < id {
		step *= 2
	}
	lo, hi := from+step/2+1, min(from+step, len(ps)-1)+1 // ps[from+step/2] < id
	return lo + sort.Search(hi-lo, func(k int) bool { return ps[lo+k].Rowid >= id })
}

// cursor walks a term's runs (ascending, disjoint) as one list.
type cursor struct {
	cur  []Posting   // the rest of the current run
	runs [][]Posting // the runs after it
}

// next moves to the next run that holds a row.
func (c *cursor) next() {
	for len(c.cur) == 0 && len(c.runs) > 0 {
		c.cur, c.runs = c.runs[0], c.runs[1:]
	}
}
