package secrets

import (
	"strings"

	"github.com/recall-dev/recall/store"
)

// Within returns part, a piece cut from one of wholes (a search snippet,
// a preview, a quoted line), with every secret of the whole that it shows
// replaced, in full or in part: a key the cut left half of is found in the
// whole text, where the rules can see it, and its half is taken out of the
// part. The store's highlight markers in part are kept balanced.
func Within(part string, wholes ...string) string {
	if len(part) == 0 {
		return part
	}
	plain, at := stripMarks(part)
	spans := cached(plain).spans // what the part shows whole
	core, coreAt := trimCut(plain)
	verbatim := false
	for _, w := range wholes {
		if len(w) < minSecret || core == "" {
			continue
		}
		r := cached(w)
		if len(r.spans) == 0 {
			continue
		}
		if i := strings.Index(w, core); i >= 0 {
			// The part is a verbatim cut of w: its secrets are w's spans
			// that overlap the cut.
			verbatim = true
			for _, sp := range r.spans {
				a, b := max(sp.start, i), min(sp.end, i+len(core))
				if a < b {
					spans = append(spans, span{coreAt + a - i, coreAt + b - i, sp.rule})
				}
			}
			continue
		}
		// Not verbatim (decoded, cut differently): look for each secret, and
		// for a piece of one at either edge of the part.
		for _, f := range r.findings {
			spans = appendOccurrences(spans, plain, nil, f)
			if n := overlapEnd(core, f.secret); n > 0 {
				spans = append(spans, span{coreAt + len(core) - n, coreAt + len(core), f.rule})
			}
			if n := overlapStart(core, f.secret); n > 0 {
				spans = append(spans, span{coreAt, coreAt + n, f.rule})
			}
		}
	}
	if !verbatim && core != "" {
		// No whole to read the cut key in (see cut.go): judge the cut edges.
		for _, sp := range edgeSpans(core, strings.Contains(plain[:coreAt], "…"), strings.Contains(plain[coreAt+len(core):], "…")) {
			spans = append(spans, span{coreAt + sp.start, coreAt + sp.end, sp.rule})
		}
	}
	if len(spans) == 0 {
		return part
	}
	return replaceMarked(part, at, mergeSpans(spans))
}

// minPiece is the shortest piece of a secret at a part's edge taken out:
// shorter ones are as likely an ordinary word's end.
const minPiece = 4

// overlapEnd is the length of the longest prefix of secret that core ends
// with (the part cut the secret after it), 0 below minPiece.
func overlapEnd(core, secret string) int {
	for n := min(len(core), len(secret)-1); n >= minPiece; n-- {
		if strings.HasSuffix(core, secret[:n]) {
			return n
		}
	}
	return 0
}

// overlapStart is the length of the longest suffix of secret that core
// starts with (the part cut the secret before it), 0 below minPiece.
func overlapStart(core, secret string) int {
	for n := min(len(core), len(secret)-1); n >= minPiece; n-- {
		if strings.HasPrefix(core, secret[len(secret)-n:]) {
			return n
		}
	}
	return 0
}

// stripMarks returns s without the store's highlight markers, and for each
// byte of it (and its end) the offset of that byte in s.
func stripMarks(s string) (string, []int) {
	if !strings.Contains(s, store.HighlightStart) && !strings.Contains(s, store.HighlightEnd) {
		return s, nil
	}
	var b strings.Builder
	at := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], store.HighlightStart):
			i += len(store.HighlightStart)
		case strings.HasPrefix(s[i:], store.HighlightEnd):
			i += len(store.HighlightEnd)
		default:
			b.WriteByte(s[i])
			at = append(at, i)
			i++
		}
	}
	return b.String(), append(at, len(s))
}

// trimCut strips the ellipses and spaces a cut leaves at either end; the
// rest is what the whole holds verbatim, starting at byte off of s.
func trimCut(s string) (core string, off int) {
	core = strings.TrimLeft(s, " \t\n…")
	off = len(s) - len(core)
	return strings.TrimRight(core, " \t\n…"), off
}

// replaceMarked replaces spans of the unmarked text (mapped into s by at,
// nil when s has no markers) with their Marks. Markers inside a span go
// with it; a highlight open at a span's start is closed before the Mark
// and one open at its end is opened again after it, so highlights stay
// balanced and never cover a Mark.
func replaceMarked(s string, at []int, spans []span) string {
	if at == nil {
		return replaceSpans(s, spans)
	}
	var b strings.Builder
	prev := 0
	open := false
	for _, sp := range spans {
		a, z := at[sp.start], at[sp.end-1]+1
		open = openAfter(s[prev:a], open)
		b.WriteString(s[prev:a])
		if open {
			b.WriteString(store.HighlightEnd)
		}
		b.WriteString(Mark(sp.rule))
		if open = openAfter(s[a:z], open); open {
			b.WriteString(store.HighlightStart)
		}
		prev = z
	}
	b.WriteString(s[prev:])
	return b.String()
}

// openAfter is whether a highlight is open after s, given whether one was
// open before it.
func openAfter(s string, open bool) bool {
	for {
		i, j := strings.Index(s, store.HighlightStart), strings.Index(s, store.HighlightEnd)
		switch {
		case i < 0 && j < 0:
			return open
		case j < 0 || i >= 0 && i < j:
			open, s = true, s[i+len(store.HighlightStart):]
		default:
			open, s = false, s[j+len(store.HighlightEnd):]
		}
	}
}
