package fts5idx

import (
	"math"
	"runtime"
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
	groups := segmentGroups(st.Segments, runtime.GOMAXPROCS(0))
	if len(groups) > 1 {
		src = &lockedSource{src: src}
	}
	// Each group of segments is read by its own goroutine into its own
	// buffer: decoding is most of the time, and only the page reads (one
	// connection) wait for each other.
	var d Doclist
	reads := make([]segmentRead, len(groups))
	var wg sync.WaitGroup
	for g := range groups {
		r := &reads[g]
		r.buf = getScratch()
		defer putScratch(r.buf)
		if withPos {
			// The first group's position lists are the answer's; a later
			// group's are appended to them once it is done.
			if g == 0 {
				d.lists = getLists()
				r.pos = &d.lists
			} else {
				r.pos = new(lists)
				*r.pos = getLists()
			}
		}
		if g == len(groups)-1 {
			r.read(src, groups[g], key, prefix, only)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.read(src, groups[g], key, prefix, only)
		}()
	}
	wg.Wait()
	for g := range reads {
		if reads[g].err != nil {
			return d, reads[g].err
		}
	}
	// One term's doclists, oldest segment first, across the groups (in
	// segment order); position lists appended in the same order, each
	// row's index into them moved by what came before.
	bySeg := map[string][][]Posting{}
	var order []string
	for g := range reads {
		r := &reads[g]
		if withPos && g > 0 {
			base, arenaBase := int32(len(d.spans)), int32(len(d.arena))
			for i := range *r.buf {
				if (*r.buf)[i].pos >= 0 {
					(*r.buf)[i].pos += base
				}
			}
			for _, sp := range r.pos.spans {
				d.spans = append(d.spans, [2]int32{sp[0] + arenaBase, sp[1]})
			}
			d.arena = append(d.arena, r.pos.arena...)
			(&Doclist{lists: *r.pos}).Release()
		}
		for _, sp := range r.spans {
			if _, seen := bySeg[sp.term]; !seen {
				order = append(order, sp.term)
			}
			// Capped: newestWins may append to a list, which must not
			// write over the next one in the buffer.
			bySeg[sp.term] = append(bySeg[sp.term], (*r.buf)[sp.from:sp.to:sp.to])
		}
	}
	terms := make([][]Posting, 0, len(order))
	for _, t := range order {
		terms = append(terms, current(bySeg[t]))
	}
	if len(terms) > 1 {
		d.Release() // the position lists of several terms are not combined
	}
	d.Rows = CombineAll(terms)
	return d, nil
}

// segmentRead is what one goroutine of PostingsOf read: each term's
// doclist in each of its segments, as spans of buf, oldest first.
type segmentRead struct {
	buf   *[]Posting
	pos   *lists // nil: position lists not kept
	spans []termSpan
	err   error
}

type termSpan struct {
	term     string
	from, to int
}

func (r *segmentRead) read(src Source, segs []Segment, key []byte, prefix bool, only func(rowid int64) bool) {
	for _, seg := range segs { // oldest first
		sc := scan{src: src, seg: seg, buf: r.buf, only: only, pos: r.pos}
		r.err = sc.terms(key, prefix, func(term []byte, ps []Posting) {
			// ps is the tail of buf, where it was just decoded.
			r.spans = append(r.spans, termSpan{string(term), len(*r.buf) - len(ps), len(*r.buf)})
		})
		if r.err != nil {
			return
		}
	}
}

// segmentGroups cuts segments (oldest first) into at most n runs of
// consecutive segments with about as many leaf pages each; one run when
// there is little to share.
func segmentGroups(segs []Segment, n int) [][]Segment {
	total := 0
	for _, s := range segs {
		total += s.Last - s.First + 1
	}
	n = min(n, len(segs), 4)
	if n < 2 || total < parallelPages {
		return [][]Segment{segs}
	}
	var out [][]Segment
	from, acc := 0, 0
	for i, s := range segs {
		acc += s.Last - s.First + 1
		if len(out) < n-1 && acc >= total*(len(out)+1)/n && i+1 < len(segs) {
			out = append(out, segs[from:i+1])
			from = i + 1
		}
	}
	return append(out, segs[from:])
}

// parallelPages is how many leaf pages make an index worth reading on
// several cores. Variable so tests can split small ones.
var parallelPages = 64

// lockedSource lets several goroutines read one connection, one at a time.
type lockedSource struct {
	mu  sync.Mutex
	src Source
}

func (l *lockedSource) Block(id int64) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.Block(id)
}

func (l *lockedSource) SeekPage(segid int, term []byte) (int, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.SeekPage(segid, term)
}

func (l *lockedSource) NextPage(segid int, term []byte) (int, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.NextPage(segid, term)
}

// Decoding buffers kept between queries. Not a sync.Pool: a pool is
// emptied by every garbage collection, and a common word's doclist is
// exactly what makes collections frequent, so it would grow the buffer
// anew for each query. maxScratchKept are kept, of at most maxScratch rows
// (16 MB) each: more at once, or a doclist longer than that, allocates its own.
var (
	scratchMu sync.Mutex
	scratch   []*[]Posting
)

const maxScratch = 1 << 20

// maxScratchKept is how many decoding buffers are kept: one per goroutine
// of a PostingsOf on two cores.
const maxScratchKept = 2

func getScratch() *[]Posting {
	scratchMu.Lock()
	defer scratchMu.Unlock()
	if n := len(scratch); n > 0 {
		b := scratch[n-1]
		scratch = scratch[:n-1]
		*b = (*b)[:0]
		return b
	}
	return new([]Posting)
}

// Position lists kept between queries, like the decoding buffers: a
// phrase's doclists are read with their positions, used once to find the
// phrase, and given back (Doclist.Release). Two are kept (a phrase reads
// two or more lists), of at most maxArena bytes each.
var (
	arenaMu sync.Mutex
	arenas  []lists
)

const maxArena = 64 << 20

func getLists() lists {
	arenaMu.Lock()
	defer arenaMu.Unlock()
	if n := len(arenas); n > 0 {
		l := arenas[n-1]
		arenas = arenas[:n-1]
		return lists{arena: l.arena[:0], spans: l.spans[:0]}
	}
	return lists{arena: make([]byte, 0, 4096)}
}

// Release gives d's position lists back for a later read: after it, d.Pos
// returns nil, and no slice it returned before may be used.
func (d *Doclist) Release() {
	l := d.lists
	d.lists = lists{}
	if cap(l.arena) == 0 || cap(l.arena) > maxArena {
		return
	}
	arenaMu.Lock()
	defer arenaMu.Unlock()
	if len(arenas) < 2 {
		arenas = append(arenas, l)
	}
}

func putScratch(b *[]Posting) {
	scratchMu.Lock()
	defer scratchMu.Unlock()
	if len(scratch) < maxScratchKept && cap(*b) <= maxScratch {
		scratch = append(scratch, b)
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
