package store

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSnippetsMarkTheWordsSearched: what a search says it searched
// (Result.Parsed, which the TUI, the pager and the summaries highlight)
// and the words its snippets mark (the CLI's evidence lines) are the
// words the search used: a question's content words with their forms
// (network for networking, fixed for fix), not the stopwords it dropped;
// the exact syntax's own terms when the query has syntax.
func TestSnippetsMarkTheWordsSearched(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	if err := st.CreateSession(ctx, Session{ID: "n", Source: "cli", StartedAt: at(0)}); err != nil {
		t.Fatal(err)
	}
	rows := []Message{
		{Role: "user", Content: "how did we fix the docker networking error?"},
		{Role: "assistant", Content: "The containers sat on the default bridge network; we fixed it with a user-defined network."},
		{Role: "user", Content: "and the networks in compose?"},
	}
	for i := range rows {
		rows[i].SessionID, rows[i].Timestamp = "n", at(i)
	}
	if _, err := st.AppendMessages(ctx, rows); err != nil {
		t.Fatal(err)
	}
	marked := regexp.MustCompile(HighlightStart + `([^` + HighlightEnd + `]*)` + HighlightEnd)
	for _, tc := range []struct {
		query  string
		f      SearchFilter
		want   []string // marked in some snippet
		never  []string // marked in none, nor among the parse's terms
		parsed []string // among the parse's terms
	}{
		{"how did we fix the docker networking error?", SearchFilter{Sessions: true, Phase: PhaseFinal},
			nil, []string{"how", "did", "we", "the"}, []string{"fix", "fixed", "network", "networking", "networks", "docker", "error"}},
		{"fixing the networks", SearchFilter{Sessions: true, Phase: PhaseFinal},
			[]string{"fix", "networking"}, []string{"the"}, []string{"fix", "fixed", "network", "networking"}},
		{`"bridge network"`, SearchFilter{Sessions: true, Phase: PhaseFinal},
			[]string{"bridge network"}, []string{"networks"}, []string{"bridge network"}},
		{"bridge network", SearchFilter{Phase: PhaseFinal}, // messages: the exact AND of the words
			[]string{"bridge", "network"}, []string{"networks"}, []string{"bridge", "network"}},
	} {
		res, err := st.SearchMessages(ctx, tc.query, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			for _, m := range marked.FindAllStringSubmatch(h.Snippet, -1) {
				got = append(got, strings.ToLower(m[1]))
			}
		}
		var terms []string
		for _, term := range res.Parsed.Terms {
			terms = append(terms, strings.ToLower(term.Text))
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %q not marked; marked %q", tc.query, w, got)
			}
		}
		for _, w := range tc.never {
			if slices.Contains(got, w) || slices.Contains(terms, w) {
				t.Errorf("%q: %q marked (%q) or searched (%q)", tc.query, w, got, terms)
			}
		}
		for _, w := range tc.parsed {
			if !slices.Contains(terms, w) {
				t.Errorf("%q: %q is not among the words searched %q", tc.query, w, terms)
			}
		}
	}
}
