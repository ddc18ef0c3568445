package ui

import (
	"strings"
	"testing"

	"github.com/recall-dev/recall/store"
)

// TestDetailHighlightsTheStoresTerms: the detail pane highlights what the
// store's parse says a match contains. A second lexer here read
// `c++ NEAR(a b, 3)` as the terms c, a, b and 3, and `deploy -docker` as
// deploy and -docker, so it highlighted the NEAR distance and missed c++.
func TestDetailHighlightsTheStoresTerms(t *testing.T) {
	for _, tc := range []struct {
		query, content string
		marked, plain  []string
	}{
		{"c++ NEAR(a b, 3)", "c++ near(a b, 3) broke the build 3 times", []string{"c++"}, []string{"3"}},
		{"deploy -docker", "deploy without docker -docker", []string{"deploy"}, []string{"docker"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			b := &fakeBackend{
				sessions: []store.SessionSummary{{Session: store.Session{ID: "s1", Source: "cli", Title: "build", StartedAt: testNow}, LastActive: testNow}},
				msgs:     map[string][]store.Message{"s1": {{ID: 1, SessionID: "s1", Role: "user", Content: tc.content, Timestamp: testNow}}},
			}
			d := newDriver(t, b, 120, 30)
			d.typ(tc.query)
			d.pump("transcript", func() bool { return d.m.detail.doc.session.ID == "s1" && d.m.detail.query == tc.query })
			doc := strings.Join(d.m.detail.doc.lines, "\n")
			for _, w := range tc.marked {
				if !strings.Contains(doc, hitOn+w+hitOff) {
					t.Errorf("%q is not highlighted in %q", w, doc)
				}
			}
			for _, w := range tc.plain {
				if strings.Contains(doc, hitOn+w) {
					t.Errorf("%q is highlighted in %q", w, doc)
				}
			}
		})
	}
}
