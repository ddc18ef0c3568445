package termtext

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
)

// Wrap breaks one line of text, which may carry SGR styling and the snippet
// highlight markers, into lines of at most width cells. It breaks where the
// Unicode line-breaking rules (UAX #14, via uniseg) allow: after spaces and
// hyphens, and between any two CJK characters (never before a closing
// bracket or an ideographic full stop), so Chinese and Japanese fill their
// lines instead of being cut. A word wider than the line is split between
// characters. Every continuation line starts with indent (a hanging indent:
// a list item's text, a quote's bar, a code line's indentation), and
// carries on the styling and the highlight that were open where it broke,
// so each returned line stands on its own. Text is only ever moved, never
// dropped: the spaces a break replaces are the only cells that go.
//
// A newline in s starts a new line (without indent). An indent wider than
// half the line is ignored, so deep indentation cannot squeeze the text into
// a column of single characters.
func Wrap(s string, width int, indent string) []string {
	if strings.IndexByte(s, '\n') >= 0 {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			out = append(out, Wrap(l, width, indent)...)
		}
		return out
	}
	if width < 1 {
		width = 1
	}
	if plainWidth(s) <= width {
		return []string{s}
	}
	indentW := Width(indent)
	if indentW > width/2 {
		indent, indentW = "", 0
	}
	w := wrapper{width: width, indent: indent, indentW: indentW}
	for _, seg := range segments(s) {
		w.add(seg)
	}
	return w.finish()
}

// plainWidth is Width not counting the highlight markers (which take no cell
// once the pane styles them).
func plainWidth(s string) int {
	if !strings.ContainsRune(s, MarkStart) && !strings.ContainsRune(s, MarkEnd) {
		return Width(s)
	}
	return Width(strings.NewReplacer(string(MarkStart), "", string(MarkEnd), "").Replace(s))
}

// token is one piece of a line: a grapheme cluster with its width, or a
// zero-width escape sequence or highlight marker.
type token struct {
	s     string
	w     int
	kind  tokenKind
	space bool // a whitespace cluster
}

type tokenKind uint8

const (
	tokText tokenKind = iota
	tokSGR            // a Select Graphic Rendition sequence (colours, bold, ...)
	tokEsc            // any other escape sequence: kept, never replayed
	tokMarkStart
	tokMarkEnd
)

// segment is the run of tokens between two break opportunities.
type segment struct {
	toks  []token
	w     int // cells, trailing spaces included
	trail int // cells of trailing spaces
}

// segments cuts s at its line-break opportunities. Breaks are found on the
// printable text alone (escapes and markers removed), then mapped back.
func segments(s string) []segment {
	toks, plain := tokenize(s)
	breaks := map[int]bool{}
	off := 0
	for rest, state := plain, -1; rest != ""; {
		var seg string
		seg, rest, _, state = uniseg.FirstLineSegmentInString(rest, state)
		off += len(seg)
		if !wordInitialHyphens(seg) {
			breaks[off] = true
		}
	}
	var out []segment
	cur := segment{}
	pos := 0 // byte offset into plain
	for _, t := range toks {
		if t.kind == tokText {
			if pos > 0 && breaks[pos] && len(cur.toks) > 0 {
				out = append(out, cur)
				cur = segment{}
			}
			pos += len(t.s)
			cur.w += t.w
			if t.space {
				cur.trail += t.w
			} else {
				cur.trail = 0
			}
		}
		cur.toks = append(cur.toks, t)
	}
	if len(cur.toks) > 0 {
		out = append(out, cur)
	}
	return out
}

// wordInitialHyphens reports whether a line segment is only hyphens: the
// start of a command-line flag ("--network"), which must not be cut from its
// word (the word-initial hyphen rule of Unicode 15.1's UAX #14, which uniseg
// predates).
func wordInitialHyphens(seg string) bool {
	return seg != "" && strings.Trim(seg, "-") == ""
}

