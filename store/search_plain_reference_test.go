package store

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recall-dev/recall/store/engine/analysis"
	"github.com/recall-dev/recall/store/engine/collect"
	"github.com/recall-dev/recall/store/engine/fill"
	"github.com/recall-dev/recall/store/engine/pipeline"
	"github.com/recall-dev/recall/store/engine/query"
	"github.com/recall-dev/recall/store/engine/rowcache"
	"github.com/recall-dev/recall/store/engine/score"
)

// refKey is the reference's session order, as the ranking's (collect.Key)
// is specified: in the date's range, score, newest.
type refKey struct {
	inRange bool
	score   float64
	newest  int64
}

func (a refKey) cmp(b refKey) int {
	if a.inRange != b.inRange {
		return collect.BoolDesc(a.inRange, b.inRange)
	}
	if c := collect.CmpFloatDesc(a.score, b.score); c != 0 {
		return c
	}
	return cmp.Compare(b.newest, a.newest) // newer first
}

// plainReference ranks a plain query's sessions the slow, obvious way, for
// checking searchPlainExact: every matching message found with FTS5 MATCH,
// its text read back from the index's own content and tokenized again, its
// length summed from %_docsize, its session, time and the session's first
// message and title read with SQL, and the ranking of engine/pipeline/plain.go
// computed from those. It shares with the store only the reading of the
// query (query.ReadPlain) and the tokenizer (checked against FTS5 elsewhere). It
// returns the ids of the sessions listed under filter f, best first.
func plainReference(t testing.TB, st *Store, raw string, f SearchFilter) []string {
	t.Helper()
	pq, ok := query.ReadPlain(raw, st.layout.engineLayout().Columns(), false, f.Now)
	if !ok {
		t.Fatalf("%q is not a plain query", raw)
	}
	n := len(pq.Words)
	var out []string
	err := st.read(context.Background(), func(c *conn) error {
		// Index statistics: its rows and their mean length.
		var nRow, totalTokens float64
		lens := map[int64]float64{}
		if err := c.query("SELECT id, sz FROM messages_fts_docsize", nil, func(s stmtRow) error {
			d := float64(rowcache.SumVarints(s.ColumnRawBlob(1)))
			lens[s.ColumnInt64(0)] = d
			nRow++
			totalTokens += d
			return nil
		}); err != nil {
			return err
		}
		avgdl := totalTokens / nRow
		// Each word's messages, by FTS5 itself.
		rows := map[int64]uint64{}
		idf := make([]float64, n)
		for i, w := range pq.Words {
			df := 0.0
			if err := c.query("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", []any{w.Expr()}, func(s stmtRow) error {
				rows[s.ColumnInt64(0)] |= 1 << i
				df++
				return nil
			}); err != nil {
				return err
			}
			idf[i] = math.Max(math.Log((nRow-df+0.5)/(df+0.5)), 0.05)
		}
		sumIDF := 0.0
		for _, v := range idf {
			sumIDF += v
		}
		forms := map[string]uint64{}
		for i, w := range pq.Words {
			for _, f := range w.Forms {
				for _, tok := range analysis.Unicode61Tokens(f) {
					forms[tok] |= 1 << i
				}
			}
		}
		phrase := analysis.Unicode61Tokens(pq.Phrase)
		type msg struct {
			id      int64
			session string
			at      time.Time
			value   float64
			mask    uint64
			tool    bool // tool output (the second phase)
			asst    bool // the assistant's
		}
		var msgs []*msg
		for id, mask := range rows {
			var text, session, role string
			var ts float64
			if err := c.query("SELECT f.content, m.session_id, m.timestamp, m.role FROM messages_fts f JOIN messages m ON m.id = f.rowid WHERE f.rowid = ?", []any{id}, func(s stmtRow) error {
				text, session, ts, role = s.ColumnText(0), s.ColumnText(1), s.ColumnFloat(2), s.ColumnText(3)
				return nil
			}); err != nil {
				return err
			}
			toks := analysis.Unicode61Tokens(text)
			tf := make([]float64, n)
			for _, tok := range toks {
				for i := 0; i < n; i++ {
					if forms[tok]&(1<<i) != 0 {
						tf[i]++
					}
				}
			}
			m := &msg{id: id, session: session, at: fromEpoch(ts), mask: mask, tool: role == "tool", asst: role == "assistant"}
			for i := range tf {
				if tf[i] > 0 {
					m.value += idf[i] * tf[i] * (score.K1 + 1) / (tf[i] + score.K1*(1-score.B+score.B*lens[id]/avgdl))
				}
			}
			if len(phrase) >= 2 && strings.Contains(" "+strings.Join(toks, " ")+" ", " "+strings.Join(phrase, " ")+" ") {
				m.value += score.PhraseWeight * sumIDF
			}
			msgs = append(msgs, m)
		}
		type sess struct {
			id          string
			msgs        []*msg
			key         refKey
			listed      bool
			title       string
			started     float64
			first       int64
			tmask, mask uint64
			values      []*msg // its messages, first prompt weighed, best first
			rows        float64
		}
		bySess := map[string]*sess{}
		for _, m := range msgs {
			se := bySess[m.session]
			if se == nil {
				se = &sess{id: m.session}
				bySess[m.session] = se
			}
			se.msgs = append(se.msgs, m)
		}
		filter, fargs := fill.Where(st.layout.engineLayout(), f)
		var all []*sess
		for _, se := range bySess {
			c.query("SELECT COALESCE(title, ''), started_at FROM sessions WHERE id = ?", []any{se.id}, func(s stmtRow) error {
				se.title, se.started = s.ColumnText(0), s.ColumnFloat(1)
				return nil
			})
			c.query("SELECT id FROM messages WHERE session_id = ? ORDER BY timestamp, id LIMIT 1", []any{se.id}, func(s stmtRow) error {
				se.first = s.ColumnInt64(0)
				return nil
			})
			for _, tok := range analysis.Tokens(se.title) {
				for i, w := range pq.Words {
					if slices.Contains(w.Forms, tok) {
						se.tmask |= 1 << i
					}
				}
			}
			se.mask = se.tmask
			se.key.inRange = !pq.Date.Zero() && pq.Date.Contains(fromEpoch(se.started))
			var values []*msg
			fullest := 0.0 // the idf of the words of its fullest message, title included
			for _, m := range se.msgs {
				v := m.value
				if m.id == se.first {
					v *= score.FirstPromptMul
				}
				values = append(values, &msg{id: m.id, value: v, tool: m.tool, asst: m.asst})
				se.mask |= m.mask
				var w float64
				for i := 0; i < n; i++ {
					if (m.mask|se.tmask)&(1<<i) != 0 {
						w += idf[i]
					}
				}
				fullest = max(fullest, w)
				se.key.inRange = se.key.inRange || pq.Date.Contains(m.at)
				se.key.newest = max(se.key.newest, m.id)
				args := append([]any{m.id}, fargs...)
				c.query("SELECT 1 FROM messages m CROSS JOIN sessions s ON s.id = m.session_id WHERE m.id = ? AND "+filter, args, func(s stmtRow) error {
					se.listed = true
					return nil
				})
			}
			slices.SortFunc(values, func(a, b *msg) int {
				if c := collect.CmpFloatDesc(a.value, b.value); c != 0 {
					return c
				}
				return cmp.Compare(b.id, a.id)
			})
			se.values = values
			for k, v := range values[:min(len(values), score.MaxSessionRows)] {
				se.rows += v.value / float64(k+1)
			}
			se.key.score += se.rows
			se.key.score += score.FullestWeight * fullest
			for i := 0; i < n; i++ {
				if se.tmask&(1<<i) != 0 {
					se.key.score += score.TitleWeight * idf[i]
				}
				if se.mask&(1<<i) != 0 {
					se.key.score += score.CoverageWeight * idf[i]
				}
			}
			all = append(all, se)
		}
		// The second phase: the best RescoreSessions sessions of every
		// match (listed or not) scored again, tool output among each one's
		// RescoreRows best rows weighing ToolOutputMul and, when one of
		// those is tool output, the assistant's AssistantMul; they stay
		// first.
		slices.SortFunc(all, func(a, b *sess) int { return a.key.cmp(b.key) })
		window := all[:min(len(all), collect.RescoreSessions)]
		for _, se := range window {
			var values []float64
			best := se.values[:min(len(se.values), collect.RescoreRows)]
			tools := slices.ContainsFunc(best, func(m *msg) bool { return m.tool })
			for _, m := range best {
				v := m.value
				if m.tool {
					v *= score.ToolOutputMul
				} else if m.asst && tools {
					v *= score.AssistantMul
				}
				values = append(values, v)
			}
			slices.SortFunc(values, collect.CmpFloatDesc)
			rows := 0.0
			for k, v := range values[:min(len(values), score.MaxSessionRows)] {
				rows += v / float64(k+1)
			}
			se.key.score += rows - se.rows
		}
		slices.SortStableFunc(window, func(a, b *sess) int { return a.key.cmp(b.key) })
		for _, se := range all {
			if se.listed {
				out = append(out, se.id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sessionOrder is the sessions of hits in the order they first appear.
func sessionOrder(hits []Hit) []string {
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.SessionID] {
			seen[h.SessionID] = true
			out = append(out, h.SessionID)
		}
	}
	return out
}

// TestPlainSessionsEqualReference: the sessions of a plain query, ranked
// over every match from the index, are the reference's, in order, for
// one and several words, a phrase in order, a title word, a date and a
// role filter that hides most matching messages.
func TestPlainSessionsEqualReference(t *testing.T) {
	st := rankedSessionsCorpus(t)
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		query string
		roles []string
	}{
		{"error", nil},
		{"docker network", nil},
		{"connection refused", nil},
		{"deploy rollback error", []string{"user", "assistant"}},
		{"kubernetes", nil},
		{"nginx timeout in May 2026", nil},
		{"postgres migration", []string{"user"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			f := SearchFilter{Phase: PhaseFinal, Limit: 300, Sessions: true, Roles: tc.roles, Now: now}
			res := search(t, st, tc.query, f)
			got := sessionOrder(res.Hits)
			want := plainReference(t, st, tc.query, f)
			if !res.Complete || len(want) < 5 {
				t.Fatalf("complete %v, reference lists %d sessions", res.Complete, len(want))
			}
			k := min(len(got), len(want), pipeline.PlainListed)
			t.Logf("%d sessions, reference %d, first %v", len(got), len(want), got[:min(3, len(got))])
			if k < min(len(want), 10) || !slices.Equal(got[:k], want[:k]) {
				t.Fatalf("sessions\n got %v\nwant %v", got[:min(len(got), 12)], want[:min(len(want), 12)])
			}
		})
	}
}

// rankedSessionsCorpus is a small history with the shapes session ranking reads:
// many sessions, titles, first prompts, tool output, dates.
func rankedSessionsCorpus(t *testing.T) *Store {
	t.Helper()
	st := mustOpen(t)
	words := strings.Fields("error docker network connection refused deploy rollback kubernetes nginx timeout postgres migration the a of to fix")
	ctx := context.Background()
	for sidx := 0; sidx < 120; sidx++ {
		err := st.Write(ctx, func(tx *Tx) error {
			sid := fmt.Sprintf("s%03d", sidx)
			started := time.Date(2026, time.Month(1+sidx%12), 1+sidx%27, 10, 0, 0, 0, time.UTC)
			title := ""
			if sidx%4 == 0 {
				title = fmt.Sprintf("%s %s #%d", words[sidx%len(words)], words[(sidx*7)%len(words)], sidx)
			}
			if err := tx.UpsertSession(Session{ID: sid, Source: "cli", Title: title, StartedAt: started}); err != nil {
				return err
			}
			var msgs []Message
			for i := 0; i < 4+sidx%9; i++ {
				var b strings.Builder
				for k := 0; k < 3+(sidx*i+k)%17; k++ {
					b.WriteString(words[(sidx*31+i*17+k*k*7)%len(words)] + " ")
				}
				if (sidx+i)%5 == 0 {
					b.WriteString("connection refused ")
				}
				msgs = append(msgs, Message{SessionID: sid, Role: []string{"user", "assistant", "tool"}[i%3], Content: b.String(), Timestamp: started.Add(time.Duration(i) * time.Minute)})
			}
			_, err := tx.InsertMessages(msgs)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return st
}
