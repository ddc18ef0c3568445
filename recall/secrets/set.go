package secrets

import "strings"

// Set redacts texts shown together (a session's messages, a result's
// evidence): a secret a rule finds in one of them, where the rule sees the
// context it needs ("API_KEY=…", "postgres://user:…@"), is also taken out
// of the others, where it may stand alone ("so the key ends in …"). The
// zero Set is ready; Learn every text before the first Text. A Set is not
// safe for concurrent Learn.
type Set struct {
	findings []finding
	seen     map[string]bool
	// Replaced counts the secrets Text has replaced.
	Replaced int
}

// Learn adds the secrets of texts to the set.
func (s *Set) Learn(texts ...string) {
	for _, t := range texts {
		for _, f := range cached(t).findings {
			if len(f.secret) < minShared || s.seen[f.secret] {
				continue
			}
			if s.seen == nil {
				s.seen = map[string]bool{}
			}
			s.seen[f.secret] = true
			s.findings = append(s.findings, f)
		}
	}
}

// minShared: a secret looked for in other texts is long enough not to be
// an ordinary word (a rule may accept a short password in a URL).
const minShared = 8

// Text returns t redacted: its own secrets and the set's.
func (s *Set) Text(t string) string {
	r := cached(t)
	if len(s.findings) == 0 || len(t) < minSecret {
		s.Replaced += len(r.spans)
		return r.text
	}
	d, decodes := decodeEscapes(t)
	var extra []finding
	for _, f := range s.findings {
		if strings.Contains(t, f.secret) || decodes && strings.Contains(d.text, f.secret) {
			extra = append(extra, f)
		}
	}
	if len(extra) == 0 {
		s.Replaced += len(r.spans)
		return r.text
	}
	spans := occurrences(t, d, decodes, distinct(append(extra, r.findings...)))
	s.Replaced += len(spans)
	return replaceSpans(t, spans)
}
