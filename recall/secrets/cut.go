package secrets

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/recall-dev/recall/store"
)

// A text cut before recall saw it whole (a title over Hermes's 100
// characters is stored cut) may end with the first part of a key, which
// no rule can recognise: sk-ant-api03-zBDzF… without its 93 characters and
// its AA. There is no whole text to look in, so the cut edge itself is
// judged: a long token there that reads as random (letters and digits
// mixed, the entropy gitleaks' generic rule asks of a key) is taken out,
// marked [REDACTED:cut]. Only at a cut: a whole text is the rules' to judge.

// cutRule names what a cut edge lost.
const cutRule = "cut"

// Token shape at a cut edge: at least minCutToken characters of a key's
// alphabet, entropy above cutEntropy (gitleaks' generic-api-key: 3.5).
const (
	minCutToken = 16
	cutEntropy  = 3.5
)

// Title returns a session title redacted: its secrets, and the start of a
// key at its end when it is as long as the store keeps titles (it was cut).
func Title(t string) string {
	r := cached(t)
	if utf8.RuneCountInString(t) < store.TitleMaxChars {
		return r.text
	}
	spans := append(append([]span(nil), r.spans...), edgeSpans(t, false, true)...)
	return replaceSpans(t, mergeSpans(spans))
}

// edgeSpans are the random-looking tokens at the cut ends of s.
func edgeSpans(s string, start, end bool) []span {
	var out []span
	if start {
		n := strings.IndexFunc(s, notKeyChar)
		if n < 0 {
			n = len(s)
		}
		if randomToken(s[:n]) {
			out = append(out, span{0, n, cutRule})
		}
	}
	if end {
		n := strings.LastIndexFunc(s, notKeyChar) + 1
		if randomToken(s[n:]) {
			out = append(out, span{n, len(s), cutRule})
		}
	}
	return out
}

// notKeyChar reports a rune no key is made of (keys are ASCII letters,
// digits and a few signs: base64, URL-safe base64, JWTs, prefixes).
func notKeyChar(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-+/=.", r))
}

// randomToken reports a token that reads as a key, not a word: long, with
// letters and digits mixed (or both cases after its first letter), and
// high entropy.
func randomToken(t string) bool {
	if len(t) < minCutToken {
		return false
	}
	var digit, lower, upper bool
	for i, c := range t {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z' && i > 0:
			upper = true
		}
	}
	if !(digit && (lower || upper) || lower && upper) {
		return false
	}
	return entropy(t) > cutEntropy
}

// entropy is the Shannon entropy of t in bits per character, as gitleaks
// computes it for a finding.
func entropy(t string) float64 {
	counts := map[rune]int{}
	for _, c := range t {
		counts[c]++
	}
	e := 0.0
	for _, n := range counts {
		p := float64(n) / float64(len(t))
		e -= p * math.Log2(p)
	}
	return e
}
