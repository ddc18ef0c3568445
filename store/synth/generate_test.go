package synth_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/recall-dev/recall/store"
	"github.com/recall-dev/recall/store/synth"
)

// corpus drains a generator.
func corpus(n int, seed uint64) []synth.Session {
	g := synth.New(synth.Options{Messages: n, Seed: seed})
	var out []synth.Session
	for {
		s, ok := g.Next()
		if !ok {
			return out
		}
		out = append(out, s)
	}
}

func digest(ss []synth.Session) string {
	h := sha256.New()
	for _, s := range ss {
		b, _ := json.Marshal(s)
		h.Write(b)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestGenerateExactAndDeterministic(t *testing.T) {
	for _, n := range []int{1, 7, 1000, 12345} {
		a, b := corpus(n, 42), corpus(n, 42)
		total := 0
		for _, s := range a {
			if len(s.Messages) == 0 {
				t.Fatalf("n=%d: session %s has no messages", n, s.Session.ID)
			}
			total += len(s.Messages)
		}
		if total != n {
			t.Errorf("n=%d: generated %d messages", n, total)
		}
		if digest(a) != digest(b) {
			t.Errorf("n=%d: the same seed gave different corpora", n)
		}
	}
	if digest(corpus(1000, 1)) == digest(corpus(1000, 2)) {
		t.Error("different seeds gave the same corpus")
	}
}

func TestGenerateShape(t *testing.T) {
	ss := corpus(30000, 1)
	ids := map[string]synth.Session{}
	roles := map[string]int{}
	var chars, msgs, toolCalls, longest int
	scripts := map[string]int{}
	for _, s := range ss {
		if _, dup := ids[s.Session.ID]; dup {
			t.Fatalf("duplicate session id %s", s.Session.ID)
		}
		if p := s.Session.ParentID; p != "" {
			if _, ok := ids[p]; !ok {
				t.Fatalf("child %s comes before (or without) its parent %s", s.Session.ID, p)
			}
		}
		ids[s.Session.ID] = s
		longest = max(longest, len(s.Messages))
		for _, m := range s.Messages {
			roles[m.Role]++
			chars += len([]rune(m.Content))
			msgs++
			if m.ToolCalls != "" {
				toolCalls++
				var calls []map[string]any
				if err := json.Unmarshal([]byte(m.ToolCalls), &calls); err != nil {
					t.Fatalf("tool_calls is not JSON: %v: %s", err, m.ToolCalls)
				}
			}
			for _, r := range m.Content {
				switch {
				case unicode.Is(unicode.Han, r):
					scripts["han"]++
				case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
					scripts["kana"]++
				case unicode.Is(unicode.Hangul, r):
					scripts["hangul"]++
				}
			}
		}
	}
	depth := func(id string) int {
		d := 0
		for p := ids[id].Session.ParentID; p != ""; p = ids[p].Session.ParentID {
			d++
		}
		return d
	}
	maxDepth := 0
	for id := range ids {
		maxDepth = max(maxDepth, depth(id))
	}
	if maxDepth < 2 {
		t.Errorf("no three-level delegation chain (max depth %d)", maxDepth)
	}
	if avg := chars / msgs; avg < 180 || avg > 450 {
		t.Errorf("average message length %d characters, want about 300", avg)
	}
	for _, r := range []string{"user", "assistant", "tool"} {
		if roles[r] < msgs/10 {
			t.Errorf("role %s: %d of %d messages", r, roles[r], msgs)
		}
	}
	if toolCalls < msgs/10 {
		t.Errorf("%d tool calls in %d messages", toolCalls, msgs)
	}
	for _, sc := range []string{"han", "kana", "hangul"} {
		if scripts[sc] == 0 {
			t.Errorf("no %s text in the corpus", sc)
		}
	}
	if longest < 150 {
		t.Errorf("longest session has %d messages, want a long tail (150+)", longest)
	}
}

func TestPlantedTerms(t *testing.T) {
	const n = 30000
	ss := corpus(n, 3)
	for _, q := range synth.BenchQueries {
		if q.Period == 0 {
			continue
		}
		term := strings.Trim(q.Query, `"`)
		want := synth.PlantedCount(term, n)
		if want < 0 {
			continue // a part of a planted term (mixed-part)
		}
		got := 0
		for _, s := range ss {
			for _, m := range s.Messages {
				if strings.Contains(strings.ToLower(m.Content), term) {
					got++
				}
			}
		}
		if got < want {
			t.Errorf("%s: %d messages contain it, planted %d", term, got, want)
		}
	}
}

// TestLoadSearchable writes a corpus through the store and checks that every
// benchmark query finds something, on the path the query is meant for.
func TestLoadSearchable(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "gen.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const n = 3000
	var last int
	if _, err := synth.Load(ctx, st, synth.Options{Messages: n, Seed: 1}, func(done int) { last = done }); err != nil {
		t.Fatal(err)
	}
	if last != n {
		t.Errorf("progress ended at %d, want %d", last, n)
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Messages != n {
		t.Errorf("store holds %d messages, want %d", stats.Messages, n)
	}
	for _, q := range synth.BenchQueries {
		if q.Period > n {
			continue
		}
		res, err := st.SearchMessages(ctx, q.Query, store.SearchFilter{Limit: 50})
		if err != nil {
			t.Fatalf("%s: %v", q.Query, err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("%s (%s): no hits", q.Query, q.Kind)
		}
	}
	if _, err := synth.Load(ctx, st, synth.Options{Messages: 10, Seed: 1}, nil); err == nil || !strings.Contains(err.Error(), "already holds") {
		t.Errorf("second load into a full database: err = %v", err)
	}
}
