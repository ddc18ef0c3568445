package recall

import (
	"bytes"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// Markers added where a transcript window was cut (Hermes's text).
const (
	earlierMarker = "...[earlier conversation truncated]...\n\n"
	laterMarker   = "\n\n...[later conversation truncated]..."
)

// cooccurWindow is how close (in characters) every other term must be to an
// occurrence of the rarest term for it to count as a co-occurrence.
const cooccurWindow = 200

// window is where a transcript is cut: rune offsets [start, end) of text,
// which has total runes. Byte offsets are kept to slice without re-walking.
type window struct {
	text               string
	start, end, total  int
	startByte, endByte int
}

// cut reports whether the window leaves part of the text out.
func (w window) cut() bool { return w.start > 0 || w.end < w.total }

// render returns the window's text, with the truncation markers where it was cut.
func (w window) render() string {
	if !w.cut() {
		return w.text
	}
	var b strings.Builder
	b.Grow(w.endByte - w.startByte + len(earlierMarker) + len(laterMarker))
	if w.start > 0 {
		b.WriteString(earlierMarker)
	}
	b.WriteString(w.text[w.startByte:w.endByte])
	if w.end < w.total {
		b.WriteString(laterMarker)
	}
	return b.String()
}

// matchWindow chooses where to cut text to at most maxChars characters
// (runes) around the matches of terms (windowTerms of the query): Hermes's
// _truncate_around_matches, measured in characters instead of bytes:
//
//  1. every occurrence of the terms as one phrase;
//  2. else, with several terms, each occurrence of the rarest term that has
//     every other term within 200 characters;
//  3. else every occurrence of every term.
//
// Among windows that start a quarter of the budget before a match position,
// it keeps the first one covering the most positions; render marks the cut
// ends. Matching is case-insensitive (Unicode lower case). Invalid UTF-8 is
// replaced first, so the output is always valid UTF-8 and never splits a
// character.
func matchWindow(text string, terms []string, maxChars int) window {
	if maxChars <= 0 {
		maxChars = DefaultBudget
	}
	if len(text) <= maxChars { // bytes >= runes: certainly within budget
		if !utf8.ValidString(text) {
			text = strings.ToValidUTF8(text, "\uFFFD")
		}
		n := utf8.RuneCountInString(text)
		return window{text: text, end: n, total: n, endByte: len(text)}
	}
	f, invalid := foldText(text)
	if invalid {
		f.release()
		text = strings.ToValidUTF8(text, "\uFFFD")
		f, _ = foldText(text)
	}
	defer f.release()
	if f.runes <= maxChars {
		return window{text: text, end: f.runes, total: f.runes, endByte: len(text)}
	}
	positions := matchPositions(f, terms)
	start := 0
	if len(positions) > 0 {
		start = bestWindowStart(positions, f.runes, maxChars)
	}
	end := min(f.runes, start+maxChars)
	return window{text: text, start: start, end: end, total: f.runes,
		startByte: f.byteOfRune(start), endByte: f.byteOfRune(end)}
}

// windowTerms are the words a transcript window is centred on: the
// positive words of the store's parse of the query (a NOT'd word is never a
// match, a column name or NEAR distance never a word), folded as the
// transcript is, each once.
func windowTerms(q store.Query) []string {
	var terms []string
	for _, w := range q.Words() {
		if f := foldString(w); f != "" && !slices.Contains(terms, f) {
			terms = append(terms, f)
		}
	}
	return terms
}

// matchPositions returns the sorted rune offsets of the matches, by the
// three strategies in order (phrase, co-occurrence, any term).
func matchPositions(f *folded, terms []string) []int {
	if len(terms) == 0 {
		return nil
	}
	phrase := strings.Join(terms, " ")
	if len(terms) == 1 { // the phrase is the term: strategies (a) and (c) agree
		return occurrences(f, []string{phrase})[0].runes
	}
	// Every phrase match starts with a match of the first term; when that
	// term cannot overlap itself its scan finds them all, so the phrase is
	// checked there instead of being searched for too. The other terms are
	// only searched (in one pass) when there is no phrase match.
	first := []string{terms[0]}
	if hasBorder(terms[0]) {
		first = append(first, phrase)
	}
	occ := occurrences(f, first)
	var pos []int
	if len(occ) > 1 {
		pos = occ[1].runes
	} else {
		end := 0
		for i, p := range occ[0].bytes {
			if p >= end && bytes.HasPrefix(f.low[p:], []byte(phrase)) {
				pos = append(pos, occ[0].runes[i])
				end = p + len(phrase)
			}
		}
	}
	if len(pos) > 0 {
		return pos
	}
	all := make([][]int, len(terms))
	all[0] = occ[0].runes
	for i, m := range occurrences(f, terms[1:]) {
		all[i+1] = m.runes
	}
	rarest := 0
	for i := range all {
		if len(all[i]) < len(all[rarest]) {
			rarest = i
		}
	}
	for _, p := range all[rarest] {
		if cooccurs(p, rarest, all) {
			pos = append(pos, p)
		}
	}
	if len(pos) > 0 {
		return pos
	}
	return mergeSorted(all)
}

// hasBorder reports whether a proper prefix of t is also its suffix, so
// that two matches of t can overlap ("aa" in "aaa").
func hasBorder(t string) bool {
	for k := 1; k < len(t); k++ {
		if t[:k] == t[len(t)-k:] {
			return true
		}
	}
	return false
}

// cooccurs reports whether every term but skip has a position closer than
// cooccurWindow characters to p.
func cooccurs(p, skip int, all [][]int) bool {
	for i, ps := range all {
		if i == skip {
			continue
		}
		k := sort.SearchInts(ps, p)
		near := (k < len(ps) && ps[k]-p < cooccurWindow) || (k > 0 && p-ps[k-1] < cooccurWindow)
		if !near {
			return false
		}
	}
	return true
}

// matches are one pattern's non-overlapping occurrences, ascending, as
// Python's re.finditer finds them: byte offsets in f.low and rune offsets.
type matches struct{ bytes, runes []int }

// scanBlock is how much text occurrences searches for every pattern before
// moving on, so that the text is read from memory once (and its rune
// offsets counted while it is in cache) however many patterns there are.
const scanBlock = 64 << 10

// occurrences finds every pattern (already folded) in f in one pass; big
// texts are searched in parallel chunks, as they were folded.
func occurrences(f *folded, pats []string) []matches {
	ps := make([][]byte, len(pats))
	anchors := make([]int, len(pats)) // computed here: rarestByte's sample is built lazily
	for i, p := range pats {
		ps[i] = []byte(p)
		if p != "" {
			anchors[i] = f.rarestByte(ps[i])
		}
	}
	workers := min(runtime.GOMAXPROCS(0), maxFoldWorkers, len(f.low)/parallelChunk)
	if workers <= 1 {
		return f.occurrencesIn(ps, anchors, make([]int, len(ps)), len(f.low))
	}
	bounds := make([]int, workers+1)
	for k := 1; k < workers; k++ {
		at := len(f.low) * k / workers
		for at < len(f.low) && !utf8.RuneStart(f.low[at]) {
			at++
		}
		bounds[k] = at
	}
	bounds[workers] = len(f.low)
	parts := make([][]matches, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			starts := make([]int, len(ps))
			for i := range starts {
				starts[i] = bounds[k]
			}
			parts[k] = f.occurrencesIn(ps, anchors, starts, bounds[k+1])
		}()
	}
	wg.Wait()
	// Join the chunks. A chunk's search started at its first byte; when the
	// previous chunk's last match runs past it (only a pattern that can
	// overlap itself makes that matter) the chunk is searched again from
	// that match's end, as one serial pass would have.
	out := parts[0]
	for k := 1; k < workers; k++ {
		for i, p := range ps {
			next := parts[k][i]
			if n := len(out[i].bytes); n > 0 && len(next.bytes) > 0 && next.bytes[0] < out[i].bytes[n-1]+len(p) {
				next = f.occurrencesIn(ps[i:i+1], anchors[i:i+1], []int{out[i].bytes[n-1] + len(p)}, bounds[k+1])[0]
			}
			out[i].bytes = append(out[i].bytes, next.bytes...)
			out[i].runes = append(out[i].runes, next.runes...)
		}
	}
	return out
}