// tokenize splits s into tokens and returns the printable text for the
// line-break rules.
func tokenize(s string) ([]token, string) {
	toks := make([]token, 0, len(s))
	var plain strings.Builder
	plain.Grow(len(s))
	var state byte
	for len(s) > 0 {
		if r, size := utf8.DecodeRuneInString(s); r == MarkStart || r == MarkEnd {
			kind := tokMarkStart
			if r == MarkEnd {
				kind = tokMarkEnd
			}
			toks = append(toks, token{s: s[:size], kind: kind})
			s = s[size:]
			continue
		}
		seq, w, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		if n == 0 {
			break
		}
		switch {
		case seq[0] == 0x1b && len(seq) > 2 && seq[1] == '[' && seq[len(seq)-1] == 'm':
			toks = append(toks, token{s: seq, kind: tokSGR})
		case seq[0] == 0x1b || (w == 0 && len(seq) == 1 && seq[0] < 0x20):
			toks = append(toks, token{s: seq, kind: tokEsc})
		default:
			toks = append(toks, token{s: seq, w: w, space: seq == " " || seq == "\u3000"})
			plain.WriteString(seq)
		}
		s = s[n:]
	}
	return toks, plain.String()
}

// wrapper lays segments out into lines.
type wrapper struct {
	width, indentW int
	indent         string
	lines          []string
	line           []token
	cur            int      // cells on the current line
	content        bool     // the current line holds text beyond its indent
	sgr            []string // SGR sequences in effect (since the last reset)
	marked         bool     // inside a highlight
	// what was in effect when the current line started, replayed on it
	startSGR    []string
	startMarked bool
}

func (w *wrapper) add(seg segment) {
	fits := w.cur+seg.w-seg.trail <= w.width
	if !fits && w.content {
		w.newline()
		fits = w.cur+seg.w-seg.trail <= w.width
	}
	if fits {
		for _, t := range seg.toks {
			w.push(t)
		}
		return
	}
	// A word wider than the whole line: split it between characters.
	for _, t := range seg.toks {
		if t.kind == tokText && w.cur+t.w > w.width && w.content && !t.space {
			w.newline()
		}
		w.push(t)
	}
}

func (w *wrapper) push(t token) {
	switch t.kind {
	case tokText:
		if t.space && !w.content && len(w.lines) > 0 {
			return // no leading space on a continuation line
		}
		w.cur += t.w
		if !t.space {
			w.content = true
		}
	case tokSGR:
		if isReset(t.s) {
			w.sgr = w.sgr[:0]
		} else {
			w.sgr = append(w.sgr, t.s)
		}
	case tokMarkStart:
		w.marked = true
	case tokMarkEnd:
		w.marked = false
	}
	w.line = append(w.line, t)
}

// newline ends the current line: trailing spaces go, open styling and
// highlight are closed, and reopened after the indent of the next line.
func (w *wrapper) newline() {
	w.emit()
	w.startSGR = append(w.startSGR[:0], w.sgr...)
	w.startMarked = w.marked
	w.line = w.line[:0]
	w.cur, w.content = w.indentW, false
}

func (w *wrapper) emit() {
	end := len(w.line)
	for i := end - 1; i >= 0; i-- { // trailing spaces (escapes after them stay)
		if t := w.line[i]; t.kind == tokText {
			if !t.space {
				break
			}
			w.line = append(w.line[:i], w.line[i+1:]...)
		}
	}
	var b strings.Builder
	if len(w.lines) > 0 {
		b.WriteString(w.indent)
		for _, s := range w.startSGR {
			b.WriteString(s)
		}
		if w.startMarked {
			b.WriteRune(MarkStart)
		}
	}
	for _, t := range w.line {
		b.WriteString(t.s)
	}
	if w.marked {
		b.WriteRune(MarkEnd)
	}
	if len(w.sgr) > 0 {
		b.WriteString("\x1b[0m")
	}
	w.lines = append(w.lines, b.String())
}

func (w *wrapper) finish() []string {
	if len(w.line) > 0 || len(w.lines) == 0 {
		// The last line ends as the source does: nothing to close for a
		// line that follows it.
		w.marked, w.sgr = false, nil
		w.emit()
	}
	return w.lines
}

// isReset reports whether an SGR sequence resets every attribute.
func isReset(seq string) bool { return seq == "\x1b[0m" || seq == "\x1b[m" }
