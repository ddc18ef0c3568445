package ui

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/recall"
	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/ui/termtext"
)

// TestHighlightsTheWordsSearched: through the real engine, the detail
// pane and the pager highlight the words (and forms) the search used: a
// question's content words and their inflections (network for
// networking), never the stopwords it dropped (how, did, we, the).
func TestHighlightsTheWordsSearched(t *testing.T) {
	st := openTestStore(t)
	ctx := context.Background()
	err := st.Write(ctx, func(tx *store.Tx) error {
		if err := tx.UpsertSession(store.Session{ID: "n-1", Source: "cli", Title: "compose trouble", StartedAt: testNow.Add(-time.Hour)}); err != nil {
			return err
		}
		_, err := tx.InsertMessages([]store.Message{
			{SessionID: "n-1", Role: "user", Content: "how did we fix the docker networking error?", Timestamp: testNow.Add(-time.Hour)},
			{SessionID: "n-1", Role: "assistant", Content: "The containers were on the default bridge network; we fixed it with a user-defined network.", Timestamp: testNow.Add(-time.Hour)},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	eng := recall.New(st, recall.Options{Sessions: recall.MaxSessions})
	for _, tc := range []struct {
		query         string
		marked, plain []string
	}{
		{"how did we fix the docker networking error?", []string{"docker", "networking", "network", "fixed", "fix", "error"}, []string{"how", "did", "we", "the"}},
		{"docker networks", []string{"docker", "networking", "network"}, []string{"fix"}},
		{`"docker networking"`, []string{"docker networking"}, []string{"network;", "fix"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			d := newDriver(t, NewEngineBackend(eng, st), 120, 30)
			d.typ(tc.query)
			d.pump("ranked", func() bool { return d.m.finalSeq == d.m.seq && d.m.lastQuery == tc.query && len(d.m.list.items) > 0 })
			d.pump("transcript", func() bool {
				return !d.m.detail.loading && d.m.detail.doc.session.ID == "n-1" && d.m.detail.query == tc.query && reflect.DeepEqual(d.m.detail.item.Parsed, d.m.list.items[0].Parsed)
			})
			doc := strings.Join(d.m.detail.doc.raw, "\n")
			on, off := string(termtext.MarkStart), string(termtext.MarkEnd)
			for _, w := range tc.marked {
				if !strings.Contains(strings.ToLower(doc), on+w+off) {
					t.Errorf("detail: %q is not highlighted in\n%s", w, doc)
				}
			}
			for _, w := range tc.plain {
				if strings.Contains(strings.ToLower(doc), on+w) {
					t.Errorf("detail: %q is highlighted in\n%s", w, doc)
				}
			}
			// The pager searches for the same words.
			_, terms := d.m.pagerTarget()
			pat := lessPattern(terms)
			for _, w := range tc.marked {
				if !strings.Contains("|"+pat+"|", "|"+strings.ReplaceAll(w, " ", `\ `)+"|") && !strings.Contains("|"+pat+"|", "|"+w+"|") {
					t.Errorf("pager pattern %q lacks %q", pat, w)
				}
			}
			for _, w := range tc.plain {
				if strings.Contains("|"+pat+"|", "|"+w+"|") {
					t.Errorf("pager pattern %q searches for %q", pat, w)
				}
			}
		})
	}
}