// occurrencesIn finds the occurrences of each pattern ps[i] that start in
// [starts[i], limit), block by block, scanning for its byte anchor[i].
func (f *folded) occurrencesIn(ps [][]byte, anchor, starts []int, limit int) []matches {
	out := make([]matches, len(ps))
	cursors := make([]runeCursor, len(ps))
	for i := range ps {
		cursors[i] = f.cursorAt(starts[i])
	}
	first := slices.Min(starts)
	for block := first; block < limit; block += scanBlock {
		end := min(limit, block+scanBlock)
		for i, p := range ps {
			if len(p) == 0 || starts[i] >= end {
				continue
			}
			n := len(out[i].bytes)
			out[i].bytes, starts[i] = f.scan(p, anchor[i], starts[i], end, out[i].bytes)
			for _, b := range out[i].bytes[n:] {
				out[i].runes = append(out[i].runes, cursors[i].runeOf(b))
			}
		}
	}
	return out
}

// scan appends to out the occurrences of p that start in [from, limit) and
// returns where the next search may start. It looks for the pattern's
// rarest byte (anchor, by a sample of the text) rather than its first:
// bytes.Index anchors on the first byte, which for a pattern starting with
// a common letter means a call every few bytes.
func (f *folded) scan(p []byte, anchor, from, limit int, out []int) ([]int, int) {
	last := min(limit, len(f.low)-len(p)+1) // candidate starts are < last
	for from < last {
		o := bytes.IndexByte(f.low[from+anchor:last+anchor], p[anchor])
		if o < 0 {
			return out, last
		}
		at := from + o
		if bytes.Equal(f.low[at:at+len(p)], p) {
			out = append(out, at)
			from = at + len(p)
			continue
		}
		from = at + 1
	}
	return out, from
}

