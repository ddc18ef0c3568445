package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRankCoversEveryMatch is issue 23's acceptance test: for a query with
// more matches than the final phase ever ranked at once (pipeline.RankCandidates,
// newest first), `recall messages --limit 10` must return FTS5's own top 10
// by bm25 over every visible match (equal scores may trade places), in
// bm25 order, and say Complete. The corpus puts the best matches among the
// oldest rows, and hidden and rewound rows that would score best of all
// (they must never be shown).
func TestRankCoversEveryMatch(t *testing.T) {
	st := mustOpen(t)
	seedCoverageCorpus(t, st)
	ctx := context.Background()
	cases := []struct{ query, expr string }{
		{"error", "error"},
		{"error OR warning", "error OR warning"},
		{"err*", "err*"},
		{"disk error", "disk AND error"},
		{`"disk error"`, `"disk error"`},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			_, matches, err := st.NativeSessions(ctx, "messages_fts", c.expr, SearchFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if matches <= 1000 {
				t.Fatalf("%d visible matches: the corpus must give more than 1,000 for the test to mean anything", matches)
			}
			if storeCount(t, st, "SELECT count(*) FROM messages WHERE (display_kind = 'hidden' OR active = 0) AND id = "+
				"(SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT 1)", c.expr) != 1 {
				t.Fatal("bm25's best row over the whole index is not a hidden or rewound one: the corpus does not test visibility")
			}
			res := search(t, st, c.query, SearchFilter{Limit: 10})
			if !res.Complete {
				t.Errorf("Complete = false over %d matches: the ranking must cover every match", matches)
			}
			ids := hitIDs(res)
			top, scores, err := st.NativeTop(ctx, "messages_fts", c.expr, SearchFilter{}, 10, ids)
			if err != nil {
				t.Fatal(err)
			}
			if len(top) != 10 || len(ids) != 10 {
				t.Fatalf("native top %d, recall %d hits: want 10 each", len(top), len(ids))
			}
			plain, tie := TieAwareOverlap(ids, top, scores, 10)
			if tie != 10 {
				t.Errorf("top 10 shares %d (%d with ties) with FTS5's bm25 over all %d matches\nrecall: %s\nnative: %s",
					plain, tie, matches, describeScored(ids, scores), describeTop(top))
			}
			for i := 1; i < len(ids); i++ {
				a, b := scores[ids[i-1]], scores[ids[i]]
				if b < a-scoreTie*max(1, -a) {
					t.Errorf("hit %d (bm25 %.6f) ranked after hit %d (bm25 %.6f): not in bm25 order", ids[i], b, ids[i-1], a)
				}
			}
		})
	}
}

// seedCoverageCorpus writes 5,000 visible messages in 100 sessions of 8-47
// filler words: about 25 % hold the phrase "disk error", 15 % more "error"
// (1-3 times), 10 % "disk" alone, 30 % "warning" (so that each word is in
// less than half the rows and has a positive idf: FTS5 floors it near 0
// past half); the oldest 100 are short
// and hold "error" twice more, so bm25's best are the oldest rows. Among
// them, 20 hidden and 20 rewound rows that hold "disk error error error warning" four
// times and nothing else: bm25 would rank them first, visibility never.
func seedCoverageCorpus(t *testing.T, st *Store) {
	t.Helper()
	r := rand.New(rand.NewPCG(23, 1))
	filler := strings.Fields("the a service build log retry network cache config request queue worker node api token " +
		"memory thread socket handler deploy release branch commit test output input value")
	const total, perSession = 5000, 50
	var msgs []Message
	add := func(i int, content string, m Message) {
		m.SessionID = fmt.Sprintf("s%02d", i/perSession)
		m.Role = []string{"user", "assistant"}[i%2]
		m.Content = content
		m.Timestamp = at(i)
		msgs = append(msgs, m)
	}
	for i := range total {
		n, extra := 8+r.IntN(40), 0
		if i < 100 {
			n, extra = 3+r.IntN(5), 2
		}
		words := make([]string, 0, n+8)
		for range n {
			words = append(words, filler[r.IntN(len(filler))])
		}
		switch p := r.IntN(20); {
		case p < 5:
			words = append(words, "disk error")
		case p < 8:
			for range 1 + r.IntN(3) {
				words = append(words, "error")
			}
		case p < 10:
			words = append(words, "disk")
		}
		if r.IntN(10) < 3 {
			words = append(words, "warning")
		}
		if extra > 0 {
			words = append(words, "error", "error")
		}
		r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
		add(i, strings.Join(words, " "), Message{})
		if i%50 == 10 && i < 2000 {
			strong := strings.Repeat("disk error error error warning ", 4)
			add(i, strong, Message{DisplayKind: "hidden"})
			add(i, strong, Message{Inactive: true})
		}
	}
	err := st.Write(context.Background(), func(tx *Tx) error {
		for i := 0; i < total/perSession; i++ {
			if err := tx.UpsertSession(Session{ID: fmt.Sprintf("s%02d", i), Source: "claude", Title: fmt.Sprintf("session %d", i),
				Model: "test-model", StartedAt: at(i * perSession)}); err != nil {
				return err
			}
		}
		_, err := tx.InsertMessages(msgs)
		return err
	})
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
}

// describeScored lists ids with their bm25, for a failure message.
func describeScored(ids []int64, scores map[int64]float64) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d:%.4f", id, scores[id]))
	}
	return strings.Join(parts, " ")
}

func describeTop(top []ScoredRow) string {
	var parts []string
	for _, r := range top {
		parts = append(parts, fmt.Sprintf("%d:%.4f", r.ID, r.Score))
	}
	return strings.Join(parts, " ")
}
