package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// Highlighting works in two steps. Before rendering, the query's terms are
// wrapped in the store's highlight markers (private-use runes that the
// sanitizer strips from stored text, so only ours exist), which survive
// Glamour and the wrapper as zero-width tokens. After wrapping, paintHits
// turns each line's markers into the hit style: the plain hit, or the
// current hit, which must stand out from the others. Painting is cheap, so
// moving the current hit repaints two messages' lines, never Glamour.

// hlTerm is one query term to highlight.
type hlTerm struct {
	text     string // as typed (case is folded when matching)
	prefix   bool   // matches the start of a word (a typed *, or the word still being typed)
	anywhere bool   // matches inside words too (an in-pane search, like less)
}

// highlightTerms wraps case-insensitive occurrences of terms in the
// highlight markers. A term matches where the store's index would match it:
// a CJK term anywhere (the trigram and bigram indexes match substrings),
// any other term as a whole word, or at a word's start when it is a prefix.
func highlightTerms(s string, terms []hlTerm) string {
	if len(terms) == 0 || s == "" {
		return s
	}
	low, orig := foldWithOffsets(s)
	type span struct{ a, b int }
	var spans []span
	for _, t := range terms {
		lt, _ := foldWithOffsets(t.text)
		if lt == "" {
			continue
		}
		anywhere := t.anywhere || hasCJK(lt)
		for i := 0; ; {
			j := strings.Index(low[i:], lt)
			if j < 0 {
				break
			}
			a, b := i+j, i+j+len(lt)
			i = a + max(1, utf8RuneLen(low[a:]))
			if !anywhere && (!wordEdge(low, a, -1) || (!t.prefix && !wordEdge(low, b, 1))) {
				continue
			}
			spans = append(spans, span{orig[a], orig[b]})
		}
	}
	if len(spans) == 0 {
		return s
	}
	// Sort and merge overlapping spans (terms may overlap: "data", "database").
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].a < spans[j-1].a; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	b.Grow(len(s) + 6*len(spans))
	pos := 0
	for i := 0; i < len(spans); i++ {
		a, e := spans[i].a, spans[i].b
		for i+1 < len(spans) && spans[i+1].a <= e {
			e = max(e, spans[i+1].b)
			i++
		}
		if a < pos {
			continue
		}
		b.WriteString(s[pos:a])
		b.WriteRune(termtext.MarkStart)
		b.WriteString(s[a:e])
		b.WriteRune(termtext.MarkEnd)
		pos = e
	}
	b.WriteString(s[pos:])
	return b.String()
}

func utf8RuneLen(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	return n
}

// wordEdge reports whether byte offset i of s is a word boundary on the
// given side: dir -1 looks at the rune before i, dir 1 at the rune at i.
func wordEdge(s string, i, dir int) bool {
	var r rune
	if dir < 0 {
		if i == 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	} else {
		if i >= len(s) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_') || isCJKRune(r)
}

// foldWithOffsets lower-cases s rune by rune and returns, for every byte
// offset of the folded text (and its end), the offset in s it came from:
// folding can change a character's byte length (İ, K), and a hit must mark
// the original text.
func foldWithOffsets(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	offs := make([]int, 0, len(s)+1)
	for i, r := range s {
		l := unicode.ToLower(r)
		n := utf8.RuneLen(l)
		if l == utf8.RuneError && r == utf8.RuneError {
			n = 1
		}
		for k := 0; k < n; k++ {
			offs = append(offs, i)
		}
		b.WriteRune(l)
	}
	offs = append(offs, len(s))
	return b.String(), offs
}

// hasCJK reports whether s holds a Han, kana or Hangul character.
func hasCJK(s string) bool {
	for _, r := range s {
		if isCJKRune(r) {
			return true
		}
	}
	return false
}

func isCJKRune(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// hlTermsOf turns the store's parse of a query into highlight terms: each
// positive term, a mixed-script one by its pieces; CJK pieces match
// anywhere (the trigram and bigram indexes match substrings), and a prefix
// term's last piece matches a word's start.
func hlTermsOf(q store.Query) []hlTerm {
	var out []hlTerm
	for _, t := range q.Terms {
		for i, p := range t.Pieces {
			if p.Text == "" {
				continue
			}
			out = append(out, hlTerm{text: p.Text, prefix: t.Prefix && i == len(t.Pieces)-1 && !p.CJK, anywhere: p.CJK})
		}
	}
	return out
}

// highlightTerms are the terms to highlight for a list row: the query as
// the search that found the row parsed it (the word being typed is a
// prefix there), else the query as typed (a row from browsing).
func (m *Model) highlightTerms(it Item) []hlTerm {
	if !it.Parsed.Empty() {
		return hlTermsOf(it.Parsed)
	}
	return hlTermsOf(store.ParseQuery(m.lastQuery))
}

// hitPaint is the styling of highlights, as SGR sequences taken from the
// styles (Styles.Hit and Styles.HitCurrent), so hits look the same in the
// list, in prose, in code and in the summary.
type hitPaint struct {
	on, current string
}

func newHitPaint(st *Styles) hitPaint {
	return hitPaint{on: sgrOf(st.Hit), current: sgrOf(st.HitCurrent)}
}

// sgrOf returns the escape sequence a style opens with.
func sgrOf(st interface{ Render(...string) string }) string {
	r := st.Render("x")
	if i := strings.IndexByte(r, 'x'); i > 0 {
		return r[:i]
	}
	return ""
}

// paintHits replaces a line's highlight markers with the hit style (the
// current-hit style when current). The style the renderer had in effect is
// restored after each hit by a reset and a replay of the SGR sequences since
// the last reset, and the hit style is re-applied after every sequence the
// renderer emits inside a hit, so a hit keeps its colours across Glamour's
// spans (a code span, a keyword in a code block) and the text after it
// keeps its own.
func paintHits(line string, p hitPaint, current bool) string {
	if !strings.ContainsRune(line, termtext.MarkStart) && !strings.ContainsRune(line, termtext.MarkEnd) {
		return line
	}
	on := p.on
	if current {
		on = p.current
	}
	var b strings.Builder
	b.Grow(len(line) + 32)
	var active []string
	inHit := false
	var state byte
	for s := line; len(s) > 0; {
		if r, size := utf8.DecodeRuneInString(s); r == termtext.MarkStart || r == termtext.MarkEnd {
			if r == termtext.MarkStart && !inHit {
				inHit = true
				b.WriteString(on)
			} else if r == termtext.MarkEnd && inHit {
				inHit = false
				b.WriteString("\x1b[0m")
				for _, a := range active {
					b.WriteString(a)
				}
			}
			s = s[size:]
			continue
		}
		seq, _, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		if n == 0 {
			break
		}
		b.WriteString(seq)
		if len(seq) > 2 && seq[0] == 0x1b && seq[1] == '[' && seq[len(seq)-1] == 'm' {
			if seq == "\x1b[0m" || seq == "\x1b[m" {
				active = active[:0]
			} else {
				active = append(active, seq)
			}
			if inHit {
				b.WriteString(on)
			}
		}
		s = s[n:]
	}
	if inHit {
		b.WriteString("\x1b[0m")
	}
	return b.String()
}
