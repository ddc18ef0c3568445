package recall

import (
	"encoding/binary"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// folded is a lower-cased copy of a text plus sparse checkpoints that map
// between byte offsets in the copy, byte offsets in the original and rune
// (character) offsets, which the two share: lower-casing maps every rune to
// exactly one rune, but may change its UTF-8 length (U+023A is 2 bytes, its
// lower case 3), so byte offsets alone cannot be carried across.
//
// Building it is one pass over the text, 8 ASCII bytes at a time (in
// parallel chunks for big texts); converting a position walks at most
// checkpointEvery bytes, so converting any number of positions never costs
// O(n) each.
type folded struct {
	orig  string
	low   []byte
	cps   []checkpoint
	runes int         // rune count of orig (and of low)
	freq  *[256]int32 // byte frequencies of a sample of low (see rarestByte)
}

// checkpoint is one aligned (rune boundary) point in orig and low.
type checkpoint struct{ orig, low, rune int }

// checkpointEvery is the spacing of checkpoints in bytes of orig: 10 MB of
// text costs 40k checkpoints (960 KB, pooled) and a conversion walks at
// most 256 bytes, which keeps dense match lists cheap to convert.
const checkpointEvery = 256

// foldText lower-cases s with checkpoints. invalid reports bytes that are
// not UTF-8 (each folded as itself); callers repair the text and fold again.
//
// The copy starts as s itself and is lower-cased in place (foldInPlace):
// most text is lower-case ASCII, so the loop mostly loads 8 bytes, sees no
// upper case and moves on. Big texts are folded in parallel chunks. Only a
// rune whose lower case has another UTF-8 length (rare: U+023A, the Kelvin
// sign, ...) makes the rest shift, which foldShifted then rewrites.
func foldText(s string) (f *folded, invalid bool) {
	n := len(s)
	buf, cps := getBufs(n)
	f = &folded{orig: s}
	if workers := min(runtime.GOMAXPROCS(0), maxFoldWorkers, n/parallelChunk); workers > 1 {
		if low, cps, runes, invalid, ok := foldParallel(s, buf, cps, workers); ok {
			f.low, f.cps, f.runes = low, cps, runes
			return f, invalid
		}
	}
	low := append(buf[:0], s...)
	cps, runes, invalid, stop := foldInPlace(s, low, 0, n, cps, 0)
	if stop < n {
		var inv bool
		low, cps, runes, inv = foldShifted(s, low, stop, cps, runes)
		invalid = invalid || inv
	}
	if len(cps) == 0 {
		cps = append(cps, checkpoint{})
	}
	f.low, f.cps, f.runes = low, cps, runes
	return f, invalid
}

// Parallel folding: chunks of at least parallelChunk bytes, on up to
// maxFoldWorkers goroutines.
const (
	parallelChunk  = 2 << 20
	maxFoldWorkers = 4
)

// foldParallel folds s in chunks on several goroutines, each copying and
// lower-casing its own part of one buffer. ok is false when a chunk met a
// rune whose lower case changes length; the caller then folds serially.
func foldParallel(s string, buf []byte, cps []checkpoint, workers int) (low []byte, _ []checkpoint, runes int, invalid, ok bool) {
	n := len(s)
	if cap(buf) >= n {
		low = buf[:n]
	} else {
		low = make([]byte, n)
	}
	bounds := make([]int, workers+1)
	for k := 1; k < workers; k++ {
		at := n * k / workers
		for at < n && !utf8.RuneStart(s[at]) { // chunks start on a rune
			at++
		}
		bounds[k] = at
	}
	bounds[workers] = n
	type part struct {
		cps     []checkpoint
		runes   int
		invalid bool
		stop    int
	}
	parts := make([]part, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, b := bounds[k], bounds[k+1]
			copy(low[a:b], s[a:b])
			p := &parts[k]
			p.cps, p.runes, p.invalid, p.stop = foldInPlace(s, low, a, b, make([]checkpoint, 0, (b-a)/checkpointEvery+1), 0)
		}()
	}
	wg.Wait()
	cps = cps[:0]
	for k, p := range parts {
		if p.stop < bounds[k+1] {
			return nil, nil, 0, false, false
		}
		for _, cp := range p.cps {
			cp.rune += runes
			cps = append(cps, cp)
		}
		runes += p.runes
		invalid = invalid || p.invalid
	}
	return low, cps, runes, invalid, true
}