// rarestByte returns the index in p of the byte least frequent in a sample
// of f's text (the first on ties).
func (f *folded) rarestByte(p []byte) int {
	if len(p) == 1 {
		return 0
	}
	if f.freq == nil {
		f.freq = new([256]int32)
		const chunks, chunk = 32, 2048
		step := max(chunk, len(f.low)/chunks)
		for at := 0; at < len(f.low); at += step {
			for _, c := range f.low[at:min(len(f.low), at+chunk)] {
				f.freq[c]++
			}
		}
	}
	best := 0
	for i, c := range p {
		if f.freq[c] < f.freq[p[best]] {
			best = i
		}
	}
	return best
}

// mergeSorted merges ascending lists into one ascending list, pairwise, in
// O(n log k) rather than sorting the concatenation.
func mergeSorted(lists [][]int) []int {
	for len(lists) > 1 {
		next := make([][]int, 0, (len(lists)+1)/2)
		for i := 0; i < len(lists); i += 2 {
			if i+1 == len(lists) {
				next = append(next, lists[i])
				break
			}
			a, b := lists[i], lists[i+1]
			m := make([]int, 0, len(a)+len(b))
			for len(a) > 0 && len(b) > 0 {
				if a[0] <= b[0] {
					m, a = append(m, a[0]), a[1:]
				} else {
					m, b = append(m, b[0]), b[1:]
				}
			}
			next = append(next, append(append(m, a...), b...))
		}
		lists = next
	}
	if len(lists) == 0 {
		return nil
	}
	return lists[0]
}

// bestWindowStart returns the start (rune offset) of the first window of
// maxChars covering the most positions, each candidate window starting a
// quarter of the budget before a position and shifted back to end at the
// text's end when it would run past it. Both window bounds only move forward
// as the candidates ascend, so two cursors count in O(len(positions)).
func bestWindowStart(positions []int, total, maxChars int) int {
	bestStart, bestCount := 0, 0
	lo, hi := 0, 0
	for _, c := range positions {
		ws := max(0, c-maxChars/4)
		if ws+maxChars > total {
			ws = max(0, total-maxChars)
		}
		we := ws + maxChars
		for lo < len(positions) && positions[lo] < ws {
			lo++
		}
		if hi < lo {
			hi = lo
		}
		for hi < len(positions) && positions[hi] < we {
			hi++
		}
		if count := hi - lo; count > bestCount {
			bestCount, bestStart = count, ws
		}
	}
	return bestStart
}
