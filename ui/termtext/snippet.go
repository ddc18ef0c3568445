package termtext

import (
	"strings"

	"github.com/rivo/uniseg"
)

// AroundHit cuts a snippet marked with MarkStart/MarkEnd to at most w cells
// (the markers take none) so that its first hit shows: when the text before
// the hit takes more than a third of the line, it is cut to a quarter of it
// behind a leading "…"; what does not fit after is cut behind a trailing
// "…"; a hit longer than the line is cut too, and its marker closed. Wide
// characters count two cells and are never split. A cut can never leave a
// marker unbalanced (">>>stripe<‹…" printed half a closing mark).
func AroundHit(s string, w int) string {
	if w < 2 || plainWidth(s) <= w {
		if w < 2 {
			return Truncate(s, max(w, 0))
		}
		return s
	}
	type cell struct {
		s   string
		w   int
		hit bool
	}
	var cells []cell
	in, first := false, -1
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		c := g.Str()
		switch {
		case c == string(MarkStart):
			in = true
			continue
		case c == string(MarkEnd):
			in = false
			continue
		}
		if in && first < 0 {
			first = len(cells)
		}
		cells = append(cells, cell{s: c, w: uniseg.StringWidth(c), hit: in})
	}
	from := 0
	if first > 0 {
		pre := 0
		for _, c := range cells[:first] {
			pre += c.w
		}
		if pre > w/3 {
			// Keep a quarter of the line of what comes before the hit.
			keep := 0
			from = first
			for from > 0 && keep+cells[from-1].w <= w/4 {
				from--
				keep += cells[from].w
			}
		}
	}
	var b strings.Builder
	used, open := 0, false
	if from > 0 {
		b.WriteString("…")
		used++
	}
	for i := from; i < len(cells); i++ {
		c := cells[i]
		rest := 0
		for _, r := range cells[i:] {
			rest += r.w
		}
		if used+rest > w && used+c.w > w-1 { // room for the trailing "…" only
			break
		}
		if c.hit != open {
			b.WriteRune(map[bool]rune{true: MarkStart, false: MarkEnd}[c.hit])
			open = c.hit
		}
		b.WriteString(c.s)
		used += c.w
		if i == len(cells)-1 {
			if open {
				b.WriteRune(MarkEnd)
			}
			return b.String()
		}
	}
	if open {
		b.WriteRune(MarkEnd)
	}
	return b.String() + "…"
}