// foldInPlace lower-cases s[i:end] into low[i:end], which holds a copy of
// it, appending a checkpoint every checkpointEvery bytes; runes is the rune
// count before i. It stops early, returning where, at a rune whose lower
// case has another UTF-8 length, since everything after it would shift.
func foldInPlace(s string, low []byte, i, end int, cps []checkpoint, runes int) (_ []checkpoint, _ int, invalid bool, stop int) {
	const hi = 0x8080808080808080
	// A read-only byte view of s, for 8-byte loads; s is never written.
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	next := i
	for i < end {
		if i >= next {
			cps = append(cps, checkpoint{orig: i, low: i, rune: runes})
			next = i + checkpointEvery
		}
		chunkEnd := min(end, next)
		for i+8 <= chunkEnd {
			w := binary.LittleEndian.Uint64(b[i:])
			if w&hi != 0 {
				break
			}
			if up := upperASCII8(w); up != 0 {
				binary.LittleEndian.PutUint64(low[i:], w|up>>2)
			}
			i, runes = i+8, runes+8
		}
		if i >= chunkEnd {
			continue
		}
		switch c := s[i]; {
		case c < utf8.RuneSelf:
			if 'A' <= c && c <= 'Z' {
				low[i] = c + 'a' - 'A'
			}
			i++
		case c == 0xC3 && i+1 < end && s[i+1]&0xC0 == 0x80:
			// Latin-1 letters U+00C0-U+00DE (but U+00D7 ×) lower by +0x20.
			if c2 := s[i+1]; c2 <= 0x9E && c2 != 0x97 {
				low[i+1] = c2 + 0x20
			}
			i += 2
		case (c >= 0xE3 && c <= 0xE9 || c == 0xEB || c == 0xEC) && i+2 < end &&
			s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80:
			// Three-byte sequences led by E3-E9 or EB-EC (U+3000-U+9FFF,
			// U+B000-U+CFFF: CJK, kana, Hangul) are caseless.
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(s[i:end])
			if r == utf8.RuneError && size == 1 {
				invalid = true
			}
			if lr := foldRune(r); lr != r {
				if utf8.RuneLen(lr) != size {
					return cps, runes, invalid, i
				}
				utf8.EncodeRune(low[i:], lr)
			}
			i += size
		}
		runes++
	}
	return cps, runes, invalid, i
}

// foldShifted finishes a fold from byte i of s, where a rune's lower case
// changed length: from there on the copy is rewritten rune by rune.
func foldShifted(s string, low []byte, i int, cps []checkpoint, runes int) (_ []byte, _ []checkpoint, _ int, invalid bool) {
	low = low[:i]
	next := i
	for i < len(s) {
		if i >= next {
			cps = append(cps, checkpoint{orig: i, low: len(low), rune: runes})
			next = i + checkpointEvery
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			invalid = true
			low = append(low, s[i])
		} else {
			low = utf8.AppendRune(low, foldRune(r))
		}
		i += size
		runes++
	}
	return low, cps, runes, invalid
}

// bufPool recycles the buffers of big folds (*foldBufs): a 10 MB transcript
// would otherwise allocate and page-fault in 10 MB of copy and 240 KB of
// checkpoints per call, and the collector's work to reclaim them costs about
// as much as the folding.
var bufPool sync.Pool

type foldBufs struct {
	low []byte
	cps []checkpoint
}

// poolMin is the smallest text whose buffers are pooled: below it,
// allocating is cheap, and a query's fold must not take a transcript's buffers.
const poolMin = 1 << 20

// getBufs returns empty buffers for a text of n bytes, pooled ones when they are big enough.
func getBufs(n int) ([]byte, []checkpoint) {
	ncp := n/checkpointEvery + 1
	if n >= poolMin {
		if b, ok := bufPool.Get().(*foldBufs); ok && cap(b.low) >= n && cap(b.cps) >= ncp {
			return b.low[:0], b.cps[:0]
		}
		return nil, make([]checkpoint, 0, ncp)
	}
	return nil, make([]checkpoint, 0, ncp)
}

// release returns f's buffers to the pool; f must not be used afterwards.
func (f *folded) release() {
	if cap(f.low) >= poolMin {
		bufPool.Put(&foldBufs{low: f.low[:0], cps: f.cps[:0]})
	}
	f.low, f.cps = nil, nil
}

