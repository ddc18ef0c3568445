package secrets

import (
	"sort"
	"strings"
)

// span is a secret's place in a text: bytes [start, end), found by rule.
type span struct {
	start, end int
	rule       string
}

// result is a text's redaction: the text as it may be shown, where the
// secrets were, and what they were (as read, escapes decoded, so they can
// be looked for in other texts).
type result struct {
	text     string
	spans    []span    // merged, in the original's bytes
	findings []finding // distinct
}

// redact finds the secrets of s, as stored and as read, and replaces each
// with its Mark. Every finding is looked for wherever it occurs in s, so a
// key printed twice is replaced twice.
func redact(s string) result {
	if len(s) < minSecret {
		return result{text: s}
	}
	if err := Load(); err != nil {
		return result{text: unavailable, spans: []span{{0, len(s), "unavailable"}}}
	}
	fs := rules.detect(s)
	d, decodes := decodeEscapes(s)
	if decodes {
		fs = append(fs, rules.detect(d.text)...)
	}
	if len(fs) == 0 {
		return result{text: s}
	}
	fs = distinct(fs)
	spans := occurrences(s, d, decodes, fs)
	return result{text: replaceSpans(s, spans), spans: spans, findings: fs}
}

// occurrences are the merged spans of every occurrence of the findings in
// s, as stored and, when it has escapes, as read (d).
func occurrences(s string, d decoded, decodes bool, fs []finding) []span {
	var spans []span
	for _, f := range fs {
		spans = appendOccurrences(spans, s, nil, f)
		if decodes {
			spans = appendOccurrences(spans, d.text, d.from, f)
		}
	}
	return mergeSpans(spans)
}

// unavailable replaces a text when the rules could not be read: nothing is
// shown rather than secrets.
const unavailable = "[REDACTED: secret rules unavailable]"

// appendOccurrences adds a span for every occurrence of f's secret in text;
// from maps decoded text back to the original (nil: text is the original).
func appendOccurrences(spans []span, text string, from []int32, f finding) []span {
	for off := 0; ; {
		i := strings.Index(text[off:], f.secret)
		if i < 0 {
			return spans
		}
		a, b := off+i, off+i+len(f.secret)
		if from != nil {
			spans = append(spans, span{int(from[a]), int(from[b]), f.rule})
		} else {
			spans = append(spans, span{a, b, f.rule})
		}
		off = b
	}
}

// mergeSpans sorts spans and joins those that overlap or touch; a joined
// span is named by its longest part's rule.
func mergeSpans(spans []span) []span {
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end > spans[j].end
	})
	out := []span{spans[0]}
	longest := spans[0].end - spans[0].start
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start > last.end {
			out = append(out, sp)
			longest = sp.end - sp.start
			continue
		}
		if n := sp.end - sp.start; n > longest {
			last.rule, longest = sp.rule, n
		}
		last.end = max(last.end, sp.end)
	}
	return out
}

// replaceSpans replaces each span of s (merged) with its Mark.
func replaceSpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(Mark(sp.rule))
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// distinct sorts findings and drops repeats.
func distinct(fs []finding) []finding {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].secret != fs[j].secret {
			return fs[i].secret < fs[j].secret
		}
		return fs[i].rule < fs[j].rule
	})
	out := fs[:0]
	for i, f := range fs {
		if i == 0 || f.secret != fs[i-1].secret {
			out = append(out, f)
		}
	}
	return out
}