// foldString lower-cases a short string (a query) exactly as foldText does.
func foldString(s string) string {
	f, _ := foldText(s)
	return string(f.low) // a copy: small strings never come from the pool
}

// foldRune lower-cases one non-ASCII rune. The CJK, kana and Hangul blocks
// have no case; skipping unicode.ToLower's table search for them keeps CJK
// text as fast as ASCII (TestFoldRuneCaseless pins that the ranges are caseless).
func foldRune(r rune) rune {
	if (r >= 0x2E80 && r < 0xA640) || (r >= 0xAC00 && r < 0xD800) {
		return r
	}
	return unicode.ToLower(r)
}

// upperASCII8 returns, for 8 ASCII bytes packed in w (SWAR), 0x80 in each
// byte that lies in 'A'..'Z' and 0 elsewhere; w | upperASCII8(w)>>2 is w
// lower-cased.
func upperASCII8(w uint64) uint64 {
	const ones = 0x0101010101010101
	geA := w + ones*(0x80-'A')   // high bit set where byte >= 'A'
	gtZ := w + ones*(0x80-'Z'-1) // high bit set where byte > 'Z'
	return (geA &^ gtZ) & (ones * 0x80)
}

// cpByRune returns the last checkpoint at or before rune index r.
func (f *folded) cpByRune(r int) checkpoint {
	k := sort.Search(len(f.cps), func(i int) bool { return f.cps[i].rune > r })
	return f.cps[k-1]
}

// runeCursor converts ascending byte offsets of low to rune offsets. It
// walks the checkpoints forward with the positions: in a chunk that is all
// ASCII (as many runes as bytes between two checkpoints) a rune offset is
// arithmetic; in another it is counted from the previous position or the
// chunk's start, so no conversion walks more than checkpointEvery bytes and
// a whole list costs at most one pass over the chunks it touches.
type runeCursor struct {
	f              *folded
	k              int // checkpoint of the chunk holding lowPos
	lowPos, runeAt int // the last conversion
}

// cursorAt returns a cursor for positions from byte p of low on.
func (f *folded) cursorAt(p int) runeCursor {
	k := sort.Search(len(f.cps), func(i int) bool { return f.cps[i].low > p }) - 1
	k = max(k, 0)
	return runeCursor{f: f, k: k, lowPos: f.cps[k].low, runeAt: f.cps[k].rune}
}

func (c *runeCursor) runeOf(p int) int {
	cps := c.f.cps
	if p < c.lowPos { // not ascending: start over
		*c = runeCursor{f: c.f}
	}
	moved := false
	for c.k+1 < len(cps) && cps[c.k+1].low <= p {
		c.k++
		moved = true
	}
	cp := cps[c.k]
	if moved || c.lowPos < cp.low {
		c.lowPos, c.runeAt = cp.low, cp.rune
	}
	nextLow, nextRune := len(c.f.low), c.f.runes
	if c.k+1 < len(cps) {
		nextLow, nextRune = cps[c.k+1].low, cps[c.k+1].rune
	}
	if nextLow-cp.low == nextRune-cp.rune { // an ASCII chunk
		c.runeAt = cp.rune + (p - cp.low)
	} else {
		c.runeAt += runeCount(c.f.low[c.lowPos:p])
	}
	c.lowPos = p
	return c.runeAt
}

// byteOfRune returns the byte offset in orig of rune index r (len(orig) for r >= runes).
func (f *folded) byteOfRune(r int) int {
	if r >= f.runes {
		return len(f.orig)
	}
	if r <= 0 {
		return 0
	}
	cp := f.cpByRune(r)
	i := cp.orig
	for n := cp.rune; n < r; n++ {
		if f.orig[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(f.orig[i:])
		i += size
	}
	return i
}

// runeCount counts the runes of valid UTF-8 as bytes minus continuation
// bytes (10xxxxxx), 8 bytes at a time: several times faster than
// utf8.RuneCount, which decodes.
func runeCount(b []byte) int {
	cont, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		cont += bits.OnesCount64(w &^ (w << 1) & 0x8080808080808080)
	}
	for ; i < len(b); i++ {
		if b[i]&0xC0 == 0x80 {
			cont++
		}
	}
	return len(b) - cont
}
